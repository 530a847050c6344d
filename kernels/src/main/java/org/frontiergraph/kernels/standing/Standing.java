package org.frontiergraph.kernels.standing;

import java.util.BitSet;
import org.frontiergraph.kernels.engine.ResidentGraph;

/**
 * One standing answer kept by {@link Standings}: its kind and the answer now, exact on the version its last repair or
 * reset brought it to. Where the graph lives on the GPU, {@link DeviceStandings} keeps a tree of it on the device too;
 * that state is theirs, opaque here.
 *
 * @param <A> the answer
 */
public final class Standing<A> {
    /** Where an answer is kept after {@link Standings#open} or {@link Standings#reset}. */
    public enum Placed {
        /** On the host only. */
        HOST,
        /** Its tree on the device, kept and given the answer. */
        TREE_KEPT,
        /** A tree on the device, opened now. */
        TREE_OPENED,
        /** On the host only: its tree on the device could not be had ({@link #refusal()}). */
        REFUSED
    }

    final StandingKind<A> kind;
    A answer;
    Placed placed = Placed.HOST;
    RuntimeException refusal;
    /**
     * Its tree on the device ({@link DeviceTreeAnswers}) on {@link #treeOn}; null: none. The tree holds {@link #answer}
     * but where the host's repairs changed it since ({@link #stale}, or every vertex when {@link #restale}).
     */
    DeviceTreeAnswers.Standing<?> tree;
    ResidentGraph treeOn;
    BitSet stale;
    boolean restale;

    Standing(StandingKind<A> kind, A answer) {
        this.kind = kind;
        this.answer = answer;
    }

    public StandingKind<A> kind() { return kind; }

    /** The answer now. */
    public A answer() { return answer; }

    /** Where the last open or reset placed it. */
    public Placed placed() { return placed; }

    /** Why its tree could not be kept on the device ({@link Placed#REFUSED}); null otherwise. */
    public RuntimeException refusal() { return refusal; }

    /** Whether it keeps a tree on {@code resident}'s device copy. */
    public boolean hasTreeOn(ResidentGraph resident) {
        return tree != null && treeOn == resident;
    }

    /** Forgets its tree on the device (freed with the graph's device copy, or by the caller). */
    void dropTree() {
        tree = null;
        treeOn = null;
        stale = null;
        restale = false;
    }
}
