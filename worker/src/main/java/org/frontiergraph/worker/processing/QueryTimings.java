package org.frontiergraph.worker.processing;

import org.frontiergraph.worker.query.QueryAnswer;

/** Where the time of one query went before its results were handed to the publisher, in microseconds. */
public record QueryTimings(long queuedMicros, long decodeMicros, long computeMicros, long copyMicros, long encodeMicros) {
    /** The processor's part (time queued, decoding) and the answer's (compute, copy, encode). */
    static QueryTimings of(long queuedMs, long decodeNanos, QueryAnswer a) {
        return new QueryTimings(queuedMs * 1000, decodeNanos / 1000, a.computeNanos() / 1000, a.copyNanos() / 1000,
                a.encodeNanos() / 1000);
    }
}
