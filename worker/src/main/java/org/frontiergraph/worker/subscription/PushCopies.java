package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;

/**
 * Copies of a push's chunks for the other subscriptions it goes to. A copy shares the packed arrays' bytes (read
 * only once encoded; each copy has buffers of its own, so reading one moves no other's position); the caller then
 * sets what differs per subscription (id, sequence, reason). Avro's own copy ({@code QueryResult.newBuilder(r)})
 * would copy every byte.
 */
final class PushCopies {
    private static final int FIELDS = QueryResult.getClassSchema().getFields().size();

    private PushCopies() {}

    static QueryResult copy(QueryResult r) {
        QueryResult c = new QueryResult();
        for (int i = 0; i < FIELDS; i++) c.put(i, share(r.get(i)));
        return c;
    }

    private static Object share(Object v) {
        if (v instanceof ByteBuffer b) return share(b);
        if (v instanceof EdgeBatch e) return new EdgeBatch(share(e.getSources()), share(e.getTargets()), share(e.getWeights()));
        return v;   // strings, numbers, enums: immutable
    }

    private static ByteBuffer share(ByteBuffer b) {
        return b == null ? null : b.duplicate().order(b.order());
    }
}
