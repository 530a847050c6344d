package org.frontiergraph.kernels.sssp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;

/**
 * Standing SSSP answers of a graph resident on the GPU, repaired on the device after each batch of updates
 * ({@link DeviceTrees}; {@link SsspRepair} is the host's counterpart). Each {@link Standing} is a tree on the device
 * and its host copy ({@link Standing#result()}), which every repair brings up to date from the DELTA alone (the
 * vertices that changed). Distances equal {@link DijkstraReference}'s bit for bit; parents pass {@link SsspVerifier}
 * and form a tree rooted at the source.
 */
public final class DeviceSsspTrees {
    private final DeviceTrees trees;

    private DeviceSsspTrees(DeviceTrees trees) {
        this.trees = trees;
    }

    /** The SSSP trees of {@code graph}, when it lives on the GPU; empty elsewhere (repair on the host there). */
    public static Optional<DeviceSsspTrees> on(ResidentGraph graph) {
        return DeviceTrees.on(graph).map(DeviceSsspTrees::new);
    }

    /** The shared device side (BFS trees too). */
    public DeviceTrees trees() { return trees; }

    /** One standing answer: the tree on the device, and the host copy it is kept equal to. */
    public static final class Standing {
        private final DeviceTrees.Tree tree;
        private SsspResult result;

        private Standing(DeviceTrees.Tree tree, SsspResult result) {
            this.tree = tree;
            this.result = result;
        }

        /** The answer now (the host copy: repairs change its arrays in place, or replace it when the graph grew). */
        public SsspResult result() { return result; }

        public DeviceTrees.Tree tree() { return tree; }
    }

    /** A repaired answer, the vertices whose distance or parent changed (ascending), and how it was repaired. */
    public record Repaired(SsspResult result, int[] changed, DeviceTrees.How how) {}

    /**
     * A standing answer starting from {@code answer}, the exact answer on the graph's current version (its arrays are
     * the host copy from now on: repairs change them in place).
     */
    public Standing open(SsspResult answer) {
        return new Standing(trees.open(answer.source(), false, answer.distances(), answer.parents()), answer);
    }

    /** Replaces {@code s}'s answer by {@code answer} (recomputed on the current version), on the device too. */
    public void reset(Standing s, SsspResult answer) {
        trees.reset(s.tree, answer.distances(), answer.parents());
        s.result = answer;
    }

    /**
     * {@code s}'s answer is now {@code answer}, which differs from the one the device holds at {@code vertices} only
     * (a repair on the host, for instance): those entries are written to the device (O(k)). The answer must have
     * as many vertices as the tree ({@link #reset} otherwise).
     */
    public void patch(Standing s, SsspResult answer, int[] vertices) {
        double[] values = new double[vertices.length];
        int[] parents = new int[vertices.length];
        for (int i = 0; i < vertices.length; i++) {
            values[i] = answer.distances()[vertices[i]];
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
     * added) with the vertices that changed, as {@link SsspRepair#repairAll} gives them. Each result's timing is the
     * batch's wall time (shared by all) with the tree's counters ({@link DeviceTrees.Outcome}).
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
                (screen, t) -> screen.touches(of.get(t).result.distances(), of.get(t).result.parents()),
                (graph, t) -> {
                    SsspRepair.Repaired r = SsspRepair.repair(graph, of.get(t).result, changes, Long.MAX_VALUE);
                    of.get(t).result = r.result();
                    return new DeviceTrees.HostResult(r.result().distances(), r.result().parents(), r.changed());
                });
        long nanos = System.nanoTime() - t0;
        Repaired[] out = new Repaired[standing.size()];
        for (int i = 0; i < out.length; i++) {
            Standing s = standing.get(i);
            DeviceTrees.Outcome o = outcomes[i];
            SsspResult r = o.how() == DeviceTrees.How.HOST ? s.result : apply(s.result, s.tree.vertexCount(), o);
            s.result = new SsspResult(r.source(), r.distances(), r.parents(), new Timing(nanos, 0, o.counters()));
            out[i] = new Repaired(s.result, o.vertices(), o.how());
        }
        return out;
    }

    /** {@code r} with the DELTA {@code o} applied (in place; new arrays of {@code n} entries when the graph grew). */
    private static SsspResult apply(SsspResult r, int n, DeviceTrees.Outcome o) {
        double[] d = r.distances();
        int[] p = r.parents();
        if (d.length < n) {
            int before = d.length;
            d = Arrays.copyOf(d, n);
            p = Arrays.copyOf(p, n);
            Arrays.fill(d, before, n, Double.POSITIVE_INFINITY);
            Arrays.fill(p, before, n, SsspResult.NO_PARENT);
            r = new SsspResult(r.source(), d, p, r.timing());
        }
        int[] v = o.vertices();
        double[] values = o.values();
        int[] parents = o.parents();
        for (int i = 0; i < v.length; i++) {
            d[v[i]] = values[i];
            p[v[i]] = parents[i];
        }
        return r;
    }
}
