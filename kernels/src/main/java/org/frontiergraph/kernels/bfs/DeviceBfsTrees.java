package org.frontiergraph.kernels.bfs;

import java.util.Arrays;
import java.util.Optional;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.DeviceTreeAnswers;
import org.frontiergraph.kernels.sssp.DeviceTrees;
import org.frontiergraph.kernels.sssp.TreeRepair;

/**
 * Standing BFS answers of a graph resident on the GPU, repaired on the device after each batch of updates: the SSSP
 * trees' launcher ({@link DeviceTreeAnswers} over {@link DeviceTrees}) with every arc counting 1 ({@link BfsRepair} is
 * the host's counterpart). Hop counts equal {@link BfsReference}'s; parents pass {@link BfsVerifier} and form a tree
 * rooted at the source.
 */
public final class DeviceBfsTrees {
    private DeviceBfsTrees() {}

    /** The BFS trees of {@code graph}, when it lives on the GPU (one per graph); empty elsewhere (repair on the host). */
    public static Optional<DeviceTreeAnswers<BfsResult>> on(ResidentGraph graph) {
        return DeviceTrees.on(graph).map(t -> t.answers(FORM));
    }

    /** Hop count {@code h} as the launcher's value (+Inf unreached). */
    private static double value(int h) {
        return h == BfsResult.UNREACHED ? Double.POSITIVE_INFINITY : h;
    }

    /** A BFS answer as the trees read and change it (hop counts as doubles). */
    static final DeviceTreeAnswers.Form<BfsResult> FORM = new DeviceTreeAnswers.Form<>() {
        @Override public Class<BfsResult> type() { return BfsResult.class; }

        @Override public boolean unitWeights() { return true; }

        @Override public int source(BfsResult r) { return r.source(); }

        @Override public double[] values(BfsResult r) {
            int[] hops = r.hops();
            double[] v = new double[hops.length];
            for (int i = 0; i < v.length; i++) v[i] = value(hops[i]);
            return v;
        }

        @Override public double valueAt(BfsResult r, int v) { return value(r.hops()[v]); }

        @Override public int[] parents(BfsResult r) { return r.parents(); }

        @Override public boolean touches(TreeRepair.Screen screen, BfsResult r) {
            return screen.touchesHops(r.hops(), r.parents());
        }

        @Override
        public DeviceTreeAnswers.HostRepaired<BfsResult> repairOnHost(CsrGraph graph, BfsResult r, ChangedEdges changes) {
            BfsRepair.Repaired x = BfsRepair.repair(graph, r, changes, Long.MAX_VALUE);
            return new DeviceTreeAnswers.HostRepaired<>(x.result(), x.changed());
        }

        @Override public BfsResult grown(BfsResult r, int n) {
            if (r.hops().length >= n) return r;
            int before = r.hops().length;
            int[] h = Arrays.copyOf(r.hops(), n), p = Arrays.copyOf(r.parents(), n);
            Arrays.fill(h, before, n, BfsResult.UNREACHED);
            Arrays.fill(p, before, n, BfsResult.UNREACHED);
            return new BfsResult(r.source(), h, p, r.timing());
        }

        @Override public void set(BfsResult r, int v, double value, int parent) {
            r.hops()[v] = value == Double.POSITIVE_INFINITY ? BfsResult.UNREACHED : (int) value;
            r.parents()[v] = parent;
        }

        @Override public BfsResult withTiming(BfsResult r, Timing t) {
            return new BfsResult(r.source(), r.hops(), r.parents(), t);
        }
    };
}
