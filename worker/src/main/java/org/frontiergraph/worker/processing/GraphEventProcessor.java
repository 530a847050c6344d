package org.frontiergraph.worker.processing;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.Ids;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.query.QueryAnswer;
import org.frontiergraph.worker.query.QueryService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.subscription.SubscriptionService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles one record of the graphs topic: decodes it, checks its key, hands it to the {@link RecordHandler} of its
 * type (snapshot chunks, updates, queries; a tombstone, a record with no value, to {@link Tombstones}), and turns every rejection into an error event; a query with an id that
 * fails, for whatever reason, is also answered with a failed QueryResult. Never throws, whatever the record (a
 * fault of the worker, out-of-memory included, becomes an error event too), so a bad record never costs a valid
 * neighbour and never stops the consumer. In replay (rebuilding a partition's graphs from the log
 * after an assignment) only snapshots and updates are applied and nothing is published: queries before the
 * committed offset were answered already.
 */
@Singleton
public class GraphEventProcessor {
    private static final Logger LOG = LoggerFactory.getLogger(GraphEventProcessor.class);

    private final Map<Class<?>, RecordHandler<?>> handlers;
    private final GraphRegistry registry;
    private final Tombstones tombstones;
    private final QueryService queries;
    private final SubscriptionService subscriptions;
    private final FrontierMetrics metrics;
    private final String workerId;
    /** {@code frontier.status-per-update}: one GraphStatus per update, as before (for A/B measurements). */
    private final boolean statusPerUpdate;
    /** The read framing ({@code frontier.serialization.read}). */
    private final FrontierSerde serde;
    /** Names in queries and subscriptions, and in the answers of those that asked by name. */
    private final VertexNaming naming;

    public GraphEventProcessor(GraphRegistry registry, QueryService queries, SubscriptionService subscriptions,
                               FrontierMetrics metrics, FrontierConfig config) {
        this(registry, queries, subscriptions, metrics, config, FrontierSerde.singleObject());
    }

    @Inject
    public GraphEventProcessor(GraphRegistry registry, QueryService queries, SubscriptionService subscriptions,
                               FrontierMetrics metrics, FrontierConfig config, FrontierSerde serde) {
        this.serde = serde;
        this.naming = new VertexNaming(registry);
        this.handlers = List.<RecordHandler<?>>of(new SnapshotHandler(registry), new UpdateHandler(registry),
                        new QueryHandler(naming), new SubscriptionHandler(subscriptions, naming))
                .stream().collect(Collectors.toUnmodifiableMap(RecordHandler::type, Function.identity()));
        this.registry = registry;
        this.tombstones = new Tombstones(registry);
        this.queries = queries;
        this.subscriptions = subscriptions;
        this.metrics = metrics;
        this.workerId = config.getWorkerId() != null ? config.getWorkerId() : hostName();
        this.statusPerUpdate = config.isStatusPerUpdate();
    }

    /** Handles one record and returns what to publish for it (a query is answered on its own). */
    public Outputs process(InputRecord in, boolean replay) {
        return handle(in, replay, null).outputs.build();
    }

    /**
     * A replayed record of a graph that was installed from a checkpoint holding it through a later offset: the
     * record's effect is in the checkpoint, so it is not applied again (a snapshot chunk, an update, a subscription the
     * checkpoint carries, or anything else). Pending versions of other graphs still age by its timestamp, as when it
     * was read live.
     */
    public Outputs replayCovered(InputRecord in) {
        long now = System.currentTimeMillis();
        registry.expirePending(p -> p == in.partition(), Math.min(in.timestampMs(), now));
        return Outputs.NONE;
    }

    /**
     * Handles consecutive live records of one partition, in order, and returns their outputs in that order. A run
     * of consecutive queries is answered together ({@link QueryService#answerAll}: the SUMMARY queries of one graph
     * and algorithm in one engine run); any other record waits for the run before it, so an update never overtakes
     * the queries published before it, nor they it. The updates of one graph in these records report one
     * GraphStatus, the last one's ({@link #reportLastVersions}).
     */
    public List<Outputs> processAll(List<InputRecord> records) {
        List<Collector> collected = new ArrayList<>(records.size());
        QueryRun run = new QueryRun();
        for (InputRecord in : records) {
            if (!isQuery(in)) run.answer();
            collected.add(handle(in, false, run));
        }
        run.answer();
        reportLastVersions(collected);
        List<Outputs> outputs = new ArrayList<>(collected.size());
        for (Collector c : collected) outputs.add(c.outputs.build());
        return outputs;
    }

    /**
     * An update's GraphStatus is dropped when a later update of the same graph among these records reports one: the
     * updates a worker applies together report their last version only (docs/contract.md, "GraphStatus"), so a
     * stream of single-edge updates does not double the records a worker writes. A snapshot's status is always kept.
     */
    private void reportLastVersions(List<Collector> collected) {
        if (statusPerUpdate) return;
        Set<String> reported = new HashSet<>();
        for (int i = collected.size() - 1; i >= 0; i--) {
            Collector c = collected.get(i);
            if (!c.update || c.graphId == null || !c.outputs.hasStatus()) continue;
            if (!reported.add(c.graphId)) c.outputs.dropStatuses();
        }
    }

    private boolean isQuery(InputRecord in) {
        try {
            return serde.typeOf(in.value()) == GraphQuery.class;
        } catch (FrontierCodec.MalformedMessageException | RuntimeException e) {   // a registry out of reach too
            return false;   // rejected when handled; it changes no graph either way
        }
    }

    /** Queries asked by the records of a run and not answered yet, with the collectors their answers go to. */
    private final class QueryRun {
        final List<Collector> askers = new ArrayList<>();
        final List<GraphQuery> asked = new ArrayList<>();

        void add(Collector c, GraphQuery q) {
            askers.add(c);
            asked.add(q);
        }

        void answer() {
            if (asked.isEmpty()) return;
            List<QueryAnswer> answers = queries.answerAll(asked);
            for (int i = 0; i < asked.size(); i++) askers.get(i).answered(asked.get(i), answers.get(i));
            askers.clear();
            asked.clear();
        }
    }

    /** Handles one record into its collector; its query, if any, goes to {@code run} (null: answered now). */
    private Collector handle(InputRecord in, boolean replay, QueryRun run) {
        long decodeStart = System.nanoTime();
        long now = System.currentTimeMillis();
        Collector out = new Collector(in, replay, Math.max(0, now - in.timestampMs()), decodeStart, run);
        try {
            // the partition's log has moved on: versions it left incomplete for longer than the TTL go (also in replay)
            for (GraphRegistry.Expired e : registry.expirePending(p -> p == in.partition(), Math.min(in.timestampMs(), now))) {
                out.expired(e);
            }
            if (in.value() == null) {   // a tombstone: drops the graph its key names, in replay too
                out.graphId = in.key();
                tombstones.handle(in, out);
                return out;
            }
            if (replay && skippedInReplay(serde.typeOf(in.value()))) return out;  // skip undecoded
            Ids.require("record key", in.key(), ErrorCode.INVALID_KEY);
            SpecificRecord record = serde.decode(in.value());
            out.decodeNanos = System.nanoTime() - decodeStart;
            RecordHandler<?> handler = handlers.get(record.getClass());
            if (handler == null) {
                throw new RejectedException(ErrorCode.MALFORMED_RECORD, "a " + record.getSchema().getName()
                        + " does not belong on the graphs topic (only snapshots, updates, queries and subscriptions do)");
            }
            handle(handler, record, out);
        } catch (FrontierCodec.MalformedMessageException e) {
            out.reject(ErrorCode.of(e), "malformed record: " + e.getMessage());
        } catch (Throwable e) {   // whatever the record did, OutOfMemoryError included: its neighbours go on
            out.failed(e);
        }
        return out;
    }

    /**
     * Drops the pending snapshot versions of the partitions {@code live} accepts (assigned, not being replayed) that
     * outlived {@code frontier.pending-snapshot-ttl} by the clock, for partitions whose log has gone quiet; one
     * INCOMPLETE_SNAPSHOT error event each, located at the version's first chunk.
     */
    public Outputs expirePending(String topic, IntPredicate live, long nowMs) {
        List<GraphRegistry.Expired> expired = registry.expirePending(live, nowMs);
        if (expired.isEmpty()) return Outputs.NONE;
        Outputs.Builder out = Outputs.builder();
        for (GraphRegistry.Expired e : expired) out.error(expiredEvent(topic, e));
        return out.build();
    }

    /**
     * The pushes of subscriptions whose answers the records since the last call changed (or that are new, rebuilt
     * or due after their minimum interval), for the {@code live} partitions (assigned, not being replayed); published
     * with the batch, before its offsets are committed.
     */
    public Outputs flushSubscriptions(IntPredicate live, long nowMs) {
        return flushSubscriptions(live, nowMs, null);
    }

    /**
     * As {@link #flushSubscriptions(IntPredicate, long)}, the pushes of answers settled before the batch's heavy ones
     * handed to {@code early} as they are made (null: returned with the rest); published with the same batch.
     */
    public Outputs flushSubscriptions(IntPredicate live, long nowMs, Consumer<Outputs> early) {
        SubscriptionService.Pushes p = subscriptions.flush(live, nowMs, early == null ? null : first -> early.accept(outputs(first)));
        return p.isEmpty() ? Outputs.NONE : outputs(p);
    }

    private Outputs outputs(SubscriptionService.Pushes p) {
        p.errors().forEach(e -> metrics.error(ErrorCode.valueOf(e.getCode())));
        return Outputs.builder().results(naming.namePushes(p.results())).errors(p.errors()).ended(p.ended()).build();
    }

    /** Whether a throttled subscription of a live partition has a push due. */
    public boolean subscriptionsDue(IntPredicate live, long nowMs) {
        return subscriptions.due(live, nowMs);
    }

    /** A partition's rebuild from the log is complete: its subscriptions push their answers complete (RESYNC). */
    public void rebuilt(int partition) {
        subscriptions.resync(partition);
    }

    private ErrorEvent expiredEvent(String topic, GraphRegistry.Expired e) {
        LOG.warn("pending snapshot of graph {} expired: {}", LogSafe.quote(e.graphId()), e.reason().getMessage());
        metrics.error(ErrorCode.INCOMPLETE_SNAPSHOT);
        return ErrorEvent.newBuilder()
                .setSourceTopic(topic).setPartition(e.partition()).setOffset(e.firstOffset())
                .setKey(e.graphId()).setGraphId(e.graphId())
                .setCode(ErrorCode.INCOMPLETE_SNAPSHOT.name()).setReason(e.reason().getMessage())
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    private boolean skippedInReplay(Class<?> type) {
        RecordHandler<?> handler = handlers.get(type);
        return handler != null && !handler.replays();
    }

    private static <T extends SpecificRecord> void handle(RecordHandler<T> handler, SpecificRecord record, Collector out) {
        T r = handler.type().cast(record);
        out.graphId = handler.graphId(r);
        out.queryId = handler.queryId(r);
        if (r instanceof GraphQuery q) out.query = q;
        if (r instanceof Subscription s) out.subscription = s;
        out.update = r instanceof GraphUpdate;
        // every id is echoed in the outputs the record causes: none may make them larger than the producer may send
        Ids.require("graphId", out.graphId, ErrorCode.INVALID_KEY);
        Ids.require(r instanceof Subscription ? "subscriptionId" : "queryId", out.queryId, ErrorCode.INVALID_QUERY);
        if (r instanceof GraphUpdate u) Ids.require("updateId", u.getUpdateId(), ErrorCode.INVALID_UPDATE);
        if (!Objects.equals(out.in.key(), out.graphId)) {
            throw new RejectedException(ErrorCode.INVALID_KEY, "record key '" + Ids.echo(out.in.key()) + "' differs from its graphId '"
                    + Ids.echo(out.graphId) + "': records must be keyed by graph id so that a graph's snapshots, updates and queries stay in order");
        }
        handler.handle(r, out.in, out);
    }

    /** The outputs of one record, and what its error events say about it. */
    private final class Collector implements RecordHandler.Output {
        final InputRecord in;
        final boolean replay;
        final long queuedMs;
        /** When its decoding started ({@link System#nanoTime}). */
        final long startNanos;
        final Outputs.Builder outputs = Outputs.builder();
        long decodeNanos;
        String graphId;
        String queryId;
        /** The record when it is a query: a failure is then also its answer. */
        GraphQuery query;
        /** The record when it is a subscription: a failure also ends it with a push. */
        Subscription subscription;
        /** Whether the record is a GraphUpdate (its status may give way to a later update's). */
        boolean update;
        boolean answered;

        /** Where this record's query waits to be answered with the others of its run (null: answered at once). */
        final QueryRun run;

        Collector(InputRecord in, boolean replay, long queuedMs, long startNanos, QueryRun run) {
            this.in = in;
            outputs.at(in);
            this.replay = replay;
            this.queuedMs = queuedMs;
            this.startNanos = startNanos;
            this.run = run;
        }

        @Override
        public void ask(GraphQuery q) {
            if (run == null) answered(q, queries.answer(q));
            else run.add(this, q);
        }

        @Override
        public void loaded(GraphEntry e) {
            if (replay) return;
            // the values now, the Avro record only if this status is published (a later update's may replace it)
            String backend = e.backend();
            int vertices = e.vertexCount();
            long edges = e.edgeCount(), residentBytes = e.residentBytes(), at = System.currentTimeMillis();
            outputs.status(() -> GraphStatus.newBuilder()
                    .setGraphId(e.graphId()).setVersion(e.version()).setState(GraphState.LOADED)
                    .setVertexCount(vertices).setEdgeCount(edges)
                    .setBackend(backend).setResidentBytes(residentBytes)
                    .setWorker(workerId).setTimestampMs(at).build());
        }

        @Override
        public void dropped(GraphRegistry.Dropped d) {
            if (replay) return;
            outputs.status(() -> GraphStatus.newBuilder()
                    .setGraphId(d.graphId()).setVersion(d.version()).setState(GraphState.DROPPED)
                    .setVertexCount(0).setEdgeCount(0).setBackend(d.backend()).setResidentBytes(0)
                    .setWorker(workerId).setTimestampMs(System.currentTimeMillis()).build());
        }

        @Override
        public void refused(String graphId, long version, int vertexCount, long edgeCount, String reason) {
            if (replay) return;
            long at = System.currentTimeMillis();
            String why = Ids.reason(reason);
            outputs.status(() -> GraphStatus.newBuilder()
                    .setGraphId(Ids.echo(graphId)).setVersion(version).setState(GraphState.REJECTED)
                    .setVertexCount(vertexCount).setEdgeCount(edgeCount).setBackend("").setResidentBytes(0)
                    .setWorker(workerId).setTimestampMs(at).setReason(why).build());
        }

        @Override
        public void pushed(SubscriptionService.Pushes p) {
            if (replay) return;
            outputs.results(naming.namePushes(p.results()));
            outputs.ended(p.ended());
            p.errors().forEach(e -> {
                outputs.error(e);
                metrics.error(ErrorCode.valueOf(e.getCode()));
            });
        }

        @Override
        public boolean replay() {
            return replay;
        }

        @Override
        public void rejected(RejectedException e) {
            reject(e.code(), e.getMessage());
        }

        /** A pending version of another graph of this partition that the record's time expired. */
        void expired(GraphRegistry.Expired e) {
            if (replay) {
                LOG.debug("replay of {}: {}", in.where(), e.reason().getMessage());
                return;
            }
            outputs.error(expiredEvent(in.topic(), e));
        }

        @Override
        public void answered(GraphQuery q, QueryAnswer a) {
            answered = true;
            outputs.results(naming.name(q, a.chunks()));
            if (a.failure() != null) {
                outputs.error(error(a.failure(), a.error()));
                metrics.error(a.failure());
                LOG.warn("query {} on graph {} ({}): {} - {}", LogSafe.quote(q.getQueryId()), LogSafe.quote(q.getGraphId()), in.where(), a.status(), a.error());
            }
            outputs.answered(AnsweredQuery.of(q, a, in.timestampMs(), QueryTimings.of(queuedMs, decodeNanos, a, in.polledNanos(),
                    startNanos)));
        }

        /**
         * The record failed: a rejection (after the rejections it carries, e.g. an older snapshot version it
         * abandoned) or an engine's refusal is reported with its code; running out of memory as GRAPH_TOO_LARGE;
         * anything else is a fault of the worker. A query with an id gets a failed QueryResult besides.
         */
        void failed(Throwable e) {
            ErrorCode code = ErrorCode.of(e);
            String reason;
            if (e instanceof OutOfMemoryError) {
                LOG.error("out of memory on {} (heap limit {} MB)", in.where(), Runtime.getRuntime().maxMemory() >> 20, e);
                reason = "the worker ran out of memory processing this record (heap limit "
                        + (Runtime.getRuntime().maxMemory() >> 20) + " MB): " + e.getMessage();
            } else if (code == ErrorCode.INTERNAL_ERROR) {
                LOG.error("internal error on {}", in.where(), e);
                reason = "internal error: " + e;
            } else {
                for (Throwable earlier : e.getSuppressed()) {
                    if (earlier instanceof RejectedException r) rejected(r);
                }
                reason = Objects.requireNonNullElse(e.getMessage(), e.toString());
            }
            // an id over the limit is not echoed as a result's key: the error event (which cuts it) is the answer
            if (query != null && query.getQueryId() != null && !query.getQueryId().isEmpty() && Ids.fits(query.getQueryId())
                    && Ids.fits(query.getGraphId()) && !answered && !replay) {
                answered(query, queries.failed(query, code, Ids.reason(reason)));
            } else if (subscription != null && subscription.getSubscriptionId() != null && !subscription.getSubscriptionId().isEmpty()
                    && Ids.fits(subscription.getSubscriptionId()) && Ids.fits(subscription.getGraphId()) && !replay) {
                outputs.results(List.of(subscriptions.refused(subscription, code, Ids.reason(reason))));
                reject(code, reason);
            } else {
                reject(code, reason);
            }
        }

        /** The one place a rejection becomes an error event (none in replay: it was reported before). */
        void reject(ErrorCode code, String reason) {
            if (replay) {
                // reported when first read; but a version this worker cannot hold (its heap holds other graphs than
                // the worker that loaded it) is worth a word: its graph stays unknown here
                if (code == ErrorCode.GRAPH_TOO_LARGE) LOG.warn("replay of {}: {} {}", in.where(), code, reason);
                else LOG.debug("replay of {}: {} {}", in.where(), code, reason);
                return;
            }
            LOG.warn("rejected {} (key {}): {} - {}", in.where(), LogSafe.quote(in.key()), code, reason);
            outputs.error(error(code, reason));
            metrics.error(code);
        }

        private ErrorEvent error(ErrorCode code, String reason) {
            return ErrorEvent.newBuilder()
                    .setSourceTopic(in.topic()).setPartition(in.partition()).setOffset(in.offset())
                    .setKey(Ids.echo(in.key())).setGraphId(Ids.echo(graphId)).setQueryId(Ids.echo(queryId))
                    .setCode(code.name()).setReason(Ids.reason(reason)).setTimestampMs(System.currentTimeMillis()).build();
        }
    }

    /** How this worker names itself in status events: {@code frontier.worker-id}, else the host name. */
    public String workerId() {
        return workerId;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "frontier-worker";
        }
    }
}
