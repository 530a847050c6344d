package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.query.QueryAnswer;

/**
 * A query this worker answered (or failed), with its timings so far. Its latency event is made once, when the
 * broker has acknowledged the results and the end-to-end time (from the query record's timestamp) is known.
 */
public record AnsweredQuery(String queryId, String graphId, Algorithm algorithm, String variant, ResultStatus status,
                            String backend, int vertexCount, long edgeCount, long recordTimestampMs, QueryTimings timings) {
    static AnsweredQuery of(GraphQuery q, QueryAnswer a, long recordTimestampMs, QueryTimings timings) {
        return new AnsweredQuery(q.getQueryId(), q.getGraphId(), q.getAlgorithm(), q.getVariant(), a.status(),
                a.backend(), a.vertexCount(), a.edgeCount(), recordTimestampMs, timings);
    }

    /**
     * The latency event, given when the results were acknowledged ({@code acknowledgedMs}, epoch) and, on the
     * {@link System#nanoTime} clock, when its first result chunk was handed to the producer and when the broker
     * acknowledged its last (0: not known; those fields are then null).
     */
    public LatencyEvent latencyEvent(long acknowledgedMs, long handedNanos, long acknowledgedNanos) {
        return LatencyEvent.newBuilder()
                .setQueryId(queryId).setGraphId(graphId).setAlgorithm(algorithm).setVariant(variant)
                .setStatus(status).setBackend(backend).setVertexCount(vertexCount).setEdgeCount(edgeCount)
                .setQueuedMicros(timings.queuedMicros()).setDecodeMicros(timings.decodeMicros())
                .setComputeMicros(timings.computeMicros()).setCopyMicros(timings.copyMicros())
                .setEncodeMicros(timings.encodeMicros())
                .setEndToEndMicros(Math.max(0, acknowledgedMs - recordTimestampMs) * 1000)
                .setTimestampMs(acknowledgedMs)
                .setPickupMicros(timings.polledNanos() < 0 ? null : Math.max(0, timings.startNanos() - timings.polledNanos()) / 1000)
                .setEngineMicros(timings.engineMicros())
                .setHandOverMicros(handedNanos == 0 ? null : Math.max(0, handedNanos - timings.startNanos()) / 1000)
                .setAcknowledgeMicros(handedNanos == 0 || acknowledgedNanos == 0 ? null
                        : Math.max(0, acknowledgedNanos - handedNanos) / 1000)
                .build();
    }
}
