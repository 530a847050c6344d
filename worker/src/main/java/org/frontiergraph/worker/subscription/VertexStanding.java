package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing answers indexed by vertex (BFS, SSSP): a value and a parent per vertex. A DELTA push is the answer in
 * TARGETS form over the vertices that changed: {@code vertices} lists them, the value and parent arrays hold their
 * new entries, and the header's vertexCount says how far the consumer's arrays reach (new vertices are unreachable
 * until a push lists them). The push is packed here straight from the answer's arrays and the changed vertices: what
 * the encoder would give for a TARGETS query over them ({@code c.over(vertices)}), without the boxed target list and
 * the copy of the whole parents array in user ids that costs, per push.
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
        int[] vertices = pending.vertices();
        int first = c.entry().firstVertexId();
        int per = Math.max(1, c.config().getResultChunkVertices());
        int count = Math.max(1, (vertices.length + per - 1) / per);
        List<QueryResult> chunks = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            int from = k * per, to = Math.min(vertices.length, from + per);
            QueryResult chunk = c.header(k, count);
            chunk.setOffset(from);
            chunk.setVertices(listed(vertices, from, to, first));
            fill(chunk, result, vertices, from, to, first);
            chunks.add(chunk);
        }
        return chunks;
    }

    /** Sets the value and parent arrays of {@code chunk}: those of {@code at[from .. to-1]} (parents in user ids). */
    abstract void fill(QueryResult chunk, R result, int[] at, int from, int to, int first);

    /** {@code vertices[from .. to-1]} in user ids, packed. */
    static ByteBuffer listed(int[] vertices, int from, int to, int first) {
        ByteBuffer b = PackedArrays.int32Buffer(to - from);
        for (int i = from; i < to; i++) b.putInt(vertices[i] + first);
        return b.flip();
    }

    /** {@code ids[at[i]]} for {@code i} in {@code from .. to-1} in user ids (+{@code first}; negative ones, none, stay), packed. */
    static ByteBuffer userIds(int[] ids, int[] at, int from, int to, int first) {
        ByteBuffer b = PackedArrays.int32Buffer(to - from);
        for (int i = from; i < to; i++) {
            int id = ids[at[i]];
            b.putInt(id < 0 ? id : id + first);
        }
        return b.flip();
    }
}
