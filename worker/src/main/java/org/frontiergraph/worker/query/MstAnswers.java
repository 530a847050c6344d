package org.frontiergraph.worker.query;

import java.nio.ByteBuffer;
import java.util.List;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstSummary;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * MST answers: the total weight and component count in every chunk; FULL: the forest's edges (user ids, ascending
 * edge id) in chunks of {@code frontier.result-chunk-edges}.
 */
public final class MstAnswers implements AnswerEncoder<WholeGraph, MstResult> {
    @Override public Algorithm algorithm() { return Algorithm.MST; }
    @Override public AlgorithmSpec<WholeGraph, MstResult> spec() { return Mst.SPEC; }
    @Override public WholeGraph query(QueryContext c) { return WholeGraph.QUERY; }
    @Override public Timing timing(MstResult r) { return r.timing(); }
    @Override public AnswerShape shape() { return AnswerShape.EDGES; }
    @Override public WholeGraph answered(QueryResult head) { return WholeGraph.QUERY; }

    /** The forest's edges as ids into {@code g.undirectedEdges()}, ascending. */
    @Override
    public MstResult decode(CsrGraph g, List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        return new MstResult(Answers.edgeIds(g, chunks), head.getTotalWeight(), (int) (long) head.getComponents(), Timing.NONE);
    }

    private static final Encoding<WholeGraph, MstSummary> SUMMARY = new Encoding<>() {
        @Override public AlgorithmSpec<WholeGraph, MstSummary> spec() { return Mst.SUMMARY; }
        @Override public WholeGraph query(QueryContext c) { return WholeGraph.QUERY; }
        @Override public Timing timing(MstSummary r) { return r.timing(); }

        @Override
        public List<QueryResult> encode(QueryContext c, MstSummary r) {
            QueryResult res = c.header(0, 1);
            res.setTotalWeight(r.totalWeight());
            res.setComponents((long) r.components());
            return List.of(res);
        }
    };

    /** SUMMARY answers from {@link Mst#SUMMARY}: the forest's weight and components, no edge ids computed on the host. */
    @Override
    public Encoding<?, ?> summaryEncoder() {
        return SUMMARY;
    }

    @Override
    public List<QueryResult> encode(QueryContext c, MstResult r) {
        UndirectedEdges edges = c.resident().graph().undirectedEdges();
        int first = c.entry().firstVertexId();
        int[] ids = r.edgeIds();
        int per = Math.max(1, c.config().getResultChunkEdges());
        int count = c.summary() ? 1 : Math.max(1, (ids.length + per - 1) / per);
        QueryResult[] chunks = new QueryResult[count];
        QueryContext.forEachChunk(count, k -> {   // chunks are independent: built on the cores side by side
            QueryResult res = c.header(k, count);
            res.setTotalWeight(r.totalWeight());
            res.setComponents((long) r.components());
            if (!c.summary()) {
                int from = k * per, to = Math.min(ids.length, from + per);
                ByteBuffer s = PackedArrays.int32Buffer(to - from), t = PackedArrays.int32Buffer(to - from);
                ByteBuffer w = PackedArrays.float64Buffer(to - from);
                for (int i = from; i < to; i++) {
                    int id = ids[i];
                    s.putInt(edges.u[id] + first);
                    t.putInt(edges.v[id] + first);
                    w.putDouble(edges.w[id]);
                }
                res.setOffset(from);
                res.setMstEdges(new EdgeBatch(s.flip(), t.flip(), w.flip()));
            }
            chunks[k] = res;
        });
        return List.of(chunks);
    }
}
