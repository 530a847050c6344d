package org.frontiergraph.worker.query;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.apsp.Apsp;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * APSP answers: n^2 distances in row blocks (whole rows per chunk, about {@code frontier.result-chunk-vertices}
 * distances each); SUMMARY: reached pairs and the largest distance. Limited to {@code frontier.apsp-max-vertices}.
 */
public final class ApspAnswers implements AnswerEncoder<ApspLimits, ApspResult> {
    @Override public Algorithm algorithm() { return Algorithm.APSP; }
    @Override public AlgorithmSpec<ApspLimits, ApspResult> spec() { return Apsp.SPEC; }
    @Override public Timing timing(ApspResult r) { return r.timing(); }
    @Override public AnswerShape shape() { return AnswerShape.matrix(VertexArray.DISTANCES); }
    /** Any limits the answer was within: the largest a Java array holds. */
    @Override public ApspLimits answered(QueryResult head) { return new ApspLimits(ApspLimits.ARRAY_MAX_VERTICES); }

    @Override
    public ApspResult decode(CsrGraph g, List<QueryResult> chunks) {
        return new ApspResult(chunks.get(0).getVertexCount(), Answers.matrix(chunks, VertexArray.DISTANCES), Timing.NONE);
    }

    @Override
    public ApspLimits query(QueryContext c) {
        return new ApspLimits(Math.min(c.config().getApspMaxVertices(), ApspLimits.ARRAY_MAX_VERTICES));
    }

    @Override
    public List<QueryResult> encode(QueryContext c, ApspResult r) {
        double[] d = r.distances();
        if (c.summary()) return List.of(QueryContext.distanceSummary(c.header(0, 1), d));
        int n = c.entry().vertexCount();
        int rowsPer = Math.max(1, c.config().getResultChunkVertices() / Math.max(1, n));
        int count = Math.max(1, (n + rowsPer - 1) / rowsPer);
        List<QueryResult> chunks = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            int from = k * rowsPer, to = Math.min(n, from + rowsPer);
            QueryResult res = c.header(k, count);
            res.setOffset(from);
            res.setRows(to - from);
            res.setDistances(PackedArrays.pack(d, from * n, to * n));   // n <= ApspLimits.ARRAY_MAX_VERTICES: n * n fits an int
            chunks.add(res);
        }
        return chunks;
    }
}
