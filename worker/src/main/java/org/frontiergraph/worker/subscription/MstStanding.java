package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstRepair;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.AnswerEncoders;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing MST: the forest and the {@link MstRepair} that keeps it. A DELTA push lists the forest edges that left
 * ({@code removedEdges}, no weights) and those that joined or changed weight ({@code mstEdges}), with the new total
 * weight and component count in every chunk. No TARGETS mode (an MST answer is not per vertex).
 */
final class MstStanding implements Standing<MstStanding.Forest> {
    /** The forest and its repair state (built when the forest was computed, before later re-weights). */
    record Forest(MstResult result, MstRepair repair) {}

    @Override public Algorithm algorithm() { return Algorithm.MST; }

    @Override
    public boolean supports(ResultMode mode) {
        return mode != ResultMode.TARGETS;
    }

    @SuppressWarnings("unchecked")
    private static AnswerEncoder<WholeGraph, MstResult> encoder() {
        return (AnswerEncoder<WholeGraph, MstResult>) AnswerEncoders.of(Algorithm.MST);
    }

    @Override
    public Forest compute(QueryContext c) {
        MstResult r = c.resident().run(Mst.SPEC, WholeGraph.QUERY, null);
        return new Forest(r, new MstRepair(c.resident().graph(), r));
    }

    @Override
    public List<QueryResult> complete(QueryContext c, Forest f) {
        return encoder().encode(c, f.result());
    }

    @Override
    public Updated<Forest> repair(CsrGraph graph, Forest previous, ChangedEdges changes, int budgetDivisor) {
        MstRepair.Repaired r = previous.repair().repair(graph, changes);
        if (r == null) return null;
        UndirectedEdges e = graph.undirectedEdges();
        int removed = r.removedU().length, added = r.addedEdgeIds().length;
        long[] pairs = new long[removed + added];
        double[] weights = new double[removed + added];
        for (int i = 0; i < removed; i++) {
            pairs[i] = Pending.pair(r.removedU()[i], r.removedV()[i]);
            weights[i] = Double.NaN;
        }
        for (int i = 0; i < added; i++) {
            int id = r.addedEdgeIds()[i];
            pairs[removed + i] = Pending.pair(e.u[id], e.v[id]);
            weights[removed + i] = e.w[id];
        }
        return new Updated<>(new Forest(r.result(), previous.repair()), Pending.Changes.ofEdges(pairs, weights));
    }

    @Override
    public Pending.Changes compare(Forest previous, Forest next) {
        return null;   // the previous forest's edge ids refer to an earlier version's edge list: pushed complete
    }

    @Override
    public Verification verify(CsrGraph graph, Forest repaired, Forest fresh) {
        return MstVerifier.verify(graph, repaired.result(), fresh.result());
    }

    @Override
    public List<QueryResult> delta(QueryContext c, Forest f, Pending pending) {
        List<Map.Entry<Long, Double>> joined = new ArrayList<>(), left = new ArrayList<>();
        for (Map.Entry<Long, Double> op : pending.edges().entrySet()) (op.getValue().isNaN() ? left : joined).add(op);
        int first = c.entry().firstVertexId();
        int per = Math.max(1, c.config().getResultChunkEdges());
        int count = Math.max(1, (Math.max(joined.size(), left.size()) + per - 1) / per);
        List<QueryResult> chunks = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            QueryResult res = c.header(k, count);
            res.setTotalWeight(f.result().totalWeight());
            res.setComponents((long) f.result().components());
            res.setOffset(k * per);
            res.setMstEdges(batch(joined, k * per, per, first, true));
            res.setRemovedEdges(batch(left, k * per, per, first, false));
            chunks.add(res);
        }
        return chunks;
    }

    /** Edges {@code from .. from+per} of {@code ops} in user ids, with their weights or none. */
    private static EdgeBatch batch(List<Map.Entry<Long, Double>> ops, int from, int per, int first, boolean weighted) {
        int to = Math.min(ops.size(), from + per), k = Math.max(0, to - from);
        ByteBuffer s = PackedArrays.int32Buffer(k), t = PackedArrays.int32Buffer(k);
        ByteBuffer w = PackedArrays.float64Buffer(weighted ? k : 0);
        for (int i = from; i < to; i++) {
            long pair = ops.get(i).getKey();
            s.putInt(Pending.first(pair) + first);
            t.putInt(Pending.second(pair) + first);
            if (weighted) w.putDouble(ops.get(i).getValue());
        }
        return new EdgeBatch(s.flip(), t.flip(), w.flip());
    }
}
