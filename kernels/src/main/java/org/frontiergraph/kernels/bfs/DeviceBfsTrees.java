package org.frontiergraph.kernels.bfs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.sssp.DeviceTrees;

/**
 * Standing BFS answers of a graph resident on the GPU, repaired on the device after each batch of updates: the SSSP
 * trees' launcher ({@link DeviceTrees}) with every arc counting 1 ({@link BfsRepair} is the host's counterpart). Each
 * {@link Standing} is a tree on the device and its host copy ({@link Standing#result()}), brought up to date from the
 * DELTA alone. Hop counts equal {@link BfsReference}'s; parents pass {@link BfsVerifier} and form a tree rooted at
 * the source.
 */
public final class DeviceBfsTrees {
    private final DeviceTrees trees;

    private DeviceBfsTrees(DeviceTrees trees) {
        this.trees = trees;
    }

    /** The BFS trees of {@code graph}, when it lives on the GPU; empty elsewhere (repair on the host there). */
    public static Optional<DeviceBfsTrees> on(ResidentGraph graph) {
        return DeviceTrees.on(graph).map(DeviceBfsTrees::new);
    }

    /** The shared device side (SSSP trees too). */
    public DeviceTrees trees() { return trees; }

    /** One standing answer: the tree on the device, and the host copy it is kept equal to. */
    public static final class Standing {
        private final DeviceTrees.Tree tree;
        private BfsResult result;

        private Standing(DeviceTrees.Tree tree, BfsResult result) {
            this.tree = tree;
            this.result = result;
        }

        /** The answer now (the host copy: repairs change its arrays in place, or replace it when the graph grew). */
        public BfsResult result() { return result; }

        public DeviceTrees.Tree tree() { return tree; }
    }

    /** A repaired answer, the vertices whose hops or parent changed (ascending), and how it was repaired. */
    public record Repaired(BfsResult result, int[] changed, DeviceTrees.How how) {}

    /** A standing answer starting from {@code answer}, the exact answer on the graph's current version. */
    public Standing open(BfsResult answer) {
        return new Standing(trees.open(answer.source(), true, values(answer.hops()), answer.parents()), answer);
    }

    /** Replaces {@code s}'s answer by {@code answer} (recomputed on the current version), on the device too. */
    public void reset(Standing s, BfsResult answer) {
        trees.reset(s.tree, values(answer.hops()), answer.parents());
        s.result = answer;
    }

    /**
     * {@code s}'s answer is now {@code answer}, which differs from the one the device holds at {@code vertices} only
     * (a repair on the host, for instance): those entries are written to the device (O(k)). The answer must have
     * as many vertices as the tree ({@link #reset} otherwise).
     */
    public void patch(Standing s, BfsResult answer, int[] vertices) {
        double[] values = new double[vertices.length];
        int[] parents = new int[vertices.length];
        for (int i = 0; i < vertices.length; i++) {
            int h = answer.hops()[vertices[i]];
            values[i] = h == BfsResult.UNREACHED ? Double.POSITIVE_INFINITY : h;
            parents[i] = answer.parents()[vertices[i]];
        }
        trees.patch(s.tree, vertices, values, parents);
        s.result = answer;
    }

    /** Frees {@code s}'s device memory. */
    public void close(Standing s) {
        trees.close(s.tree);
    }

    /**
     * Repairs {@code standing} after {@code changes} (the changes since their last repair or open): entry i is
     * {@code standing.get(i)}'s answer, its host copy brought up to date in place (new arrays when vertices were
     * added) with the vertices that changed, as {@link BfsRepair#repairAll} gives them.
     */
    public Repaired[] repairAll(List<Standing> standing, ChangedEdges changes) {
        long t0 = System.nanoTime();
        List<DeviceTrees.Tree> batch = new ArrayList<>(standing.size());
        Map<DeviceTrees.Tree, Standing> of = new IdentityHashMap<>();
        for (Standing s : standing) {
            batch.add(s.tree);
            of.put(s.tree, s);
        }
        DeviceTrees.Outcome[] outcomes = trees.repair(batch, changes,
                (screen, t) -> screen.touchesHops(of.get(t).result.hops(), of.get(t).result.parents()),
                (graph, t) -> {
                    BfsRepair.Repaired r = BfsRepair.repair(graph, of.get(t).result, changes, Long.MAX_VALUE);
                    of.get(t).result = r.result();
                    return new DeviceTrees.HostResult(values(r.result().hops()), r.result().parents(), r.changed());
                });
        long nanos = System.nanoTime() - t0;
        Repaired[] out = new Repaired[standing.size()];
        for (int i = 0; i < out.length; i++) {
            Standing s = standing.get(i);
            DeviceTrees.Outcome o = outcomes[i];
            BfsResult r = o.how() == DeviceTrees.How.HOST ? s.result : apply(s.result, s.tree.vertexCount(), o);
            s.result = new BfsResult(r.source(), r.hops(), r.parents(), new Timing(nanos, 0, o.counters()));
            out[i] = new Repaired(s.result, o.vertices(), o.how());
        }
        return out;
    }

    /** Hop counts as the launcher's values (+Inf unreached). */
    private static double[] values(int[] hops) {
        double[] v = new double[hops.length];
        for (int i = 0; i < v.length; i++) v[i] = hops[i] == BfsResult.UNREACHED ? Double.POSITIVE_INFINITY : hops[i];
        return v;
    }

    /** {@code r} with the DELTA {@code o} applied (in place; new arrays of {@code n} entries when the graph grew). */
    private static BfsResult apply(BfsResult r, int n, DeviceTrees.Outcome o) {
        int[] h = r.hops(), p = r.parents();
        if (h.length < n) {
            int before = h.length;
            h = Arrays.copyOf(h, n);
            p = Arrays.copyOf(p, n);
            Arrays.fill(h, before, n, BfsResult.UNREACHED);
            Arrays.fill(p, before, n, BfsResult.UNREACHED);
        }
        int[] v = o.vertices(), parents = o.parents();
        double[] values = o.values();
        for (int i = 0; i < v.length; i++) {
            h[v[i]] = values[i] == Double.POSITIVE_INFINITY ? BfsResult.UNREACHED : (int) values[i];
            p[v[i]] = parents[i];
        }
        return new BfsResult(r.source(), h, p, r.timing());
    }
}
