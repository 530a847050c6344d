package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import java.util.Optional;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Standing SSSP answers of a graph resident on the GPU, repaired on the device after each batch of updates
 * ({@link DeviceTreeAnswers} over {@link DeviceTrees}; {@link SsspRepair} is the host's counterpart). Distances equal
 * {@link DijkstraReference}'s bit for bit; parents pass {@link SsspVerifier} and form a tree rooted at the source.
 */
public final class DeviceSsspTrees {
    private DeviceSsspTrees() {}

    /** The SSSP trees of {@code graph}, when it lives on the GPU (one per graph); empty elsewhere (repair on the host). */
    public static Optional<DeviceTreeAnswers<SsspResult>> on(ResidentGraph graph) {
        return DeviceTrees.on(graph).map(t -> t.answers(FORM));
    }

    /** An SSSP answer as the trees read and change it. */
    static final DeviceTreeAnswers.Form<SsspResult> FORM = new DeviceTreeAnswers.Form<>() {
        @Override public Class<SsspResult> type() { return SsspResult.class; }

        @Override public boolean unitWeights() { return false; }

        @Override public int source(SsspResult r) { return r.source(); }

        @Override public double[] values(SsspResult r) { return r.distances(); }

        @Override public double valueAt(SsspResult r, int v) { return r.distances()[v]; }

        @Override public int[] parents(SsspResult r) { return r.parents(); }

        @Override public boolean touches(TreeRepair.Screen screen, SsspResult r) {
            return screen.touches(r.distances(), r.parents());
        }

        @Override
        public DeviceTreeAnswers.HostRepaired<SsspResult> repairOnHost(CsrGraph graph, SsspResult r, ChangedEdges changes) {
            SsspRepair.Repaired x = SsspRepair.repair(graph, r, changes, Long.MAX_VALUE);
            return new DeviceTreeAnswers.HostRepaired<>(x.result(), x.changed());
        }

        @Override public SsspResult grown(SsspResult r, int n) {
            if (r.distances().length >= n) return r;
            int before = r.distances().length;
            double[] d = Arrays.copyOf(r.distances(), n);
            int[] p = Arrays.copyOf(r.parents(), n);
            Arrays.fill(d, before, n, Double.POSITIVE_INFINITY);
            Arrays.fill(p, before, n, SsspResult.NO_PARENT);
            return new SsspResult(r.source(), d, p, r.timing());
        }

        @Override public void set(SsspResult r, int v, double value, int parent) {
            r.distances()[v] = value;
            r.parents()[v] = parent;
        }

        @Override public SsspResult withTiming(SsspResult r, Timing t) {
            return new SsspResult(r.source(), r.distances(), r.parents(), t);
        }
    };
}
