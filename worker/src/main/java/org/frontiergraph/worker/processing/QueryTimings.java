package org.frontiergraph.worker.processing;

import org.frontiergraph.worker.query.QueryAnswer;

/**
 * Where the time of one query went before its results were handed to the publisher, in microseconds:
 * {@code pickupMicros} (-1: not measured) from the poll to the start of decoding, {@code engineMicros} the engine call's
 * wall time (containing compute and copy); {@code startNanos}, when decoding started ({@link System#nanoTime}), from
 * which the hand-over to the producer is timed.
 */
public record QueryTimings(long queuedMicros, long decodeMicros, long computeMicros, long copyMicros, long encodeMicros,
                           long pickupMicros, long engineMicros, long startNanos) {
    /** The processor's part (time queued, picked up, decoding) and the answer's (engine, compute, copy, encode). */
    static QueryTimings of(long queuedMs, long decodeNanos, QueryAnswer a, long pickupNanos, long startNanos) {
        return new QueryTimings(queuedMs * 1000, decodeNanos / 1000, a.computeNanos() / 1000, a.copyNanos() / 1000,
                a.encodeNanos() / 1000, pickupNanos < 0 ? -1 : pickupNanos / 1000, a.engineNanos() / 1000, startNanos);
    }
}
