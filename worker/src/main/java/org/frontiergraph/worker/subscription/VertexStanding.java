package org.frontiergraph.worker.subscription;

import java.util.List;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing answers indexed by vertex (BFS, SSSP): a value and a parent per vertex. A DELTA push is the answer in
 * TARGETS form over the vertices that changed: {@code vertices} lists them, the value and parent arrays hold their
 * new entries, and the header's vertexCount says how far the consumer's arrays reach (new vertices are unreachable
 * until a push lists them).
 */
abstract class VertexStanding<R> implements Standing<R> {

    @Override
    public boolean supports(ResultMode mode) {
        return true;
    }

    /** Whether vertex {@code v} has another value or parent in {@code b} than in {@code a} (absent: unreachable). */
    abstract boolean differs(R a, R b, int v);

    abstract int vertexCount(R r);

    @Override
    public Pending.Changes compare(R previous, R next) {
        int n = Math.max(vertexCount(previous), vertexCount(next));
        int[] changed = new int[64];
        int k = 0;
        for (int v = 0; v < n; v++) {
            if (differs(previous, next, v)) {
                if (k == changed.length) changed = java.util.Arrays.copyOf(changed, 2 * k);
                changed[k++] = v;
            }
        }
        return Pending.Changes.ofVertices(java.util.Arrays.copyOf(changed, k));
    }

    /** The algorithm's encoder of query answers. */
    abstract AnswerEncoder<?, R> encoder();

    @Override
    public R compute(QueryContext c) {
        return run(encoder(), c);
    }

    private static <Q, R> R run(AnswerEncoder<Q, R> encoder, QueryContext c) {
        return c.resident().run(encoder.spec(), encoder.query(c), null);
    }

    @Override
    public List<QueryResult> complete(QueryContext c, R result) {
        return encoder().encode(c, result);
    }

    @Override
    public List<QueryResult> delta(QueryContext c, R result, Pending pending) {
        return encoder().encode(c.over(pending.vertices()), result);
    }
}
