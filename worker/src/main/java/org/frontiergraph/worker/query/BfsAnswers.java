package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsAtTargets;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsSummaries;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;

/** BFS answers: {@code hops} and {@code parents} per vertex; SUMMARY: reached count and the largest hop count. */
public final class BfsAnswers implements AnswerEncoder<Source, BfsResult> {
    @Override public Algorithm algorithm() { return Algorithm.BFS; }
    @Override public AlgorithmSpec<Source, BfsResult> spec() { return Bfs.SPEC; }
    @Override
    public Source query(QueryContext c) {
        Source s = new Source(c.source());
        c.targets();  // validated before the engine runs
        return s;
    }
    @Override public Timing timing(BfsResult r) { return r.timing(); }
    @Override public AnswerShape shape() { return AnswerShape.tree(VertexArray.HOPS, "hops"); }
    @Override public Source answered(QueryResult head) { return new Source(Answers.source(head)); }

    @Override
    public BfsResult decode(CsrGraph g, List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        return new BfsResult(Answers.source(head), Answers.ints(chunks, VertexArray.HOPS), Answers.ids(chunks, VertexArray.PARENTS),
                Timing.NONE);
    }

    @Override
    public Summaries<BfsSummaries> summaries() {
        return new Summaries<>() {
            @Override public AlgorithmSpec<Sources, BfsSummaries> spec() { return Bfs.SUMMARIES; }
            @Override public Timing timing(BfsSummaries r) { return r.timing(); }
            @Override
            public QueryResult summary(QueryContext c, BfsSummaries r, int i) {
                return BfsAnswers.summary(c, r.reached()[i], r.maxHops()[i]);
            }
        };
    }

    @Override
    public AtTargets<BfsAtTargets> atTargets() {
        return new AtTargets<>() {
            @Override public AlgorithmSpec<Targets, BfsAtTargets> spec() { return Bfs.AT_TARGETS; }
            @Override public Timing timing(BfsAtTargets r) { return r.timing(); }
            @Override
            public List<QueryResult> encode(QueryContext c, BfsAtTargets r) {
                int[] parents = c.toUserIds(r.parents());
                return c.vertexChunks(r.targets(), (chunk, slice) -> {
                    chunk.setHops(slice.ofListed(r.hops()));
                    chunk.setParents(slice.ofListed(parents));
                });
            }
        };
    }

    private static QueryResult summary(QueryContext c, long reached, int maxHops) {
        QueryResult s = c.header(0, 1);
        s.setReachedCount(reached);
        s.setMaxHops(maxHops);
        return s;
    }

    @Override
    public List<QueryResult> encode(QueryContext c, BfsResult r) {
        int[] hops = r.hops();
        if (c.summary()) {
            long[] s = BfsSummaries.summarize(hops);
            return List.of(summary(c, s[0], (int) s[1]));
        }
        int[] parents = c.toUserIds(r.parents());
        return c.vertexChunks(c.targets(), (chunk, slice) -> {
            chunk.setHops(slice.of(hops));
            chunk.setParents(slice.of(parents));
        });
    }
}
