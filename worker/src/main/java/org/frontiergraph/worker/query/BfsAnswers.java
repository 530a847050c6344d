package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;

/** BFS answers: {@code hops} and {@code parents} per vertex; SUMMARY: reached count and the largest hop count. */
final class BfsAnswers implements AnswerEncoder<Source, BfsResult> {
    @Override public Algorithm algorithm() { return Algorithm.BFS; }
    @Override public AlgorithmSpec<Source, BfsResult> spec() { return Bfs.SPEC; }
    @Override
    public Source query(QueryContext c) {
        Source s = new Source(c.source());
        c.targets();  // validated before the engine runs
        return s;
    }
    @Override public Timing timing(BfsResult r) { return r.timing(); }

    @Override
    public List<QueryResult> encode(QueryContext c, BfsResult r) {
        int[] hops = r.hops();
        if (c.summary()) {
            long reached = 0;
            int max = 0;
            for (int h : hops) if (h >= 0) { reached++; max = Math.max(max, h); }
            QueryResult s = c.header(0, 1);
            s.setReachedCount(reached);
            s.setMaxHops(max);
            return List.of(s);
        }
        int[] parents = c.toUserIds(r.parents());
        return c.vertexChunks(c.targets(), (chunk, slice) -> {
            chunk.setHops(slice.of(hops));
            chunk.setParents(slice.of(parents));
        });
    }
}
