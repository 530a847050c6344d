package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.SsspRepair;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.sssp.TreeRepair;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.AnswerEncoders;

/** Standing SSSP: repaired by {@link SsspRepair}; a vertex changed when its distance or parent did. */
final class SsspStanding extends VertexStanding<SsspResult> {
    @Override public Algorithm algorithm() { return Algorithm.SSSP; }

    @Override
    @SuppressWarnings("unchecked")
    AnswerEncoder<?, SsspResult> encoder() {
        return (AnswerEncoder<?, SsspResult>) AnswerEncoders.of(Algorithm.SSSP);
    }

    @Override
    public Updated<SsspResult> repair(CsrGraph graph, SsspResult previous, ChangedEdges changes, int budgetDivisor) {
        long budget = SsspRepair.budget(graph, budgetDivisor);
        SsspRepair.Repaired r = SsspRepair.repair(graph, previous, changes, budget);
        return r == null ? null : new Updated<>(r.result(), Pending.Changes.ofVertices(r.changed()));
    }

    @Override
    public boolean touchedBy(TreeRepair.Screen screen, SsspResult answer) {
        return screen.touches(answer.distances(), answer.parents());
    }

    @Override
    public Verification verify(CsrGraph graph, SsspResult repaired, SsspResult fresh) {
        return SsspVerifier.verify(graph, fresh.source(), repaired, fresh);
    }

    @Override
    int vertexCount(SsspResult r) { return r.distances().length; }

    @Override
    boolean differs(SsspResult a, SsspResult b, int v) {
        double da = v < a.distances().length ? a.distances()[v] : Double.POSITIVE_INFINITY;
        double db = v < b.distances().length ? b.distances()[v] : Double.POSITIVE_INFINITY;
        int pa = v < a.parents().length ? a.parents()[v] : SsspResult.NO_PARENT;
        int pb = v < b.parents().length ? b.parents()[v] : SsspResult.NO_PARENT;
        return Double.compare(da, db) != 0 || pa != pb;
    }

    @Override
    void fill(QueryResult chunk, SsspResult r, int[] at, int from, int to, int first) {
        chunk.setDistances(PackedArrays.pack(r.distances(), at, from, to));
        chunk.setParents(userIds(r.parents(), at, from, to, first));
    }
}
