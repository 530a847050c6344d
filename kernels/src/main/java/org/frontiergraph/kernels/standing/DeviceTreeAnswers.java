package org.frontiergraph.kernels.standing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.graph.ChangedEdges;

/**
 * Standing tree answers ({@link TreeAnswer}: SSSP's, BFS's) of a graph resident on the GPU, each a tree on the device
 * ({@link DeviceTrees}) and its host copy ({@link Standing#result()}), which every repair brings up to date from the
 * DELTA alone (the vertices that changed). The answer tells the trees everything they need: its values and parents,
 * whether every arc counts 1, how it grows; where the device cannot give an exact tree, {@link TreeRepair} repairs
 * the host copy.
 */
public final class DeviceTreeAnswers {
    /** One standing answer: the tree on the device, and the host copy it is kept equal to. */
    public static final class Standing<A extends TreeAnswer<A>> {
        private final DeviceTrees owner;
        private final DeviceTree tree;
        private A result;

        private Standing(DeviceTrees owner, DeviceTree tree, A result) {
            this.owner = owner;
            this.tree = tree;
            this.result = result;
        }

        /** The answer now (the host copy: repairs change its arrays in place, or replace it when the graph grew). */
        public A result() { return result; }

        public DeviceTree tree() { return tree; }

        /** Whether its tree is one of {@code trees}. */
        public boolean of(DeviceTrees trees) { return owner == trees; }
    }

    /** A repaired answer, the vertices whose value or parent changed (ascending), and how it was repaired. */
    public record Repaired<A>(A result, int[] changed, TreeOutcome.How how) {}

    private final DeviceTrees trees;

    public DeviceTreeAnswers(DeviceTrees trees) {
        this.trees = trees;
    }

    /** The standing answers of {@code graph}, when it lives on the GPU (one set of trees per graph); empty elsewhere. */
    public static Optional<DeviceTreeAnswers> on(ResidentGraph graph, RepairPolicy policy) {
        return DeviceTrees.on(graph, policy).map(DeviceTreeAnswers::new);
    }

    /** The trees they keep. */
    public DeviceTrees trees() { return trees; }

    /**
     * A standing answer starting from {@code answer}, the exact answer on the graph's current version (its arrays are
     * the host copy from now on: repairs change them in place).
     */
    public <A extends TreeAnswer<A>> Standing<A> open(A answer) {
        DeviceTree t = trees.open(answer.source(), answer.unitWeights(), answer.values(), answer.parents());
        return new Standing<>(trees, t, answer);
    }

    /** Replaces {@code s}'s answer by {@code answer} (recomputed on the current version), on the device too. */
    public <A extends TreeAnswer<A>> void reset(Standing<A> s, A answer) {
        trees.reset(own(s).tree, answer.values(), answer.parents());
        s.result = answer;
    }

    /**
     * {@code s}'s answer is now {@code answer}, which differs from the one the device holds at {@code vertices} only
     * (a repair on the host, for instance): those entries are written to the device (O(k)). The answer must have as
     * many vertices as the tree ({@link #reset} otherwise).
     */
    public <A extends TreeAnswer<A>> void patch(Standing<A> s, A answer, int[] vertices) {
        BitSet at = new BitSet(s.tree.vertexCount());
        for (int v : vertices) {
            if (v < 0 || v >= s.tree.vertexCount()) throw new IllegalArgumentException("vertex " + v + " outside the tree's " + s.tree.vertexCount());
            at.set(v);
        }
        patchAll(List.of(prepare(s, answer, at)));
    }

    /**
     * What {@link #patchAll} writes for {@code answer} at {@code vertices} (below the tree's vertex count; none: the
     * tree's host copy only becomes {@code answer}): made on the host alone, so the patches of several trees can be
     * made side by side.
     */
    public static <A extends TreeAnswer<A>> Patch<A> prepare(Standing<A> s, A answer, BitSet vertices) {
        int k = vertices.cardinality();
        int[] packed = new int[4 * k];
        int i = 0;
        for (int v = vertices.nextSetBit(0); v >= 0; v = vertices.nextSetBit(v + 1), i++) {
            s.tree.pack(packed, k, i, v, answer.value(v), answer.parent(v));
        }
        return new Patch<>(s, answer, packed);
    }

    /** A patch of {@code standing}'s tree, whose answer is now {@code answer}: packed as the device reads it ({@link DeviceTree#pack}). */
    public record Patch<A extends TreeAnswer<A>>(Standing<A> standing, A answer, int[] packed) {
        /** The tree's host copy becomes {@code answer}. */
        void take() {
            standing.result = answer;
        }
    }

    /** Writes {@code patches} to their trees in one upload; each answer is its patch's from now on. */
    public void patchAll(List<? extends Patch<?>> patches) {
        List<DeviceTree> ts = new ArrayList<>(patches.size());
        List<int[]> packed = new ArrayList<>(patches.size());
        for (Patch<?> p : patches) {
            ts.add(own(p.standing()).tree);
            packed.add(p.packed());
        }
        trees.patchPacked(ts, packed);
        for (Patch<?> p : patches) p.take();
    }

    /** Frees {@code s}'s device memory. */
    public void close(Standing<?> s) {
        trees.close(own(s).tree);
    }

    /**
     * Repairs {@code standing} (of any kinds) after {@code changes} (the changes since their last repair or open),
     * {@code screen} the batch's {@link Screen} on the current version: entry i is {@code standing.get(i)}'s answer,
     * its host copy brought up to date in place (new arrays when vertices were added) with the vertices that changed,
     * as the host's repair gives them. Each result's timing is the batch's wall time (shared by all) with the tree's
     * counters ({@link TreeOutcome}).
     */
    public List<Repaired<?>> repairAll(List<? extends Standing<?>> standing, ChangedEdges changes, Screen screen) {
        long t0 = System.nanoTime();
        List<DeviceTree> batch = new ArrayList<>(standing.size());
        Map<DeviceTree, Standing<?>> of = new IdentityHashMap<>();
        for (Standing<?> s : standing) {
            batch.add(own(s).tree);
            of.put(s.tree(), s);
        }
        TreeOutcome[] outcomes = trees.repair(batch, changes, screen, (sc, t) -> sc.touches(of.get(t).result),
                (graph, t) -> onHost(of.get(t), graph, changes));
        long nanos = System.nanoTime() - t0;
        long changed = 0;
        for (TreeOutcome o : outcomes) changed += o.vertices().length;
        // each tree's DELTA into its own answer: on all cores when they are large (10^4 re-weights of 100 NY trees
        // change 25 M vertices)
        Repaired<?>[] out = new Repaired<?>[standing.size()];
        IntStream is = IntStream.range(0, standing.size());
        (changed >= PARALLEL_APPLY ? is.parallel() : is).forEach(i -> out[i] = applied(standing.get(i), outcomes[i], nanos));
        return List.of(out);
    }

    /** Changed vertices of a repair from which the DELTAs are applied to the answers on all cores. */
    static final long PARALLEL_APPLY = 1 << 16;

    /** The host's exact repair of {@code s}'s answer, where the device cannot give an exact tree. */
    private static <A extends TreeAnswer<A>> DeviceTrees.HostResult onHost(Standing<A> s, org.frontiergraph.kernels.graph.CsrGraph graph,
                                                                          ChangedEdges changes) {
        TreeRepair.Repaired<A> r = TreeRepair.repair(graph, s.result, changes, Long.MAX_VALUE);
        s.result = r.result();
        return new DeviceTrees.HostResult(r.result().values(), r.result().parents(), r.changed());
    }

    /** {@code s}'s answer with the DELTA {@code o} applied (in place; new arrays when the graph grew). */
    private static <A extends TreeAnswer<A>> Repaired<A> applied(Standing<A> s, TreeOutcome o, long nanos) {
        A a = s.result;
        if (o.how() != TreeOutcome.How.HOST) {
            a = a.grown(s.tree.vertexCount());
            int[] v = o.vertices(), parents = o.parents();
            double[] values = o.values();
            for (int i = 0; i < v.length; i++) a.set(v[i], values[i], parents[i]);
        }
        s.result = a.withTiming(new Timing(nanos, 0, o.counters()));
        return new Repaired<>(s.result, o.vertices(), o.how());
    }

    /** {@code s}, checked to be a tree of these trees. */
    private <S extends Standing<?>> S own(S s) {
        if (!s.of(trees)) {
            throw new IllegalArgumentException("standing tree from " + s.tree().source() + " is not of this graph's device copy");
        }
        return s;
    }
}
