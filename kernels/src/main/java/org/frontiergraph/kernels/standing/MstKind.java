package org.frontiergraph.kernels.standing;

import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.MstRepair;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;

/**
 * Standing MST: the forest and the {@link MstRepair} that keeps it, on the host. What changed is the forest edges that
 * left (weight NaN) and those that joined or changed weight, by endpoint pair.
 */
public final class MstKind implements StandingKind<MstKind.Forest> {
    public static final MstKind MST = new MstKind();

    /** The forest and its repair state (built when the forest was computed, before later re-weights). */
    public record Forest(MstResult result, MstRepair repair) {
        /** The standing form of {@code result}, the forest just computed on {@code graph}. */
        public static Forest of(CsrGraph graph, MstResult result) {
            return new Forest(result, new MstRepair(graph, result));
        }
    }

    private MstKind() {}

    @Override
    public Update<Forest> repair(CsrGraph graph, Forest previous, ChangedEdges changes, int budgetDivisor) {
        MstRepair.Repaired r = previous.repair().repair(graph, changes);
        if (r == null) return null;
        UndirectedEdges e = graph.undirectedEdges();
        int removed = r.removedU().length, added = r.addedEdgeIds().length;
        long[] pairs = new long[removed + added];
        double[] weights = new double[removed + added];
        for (int i = 0; i < removed; i++) {
            pairs[i] = Delta.pair(r.removedU()[i], r.removedV()[i]);
            weights[i] = Double.NaN;
        }
        for (int i = 0; i < added; i++) {
            int id = r.addedEdgeIds()[i];
            pairs[removed + i] = Delta.pair(e.u[id], e.v[id]);
            weights[removed + i] = e.w[id];
        }
        return new Update<>(new Forest(r.result(), previous.repair()), Delta.ofEdges(pairs, weights));
    }

    @Override
    public Delta compare(Forest previous, Forest next) {
        return null;   // the previous forest's edge ids refer to an earlier version's edge list: pushed complete
    }

    @Override
    public Verification verify(CsrGraph graph, Forest repaired, Forest fresh) {
        return MstVerifier.verify(graph, repaired.result(), fresh.result());
    }

    @Override
    public void prepare(CsrGraph graph) {
        StandingKind.super.prepare(graph);
        graph.undirectedEdges();
    }
}
