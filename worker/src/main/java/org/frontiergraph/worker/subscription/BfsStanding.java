package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.bfs.BfsRepair;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.TreeRepair;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.AnswerEncoders;

/** Standing BFS: repaired by {@link BfsRepair}; a vertex changed when its hop count or parent did. */
final class BfsStanding extends VertexStanding<BfsResult> {
    @Override public Algorithm algorithm() { return Algorithm.BFS; }

    @Override
    @SuppressWarnings("unchecked")
    AnswerEncoder<?, BfsResult> encoder() {
        return (AnswerEncoder<?, BfsResult>) AnswerEncoders.of(Algorithm.BFS);
    }

    @Override
    public Updated<BfsResult> repair(CsrGraph graph, BfsResult previous, ChangedEdges changes, int budgetDivisor) {
        long budget = BfsRepair.budget(graph, budgetDivisor);
        BfsRepair.Repaired r = BfsRepair.repair(graph, previous, changes, budget);
        return r == null ? null : new Updated<>(r.result(), Pending.Changes.ofVertices(r.changed()));
    }

    @Override
    public boolean touchedBy(TreeRepair.Screen screen, BfsResult answer) {
        return screen.touchesHops(answer.hops(), answer.parents());
    }

    @Override
    public Verification verify(CsrGraph graph, BfsResult repaired, BfsResult fresh) {
        return BfsVerifier.verify(graph, fresh.source(), repaired, fresh);
    }

    @Override
    int vertexCount(BfsResult r) { return r.hops().length; }

    @Override
    boolean differs(BfsResult a, BfsResult b, int v) {
        int ha = v < a.hops().length ? a.hops()[v] : BfsResult.UNREACHED;
        int hb = v < b.hops().length ? b.hops()[v] : BfsResult.UNREACHED;
        int pa = v < a.parents().length ? a.parents()[v] : BfsResult.UNREACHED;
        int pb = v < b.parents().length ? b.parents()[v] : BfsResult.UNREACHED;
        return ha != hb || pa != pb;
    }

    @Override
    void fill(QueryResult chunk, BfsResult r, int[] at, int from, int to, int first) {
        chunk.setHops(PackedArrays.pack(r.hops(), at, from, to));
        chunk.setParents(userIds(r.parents(), at, from, to, first));
    }
}
