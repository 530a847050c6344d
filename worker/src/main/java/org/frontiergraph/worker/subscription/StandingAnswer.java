package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.registry.HeapBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One standing answer and the algorithm that keeps it. */
final class StandingAnswer<R> {
    private static final Logger LOG = LoggerFactory.getLogger(StandingAnswer.class);

    final Standing<R> standing;
    final AnswerKey key;
    final Subscriber owner;
    R result;
    /**
     * Its tree on the device ({@link DeviceAnswers}) on {@link #deviceOn}; null: none. The tree holds {@link #result}
     * but where the host's repairs changed it since ({@link #stale}, or every vertex when {@link #restale}).
     */
    Object device;
    ResidentGraph deviceOn;
    private java.util.BitSet stale;
    private boolean restale;

    @SuppressWarnings("unchecked")
    StandingAnswer(Standing<?> standing, Subscriber owner) {
        this.standing = (Standing<R>) standing;
        this.key = owner.key;
        this.owner = owner;
    }

    /** Heap reserved for it in the memory model, and where (released when the answer goes). */
    private HeapBudget budget;
    private long reserved;

    void reserved(HeapBudget budget, long bytes) {
        this.budget = budget;
        this.reserved = bytes;
    }

    /** Gives its heap back to the memory model (once). */
    void release() {
        if (reserved > 0) budget.releaseStanding(reserved);
        reserved = 0;
    }

    /** Frees its tree on the device, if any. */
    void closeDevice() {
        if (device == null) return;
        try {
            DeviceAnswers.close(deviceOn, device);
        } catch (RuntimeException e) {
            LOG.warn("freeing the device tree of standing {} failed ({})", key, e.toString());
        }
        dropDevice();
    }

    /** Whether it keeps a tree on {@code resident}'s device copy. */
    boolean hasTreeOn(ResidentGraph resident) {
        return device != null && deviceOn == resident;
    }

    /** Forgets its tree on the device (freed with the graph's device copy). */
    void dropDevice() {
        device = null;
        deviceOn = null;
        stale = null;
        restale = false;
    }

    /** The host repaired the answer at {@code vertices}: its tree on the device is behind there. */
    void changedOnHost(int[] vertices) {
        if (device == null || restale || vertices.length == 0) return;
        int n = DeviceAnswers.vertexCount(device);
        if (stale == null) stale = new java.util.BitSet(n);
        for (int v : vertices) {
            if (v >= n) {   // a new vertex: the tree is uploaded again
                restale = true;
                stale = null;
                return;
            }
            stale.set(v);
        }
        if (stale.cardinality() > n / 8) {   // cheaper uploaded whole than scattered
            restale = true;
            stale = null;
        }
    }

    /** Forgets what {@link #changedOnHost} recorded (the tree is about to be given the whole answer). */
    void dropStale() {
        stale = null;
        restale = false;
    }

    /** Brings its tree on the device level with {@link #result}: the changed entries written there, or all. */
    void level(ResidentGraph resident) {
        if (restale || DeviceAnswers.vertexCountOf(result) != DeviceAnswers.vertexCount(device)) DeviceAnswers.reset(resident, device, result);
        else DeviceAnswers.patch(resident, device, result, stale == null ? new int[0] : stale.stream().toArray());
        stale = null;
        restale = false;
    }

    /** Computes the answer from scratch on {@code engine}. */
    void compute(Engine engine, FrontierConfig config) {
        result = fresh(engine, config);
    }

    /** The answer from scratch on {@code engine}, brought up to date ({@link #engine}). */
    R fresh(Engine engine, FrontierConfig config) {
        return standing.compute(owner.context(engine.entry(), config, ResultMode.FULL, engine.resident()));
    }
}
