package org.frontiergraph.worker.processing;

import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.query.QueryAnswer;
import org.frontiergraph.worker.query.QueryService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles one record of the graphs topic: decodes it, applies snapshots and updates to the registry, answers
 * queries, and turns every failure into an error event. Never throws for a bad record, so a bad record never costs
 * a valid neighbour. In replay (rebuilding a partition's graphs from the log after an assignment) only snapshots and
 * updates are applied: queries before the committed offset were answered already.
 */
@Singleton
public class GraphEventProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(GraphEventProcessor.class);

    private final GraphRegistry registry;
    private final QueryService queries;
    private final FrontierMetrics metrics;
    private final String workerId;

    public GraphEventProcessor(GraphRegistry registry, QueryService queries, FrontierMetrics metrics, FrontierConfig config) {
        this.registry = registry;
        this.queries = queries;
        this.metrics = metrics;
        this.workerId = config.getWorkerId() != null ? config.getWorkerId() : hostName();
    }

    public Outputs process(InputRecord in, boolean replay) {
        Outputs out = new Outputs();
        long decodeStart = System.nanoTime();
        long queuedMs = Math.max(0, System.currentTimeMillis() - in.timestampMs());
        SpecificRecord record;
        try {
            if (replay && FrontierCodec.typeOf(in.value()) == GraphQuery.class) return out;  // answered before: skip undecoded
            record = FrontierCodec.decode(in.value());
        } catch (FrontierCodec.MalformedMessageException e) {
            reject(out, in, replay, ErrorCode.MALFORMED_RECORD, null, null, "malformed record: " + e.getMessage());
            return out;
        }
        long decodeNanos = System.nanoTime() - decodeStart;
        try {
            if (record instanceof GraphSnapshotChunk c) {
                requireKey(in, c.getGraphId());
                GraphRegistry.Change change = registry.acceptChunk(c, in.partition(), in.offset());
                for (RejectedException abandoned : change.abandoned()) {
                    reject(out, in, replay, abandoned.code(), c.getGraphId(), null, abandoned.getMessage());
                }
                change.installed().ifPresent(e -> status(out, e, replay));
            } else if (record instanceof GraphUpdate u) {
                requireKey(in, u.getGraphId());
                status(out, registry.applyUpdate(u, in.partition()), replay);
            } else if (record instanceof GraphQuery q) {
                if (replay) return out;
                requireKey(in, q.getGraphId());
                answer(out, in, q, queuedMs, decodeNanos);
            } else {
                reject(out, in, replay, ErrorCode.MALFORMED_RECORD, null, null, "a " + record.getSchema().getName()
                        + " does not belong on the graphs topic (only snapshots, updates and queries do)");
            }
        } catch (RejectedException e) {
            for (Throwable earlier : e.getSuppressed()) {  // e.g. an older snapshot version this record abandoned
                if (earlier instanceof RejectedException r) reject(out, in, replay, r.code(), graphIdOf(record), null, r.getMessage());
            }
            reject(out, in, replay, e.code(), graphIdOf(record), queryIdOf(record), e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("internal error on {}", in.where(), e);
            reject(out, in, replay, ErrorCode.INTERNAL_ERROR, graphIdOf(record), queryIdOf(record), "internal error: " + e);
        }
        return out;
    }

    private void answer(Outputs out, InputRecord in, GraphQuery q, long queuedMs, long decodeNanos) {
        if (q.getQueryId() == null || q.getQueryId().isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "query on graph '" + q.getGraphId() + "' has an empty queryId");
        }
        QueryAnswer a = queries.answer(q);
        out.results.addAll(a.chunks());
        if (a.status() != ResultStatus.OK) {
            out.errors.add(error(in, a.failure(), q.getGraphId(), q.getQueryId(), a.error()));
            metrics.error(a.failure());
            LOG.warn("query '{}' on graph '{}' ({}): {} - {}", q.getQueryId(), q.getGraphId(), in.where(), a.status(), a.error());
        }
        out.queryTimestampMs = in.timestampMs();
        out.latency = LatencyEvent.newBuilder()
                .setQueryId(q.getQueryId()).setGraphId(q.getGraphId())
                .setAlgorithm(q.getAlgorithm()).setVariant(q.getVariant())
                .setStatus(a.status()).setBackend(a.backend())
                .setVertexCount(a.vertexCount()).setEdgeCount(a.edgeCount())
                .setQueuedMicros(queuedMs * 1000).setDecodeMicros(decodeNanos / 1000)
                .setComputeMicros(a.computeNanos() / 1000).setCopyMicros(a.copyNanos() / 1000)
                .setEncodeMicros(a.encodeNanos() / 1000)
                .setEndToEndMicros(0).setTimestampMs(System.currentTimeMillis())
                .build();
    }

    private void status(Outputs out, GraphEntry e, boolean replay) {
        if (replay) return;
        out.statuses.add(GraphStatus.newBuilder()
                .setGraphId(e.graphId()).setVersion(e.version()).setState(GraphState.LOADED)
                .setVertexCount(e.vertexCount()).setEdgeCount(e.edgeCount())
                .setBackend(e.resident().backend()).setResidentBytes(e.resident().residentBytes())
                .setWorker(workerId).setTimestampMs(System.currentTimeMillis()).build());
    }

    private void reject(Outputs out, InputRecord in, boolean replay, ErrorCode code, String graphId, String queryId, String reason) {
        if (replay) {
            LOG.debug("replay of {}: {} {}", in.where(), code, reason);
            return;
        }
        LOG.warn("rejected {} (key {}): {} - {}", in.where(), in.key(), code, reason);
        out.errors.add(error(in, code, graphId, queryId, reason));
        metrics.error(code);
    }

    private static ErrorEvent error(InputRecord in, ErrorCode code, String graphId, String queryId, String reason) {
        return ErrorEvent.newBuilder()
                .setSourceTopic(in.topic()).setPartition(in.partition()).setOffset(in.offset())
                .setKey(in.key()).setGraphId(graphId).setQueryId(queryId)
                .setCode(code.name()).setReason(reason).setTimestampMs(System.currentTimeMillis()).build();
    }

    private static void requireKey(InputRecord in, String graphId) {
        if (!Objects.equals(in.key(), graphId)) {
            throw new RejectedException(ErrorCode.INVALID_KEY, "record key '" + in.key() + "' differs from its graphId '" + graphId
                    + "': records must be keyed by graph id so that a graph's snapshots, updates and queries stay in order");
        }
    }

    private static String graphIdOf(SpecificRecord r) {
        if (r instanceof GraphSnapshotChunk c) return c.getGraphId();
        if (r instanceof GraphUpdate u) return u.getGraphId();
        if (r instanceof GraphQuery q) return q.getGraphId();
        return null;
    }

    private static String queryIdOf(SpecificRecord r) {
        return r instanceof GraphQuery q ? q.getQueryId() : null;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "frontier-worker";
        }
    }
}
