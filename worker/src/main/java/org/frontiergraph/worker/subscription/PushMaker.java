package org.frontiergraph.worker.subscription;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.Ids;
import org.frontiergraph.worker.query.QueryContext;
import org.frontiergraph.worker.registry.GraphEntry;

/**
 * What subscribers receive, made from a standing answer: a subscription's push when it has one (complete, or what
 * changed, in its mode), its END push and error event when it ends, and what a complete push weighs (the flush paces
 * complete pushes by it). A content that several subscriptions of one answer push is encoded once
 * ({@link Shared}). Pushes are counted by reason ({@code frontier.subscriptions.pushes}). An UPDATE push of a
 * subscription whose previous push is not acknowledged yet ({@link PushBacklog}) is not made: its changes stay pending
 * for a later flush, which pushes them all as one ({@code frontier.subscriptions.pushes.held} counts the flushes that
 * held one back).
 */
final class PushMaker {
    private final FrontierConfig config;
    private final Map<PushReason, Counter> counters = new EnumMap<>(PushReason.class);
    /** Subscriptions whose previous push is on its way: their next UPDATE waits (its changes accumulate). */
    private final PushBacklog backlog;
    private final Counter coalesced;

    PushMaker(FrontierConfig config, MeterRegistry meters, PushBacklog backlog) {
        this.config = config;
        this.backlog = backlog;
        this.coalesced = Counter.builder("frontier.subscriptions.pushes.held").description(
                "UPDATE pushes held back while the subscription's previous push was unacknowledged: their changes left with a later push")
                .register(meters);
        for (PushReason r : PushReason.values()) {
            counters.put(r, Counter.builder("frontier.subscriptions.pushes").tag("reason", r.name())
                    .description("Answers pushed to subscribers, by reason").register(meters));
        }
    }

    /** A subscription's push: its chunks (none when nothing was to be pushed), or why it could not be made. */
    record Made(Subscriber sub, List<QueryResult> chunks, RuntimeException failure) {}

    /** The pushes of {@code subs}, due subscriptions of answer {@code a}; each content is encoded once for all. */
    <R> List<Made> pushes(GraphEntry entry, StandingAnswer<R> a, List<Subscriber> subs, long nowMs) {
        Map<Object, Shared> contents = new HashMap<>();
        List<Made> made = new ArrayList<>(subs.size());
        for (Subscriber sub : subs) {
            try {
                made.add(new Made(sub, push(entry, a, sub, nowMs, contents), null));
            } catch (RuntimeException e) {
                made.add(new Made(sub, List.of(), e));
            }
        }
        return made;
    }

    /** What a push holds, for the complete answer in {@code mode} (and {@code targets}, in TARGETS mode). */
    private record Complete(ResultMode mode, List<Integer> targets) {}

    /**
     * One content pushed to several subscriptions of an answer: encoded once, on first use (by the first subscription,
     * whose context gives the chunks' header); every other subscription gets copies that share the packed arrays.
     */
    private final class Shared {
        final QueryContext context;
        private int[] targets;
        private List<QueryResult> chunks;
        private RuntimeException failure;
        private boolean taken;

        Shared(QueryContext context) {
            this.context = context;
        }

        /** The targets in engine ids (TARGETS mode), validated once. */
        int[] targets() {
            if (failure != null) throw failure;
            try {
                if (targets == null) targets = context.targets();
                return targets;
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }

        /** The chunks, encoded by {@code encode} the first time. */
        List<QueryResult> chunks(Supplier<List<QueryResult>> encode) {
            if (failure != null) throw failure;
            try {
                if (chunks == null) chunks = encode.get();
                return chunks;
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }

        /** The chunks to publish for one subscription: the encoded ones the first time, then copies. */
        List<QueryResult> take() {
            if (!taken) {
                taken = true;
                return chunks;
            }
            List<QueryResult> copies = new ArrayList<>(chunks.size());
            for (QueryResult r : chunks) copies.add(copy(r));
            return copies;
        }
    }

    /**
     * Makes {@code sub}'s push when it has one to push, complete (INITIAL, RESYNC; every push of FULL, TARGETS and
     * SUMMARY) or what changed (DELTA UPDATE), and records it as pushed; an empty list when nothing is to be pushed.
     * Contents are shared through {@code contents}: by mode and targets for complete answers (a DELTA subscription's
     * complete push is the FULL answer), by the pending changes themselves for DELTAs (one repair's changes, shared by
     * every subscription that pushes after each batch).
     */
    private <R> List<QueryResult> push(GraphEntry entry, StandingAnswer<R> a, Subscriber sub, long nowMs, Map<Object, Shared> contents) {
        ResultMode mode = sub.spec.getResultMode();
        boolean complete = sub.complete != null || sub.pending.all();
        PushReason reason = sub.complete != null ? sub.complete : PushReason.UPDATE;
        if (reason == PushReason.UPDATE && backlog.behind(sub.spec.getSubscriptionId())) {   // under lag: one push later
            coalesced.increment();
            return List.of();
        }
        boolean delta = mode == ResultMode.DELTA && !complete;
        ResultMode encoded = mode == ResultMode.DELTA ? ResultMode.FULL : mode;
        Object key = !delta ? new Complete(encoded, mode == ResultMode.TARGETS ? sub.spec.getTargets() : List.of())
                : Objects.requireNonNullElse(sub.pending.only(), sub);
        Shared content = contents.computeIfAbsent(key, k -> new Shared(sub.context(entry, config, encoded)));
        if (mode == ResultMode.TARGETS && !complete && !sub.pending.anyOf(content.targets())) {
            sub.pending.clear();
            return List.of();
        }
        List<QueryResult> encodedChunks = content.chunks(() -> delta ? a.form.delta(content.context, a.result(), sub.pending)
                : a.form.complete(content.context, a.result()));
        if (reason == PushReason.UPDATE && mode == ResultMode.SUMMARY && sameSummary(sub.lastSummary, encodedChunks.get(0))) {
            sub.pending.clear();
            return List.of();
        }
        long sequence = reason == PushReason.UPDATE ? sub.sequence + 1 : 0;
        List<QueryResult> chunks = content.take();
        for (QueryResult r : chunks) {
            r.setQueryId(sub.spec.getSubscriptionId());
            r.setSource(sub.spec.getSource());
            r.setReason(reason);
            r.setSequence(sequence);
            r.setDelta(delta);
        }
        if (mode == ResultMode.SUMMARY) sub.lastSummary = encodedChunks.get(0);
        counters.get(reason).increment();
        sub.sequence = sequence;
        sub.complete = null;
        sub.pending.clear();
        sub.lastPushMs = nowMs;
        return chunks;
    }

    private static boolean sameSummary(QueryResult a, QueryResult b) {
        return a != null && a.getVertexCount() == b.getVertexCount() && Objects.equals(a.getReachedCount(), b.getReachedCount())
                && Objects.equals(a.getMaxHops(), b.getMaxHops()) && Objects.equals(a.getMaxDistance(), b.getMaxDistance())
                && Objects.equals(a.getTotalWeight(), b.getTotalWeight()) && Objects.equals(a.getComponents(), b.getComponents())
                && Objects.equals(a.getLargestComponent(), b.getLargestComponent());
    }

    /** The last push of a subscription: END, status OK when cancelled, else the failure's. */
    QueryResult end(Subscriber sub, long version, ErrorCode code, String reason) {
        counters.get(PushReason.END).increment();
        Subscription s = sub.spec;
        ResultStatus status = code == null ? ResultStatus.OK : code.resultStatus().orElse(ResultStatus.INTERNAL_ERROR);
        return QueryResult.newBuilder()
                .setQueryId(s.getSubscriptionId()).setGraphId(s.getGraphId()).setGraphVersion(version)
                .setAlgorithm(s.getAlgorithm()).setStatus(status).setError(code == null ? null : Ids.reason(reason))
                .setSource(s.getSource()).setReason(PushReason.END).setSequence(sub.sequence + 1)
                .build();
    }

    static ErrorEvent error(Subscriber sub, ErrorCode code, String reason) {
        return ErrorEvent.newBuilder()
                .setSourceTopic(sub.origin.topic()).setPartition(sub.origin.partition()).setOffset(sub.origin.offset())
                .setKey(sub.spec.getGraphId()).setGraphId(sub.spec.getGraphId()).setQueryId(sub.spec.getSubscriptionId())
                .setCode(code.name()).setReason(Ids.reason(reason)).setTimestampMs(System.currentTimeMillis()).build();
    }

    /** Roughly what a complete push of {@code sub} holds, packed and encoded: 16 bytes a vertex (or target), at most. */
    static long completeBytes(Subscriber sub, int vertices) {
        return switch (sub.spec.getResultMode()) {
            case SUMMARY -> 512;
            case TARGETS -> 512 + 16L * sub.spec.getTargets().size();
            default -> 512 + 16L * vertices;
        };
    }

    private static final int FIELDS = QueryResult.getClassSchema().getFields().size();

    /**
     * What a push's chunks carry, nearly: the bytes of their byte fields (packed and compact arrays), 8 a list
     * element, at any depth (records inside lists walked; lists of numbers counted, not read).
     */
    static long bytes(List<QueryResult> chunks) {
        long n = 0;
        for (QueryResult r : chunks) n += bytes(r);
        return n;
    }

    private static long bytes(Object v) {
        if (v instanceof ByteBuffer b) return b.remaining();
        long n = 0;
        if (v instanceof IndexedRecord r) for (int i = 0; i < r.getSchema().getFields().size(); i++) n += bytes(r.get(i));
        if (v instanceof List<?> list) {
            n += 8L * list.size();
            if (!list.isEmpty() && list.get(0) instanceof IndexedRecord) for (Object o : list) n += bytes(o);
        }
        return n;
    }

    /**
     * A copy of a push's chunk for another subscription it goes to. It shares the packed arrays' bytes (read only once
     * encoded; each copy has buffers of its own, so reading one moves no other's position); the caller then sets what
     * differs per subscription (id, sequence, reason). Avro's own copy ({@code QueryResult.newBuilder(r)}) would copy
     * every byte.
     */
    static QueryResult copy(QueryResult r) {
        QueryResult c = new QueryResult();
        for (int i = 0; i < FIELDS; i++) c.put(i, share(r.get(i)));
        return c;
    }

    private static Object share(Object v) {
        if (v instanceof ByteBuffer b) return share(b);
        if (v instanceof IndexedRecord r) {   // edge batches, a form's push content (CC's component changes)
            IndexedRecord c = (IndexedRecord) SpecificData.get().newRecord(null, r.getSchema());
            for (int i = 0; i < r.getSchema().getFields().size(); i++) c.put(i, share(r.get(i)));
            return c;
        }
        if (v instanceof List<?> list) {
            List<Object> copies = new ArrayList<>(list.size());
            for (Object o : list) copies.add(share(o));
            return copies;
        }
        return v;   // strings, numbers, enums: immutable
    }

    private static ByteBuffer share(ByteBuffer b) {
        return b == null ? null : b.duplicate().order(b.order());
    }
}
