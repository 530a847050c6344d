package org.frontiergraph.worker.processing;

import org.frontiergraph.worker.query.QueryAnswer;

/**
 * Where the time of one query went before its results were handed to the publisher, in microseconds
 * ({@code engineMicros}: the engine call's wall time, containing compute and copy), and two readings of the
 * {@link System#nanoTime} clock from which the latency event times the worker's stages: when the poll that fetched the
 * record returned ({@code polledNanos}, -1 where no poll did) and when its decoding started ({@code startNanos}).
 */
public record QueryTimings(long queuedMicros, long decodeMicros, long computeMicros, long copyMicros, long encodeMicros,
                           long engineMicros, long polledNanos, long startNanos) {
    /** The processor's part (time queued, decoding, the clock readings) and the answer's (engine, compute, copy, encode). */
    static QueryTimings of(long queuedMs, long decodeNanos, QueryAnswer a, long polledNanos, long startNanos) {
        return new QueryTimings(queuedMs * 1000, decodeNanos / 1000, a.computeNanos() / 1000, a.copyNanos() / 1000,
                a.encodeNanos() / 1000, a.engineNanos() / 1000, polledNanos, startNanos);
    }
}
