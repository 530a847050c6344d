package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.kernels.cc.Cc;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cc.CcSummary;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * CC answers (weakly connected components of the whole graph; a query names no source). FULL: {@code labels} per
 * vertex in chunks of {@code frontier.result-chunk-vertices}, a label being the user id of the smallest vertex of the
 * vertex's component, with {@code components} and {@code largestComponent} in every chunk; SUMMARY: those two only
 * (from {@link Cc#SUMMARY} when no variant is named: counted on the device, no labels copied back); TARGETS: the
 * labels at the targets, in the order asked.
 */
public final class CcAnswers implements AnswerEncoder<WholeGraph, CcResult> {
    @Override public Algorithm algorithm() { return Algorithm.CC; }
    @Override public AlgorithmSpec<WholeGraph, CcResult> spec() { return Cc.SPEC; }
    @Override public Timing timing(CcResult r) { return r.timing(); }
    @Override public AnswerShape shape() { return AnswerShape.labels(VertexArray.LABELS, "label"); }
    @Override public WholeGraph answered(QueryResult head) { return WholeGraph.QUERY; }

    /** The labels (user ids) as 0-based labels; the counts are the labels' own. */
    @Override
    public CcResult decode(CsrGraph g, List<QueryResult> chunks) {
        return CcResult.of(Answers.ids(chunks, VertexArray.LABELS), Timing.NONE);
    }

    @Override
    public WholeGraph query(QueryContext c) {
        return validated(c);
    }

    /** The whole graph, once the query is checked: no source, and in TARGETS mode targets in range. */
    private static WholeGraph validated(QueryContext c) {
        if (c.query().getSource() != null) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "CC query '" + c.query().getQueryId() + "' names source "
                    + c.query().getSource() + ", but components are of the whole graph: send no source");
        }
        c.targets();   // validated before the engine runs
        return WholeGraph.QUERY;
    }

    private static final Encoding<WholeGraph, CcSummary> SUMMARY = new Encoding<>() {
        @Override public AlgorithmSpec<WholeGraph, CcSummary> spec() { return Cc.SUMMARY; }
        @Override public WholeGraph query(QueryContext c) { return validated(c); }
        @Override public Timing timing(CcSummary r) { return r.timing(); }

        @Override
        public List<QueryResult> encode(QueryContext c, CcSummary r) {
            return List.of(counts(c.header(0, 1), r.components(), r.largest()));
        }
    };

    /** SUMMARY answers from {@link Cc#SUMMARY}: the count and the largest size, no labels leave the engine. */
    @Override
    public Encoding<?, ?> summaryEncoder() {
        return SUMMARY;
    }

    private static QueryResult counts(QueryResult chunk, int components, int largest) {
        chunk.setComponents((long) components);
        chunk.setLargestComponent((long) largest);
        return chunk;
    }

    @Override
    public List<QueryResult> encode(QueryContext c, CcResult r) {
        if (c.summary()) return List.of(counts(c.header(0, 1), r.components(), r.largest()));
        int[] targets = c.targets();
        int[] labels = c.toUserIds(r.labels());
        return c.vertexChunks(targets, (chunk, slice) -> {
            chunk.setLabels(slice.of(labels));
            if (targets == null) counts(chunk, r.components(), r.largest());
        });
    }
}
