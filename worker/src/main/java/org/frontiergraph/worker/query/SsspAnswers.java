package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspAtTargets;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspSummaries;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;

/** SSSP answers: {@code distances} and {@code parents} per vertex; SUMMARY: reached count and the largest distance. */
public final class SsspAnswers implements AnswerEncoder<Source, SsspResult> {
    @Override public Algorithm algorithm() { return Algorithm.SSSP; }
    @Override public AlgorithmSpec<Source, SsspResult> spec() { return Sssp.SPEC; }
    @Override
    public Source query(QueryContext c) {
        Source s = new Source(c.source());
        c.targets();  // validated before the engine runs
        return s;
    }
    @Override public Timing timing(SsspResult r) { return r.timing(); }
    @Override public AnswerShape shape() { return AnswerShape.tree(VertexArray.DISTANCES, "distance"); }
    @Override public Source answered(QueryResult head) { return new Source(Answers.source(head)); }

    @Override
    public SsspResult decode(CsrGraph g, List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        return new SsspResult(Answers.source(head), Answers.doubles(chunks, VertexArray.DISTANCES),
                Answers.ids(chunks, VertexArray.PARENTS), Timing.NONE);
    }

    @Override
    public Summaries<SsspSummaries> summaries() {
        return new Summaries<>() {
            @Override public AlgorithmSpec<Sources, SsspSummaries> spec() { return Sssp.SUMMARIES; }
            @Override public Timing timing(SsspSummaries r) { return r.timing(); }
            @Override
            public QueryResult summary(QueryContext c, SsspSummaries r, int i) {
                return QueryContext.distanceSummary(c.header(0, 1), r.reached()[i], r.maxDistances()[i]);
            }
        };
    }

    @Override
    public AtTargets<SsspAtTargets> atTargets() {
        return new AtTargets<>() {
            @Override public AlgorithmSpec<Targets, SsspAtTargets> spec() { return Sssp.AT_TARGETS; }
            @Override public Timing timing(SsspAtTargets r) { return r.timing(); }
            @Override
            public List<QueryResult> encode(QueryContext c, SsspAtTargets r) {
                int[] parents = c.toUserIds(r.parents());
                return c.vertexChunks(r.targets(), (chunk, slice) -> {
                    chunk.setDistances(slice.ofListed(r.distances()));
                    chunk.setParents(slice.ofListed(parents));
                });
            }
        };
    }

    @Override
    public List<QueryResult> encode(QueryContext c, SsspResult r) {
        double[] dist = r.distances();
        if (c.summary()) return List.of(QueryContext.distanceSummary(c.header(0, 1), dist));
        int[] parents = c.toUserIds(r.parents());
        return c.vertexChunks(c.targets(), (chunk, slice) -> {
            chunk.setDistances(slice.of(dist));
            chunk.setParents(slice.of(parents));
        });
    }
}
