package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.standing.Delta;
import org.frontiergraph.kernels.standing.MstKind;
import org.frontiergraph.kernels.standing.MstKind.Forest;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.AnswerEncoders;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing MST: the forest, kept by the kernels' {@link MstKind}. A DELTA push lists the forest edges that left
 * ({@code removedEdges}, no weights) and those that joined or changed weight ({@code mstEdges}), with the new total
 * weight and component count in every chunk. No TARGETS mode (an MST answer is not per vertex).
 */
public final class MstForm implements StandingForm<Forest> {
    @Override public Algorithm algorithm() { return Algorithm.MST; }

    @Override public MstKind kind() { return MstKind.MST; }

    @Override public boolean fromSource() { return false; }

    /**
     * A forest and its index, about 64 bytes a vertex, and on a graph held in the wide form its edges by pair (16), which
     * the recompute after each batch is compared with ({@link MstKind.Forest#held}).
     */
    @Override public long bytesPerVertex() { return 80; }

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
        return Forest.of(c.resident().graph(), r);
    }

    @Override
    public List<QueryResult> complete(QueryContext c, Forest f) {
        return encoder().encode(c, f.result());
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
            s.putInt(Delta.first(pair) + first);
            t.putInt(Delta.second(pair) + first);
            if (weighted) w.putDouble(ops.get(i).getValue());
        }
        return new EdgeBatch(s.flip(), t.flip(), w.flip());
    }
}
