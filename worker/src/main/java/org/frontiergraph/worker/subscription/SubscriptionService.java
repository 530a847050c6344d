package org.frontiergraph.worker.subscription;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.Changes;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.standing.Standings;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.checkpoint.CheckpointedSubscriptions;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.registry.HeapBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Standing queries: subscriptions read from the graphs topic, their answers kept up to date as updates change the
 * graph, and the pushes that tell the subscribers. No Kafka here: the processor hands records in, the listener
 * publishes what {@link #flush} returns with the batch's other outputs, before the batch's offsets are committed.
 *
 * <p>This class drives each graph's flush, keeps the memory model's reservations of standing answers, and ends
 * subscriptions. The rest lives beside it: the book of subscriptions and their limits ({@link SubscriptionBook}:
 * {@link GraphSubscriptions} per graph, a {@link Subscriber} per subscription), a {@link StandingAnswer} per
 * algorithm and source, the refresh after a batch ({@link Refresher}, which calls the kernels' {@link Standings} once
 * per batch and holds no device state), the pushes and END records ({@link PushMaker}), the meters
 * ({@link SubscriptionMetrics}), and each algorithm's form ({@link StandingForm}).
 *
 * <ul>
 *   <li>{@link #accept} registers, replaces or cancels a subscription; its first answer is computed at the next
 *       flush (the end of the poll batch), on the version current then (INITIAL).</li>
 *   <li>{@link #flush}, after each poll batch: for each graph with subscriptions, the edges the batch's updates
 *       touched (read from the graph's {@link ChangeLog} by a cursor) repair each standing answer in place (the kernels'
 *       incremental algorithms, on the host graph); one answer serves every subscription of the same algorithm and
 *       source. A change too large to repair cheaply on the host is repaired on the device where the graph lives on the
 *       GPU (the BFS and SSSP answers keep a tree there: the host's changes scattered into it lazily, the trees
 *       the host gave up on repaired together, only their changed vertices copied back; a batch of
 *       {@code frontier.subscriptions.device-first-arcs} changed arcs or more goes there first), else recomputed on the
 *       graph's engine and compared.
 *       Each subscription pushes only when its answer changed: once per flush, with the net change of the whole
 *       batch (the answers the host's repairs settled push first, handed to the listener before the device repairs
 *       and recomputes of the batch's heavy ones: {@code frontier.subscriptions.settled-first}), and at most once
 *       per {@code minIntervalMs} (changes in between accumulate into the next push); under lag, not while its
 *       previous push is unacknowledged ({@link PushBacklog}): the changes meanwhile leave as one push.</li>
 *   <li>The work of a flush runs on the common pool, one task per standing answer (each touches only its answer and
 *       its subscriptions): the repairs, then the recomputes, then the pushes' chunks. Before the repairs, one pass
 *       over the batch's changed arcs shared by every answer (the kernels' screen, built once per batch) sets aside
 *       the answers the batch cannot touch (a BFS or SSSP tree: an arc off the tree re-weighted without shortening
 *       anything; CC labels: no changed pair joins two components or cuts one), at a few array reads each: on a road
 *       grid with 100 subscriptions about half of the trees per single re-weight. A content
 *       that several subscriptions of one answer push (the same changes; the same complete answer in the same mode)
 *       is encoded once, each subscription getting chunks of its own (id, sequence, reason) that share the packed
 *       arrays.</li>
 *   <li>A new snapshot of the graph, or a worker that rebuilt the partition from the log ({@link #resync}),
 *       recomputes every answer and pushes it complete (RESYNC), so consumers can reset; a subscription whose
 *       source vertex is gone ends (END, with the failure's status) and gets an error event.</li>
 *   <li>{@code frontier.verify-incremental}: that fraction of repairs is checked against a recompute from scratch;
 *       a mismatch is an ERROR log, the {@code frontier.subscriptions.mismatches} counter, and a RESYNC push of the
 *       recomputed answer.</li>
 * </ul>
 * Subscriptions live in the log: replaying a partition re-registers them (the partition's rebuild start is held back
 * to the earliest live subscription, see {@link GraphRegistry.PartitionState}), and in their graph's checkpoints
 * ({@link CheckpointedSubscriptions}): a subscription a checkpoint carries no longer holds the rebuild start. Threads: the records' methods
 * ({@link #accept}, {@link #resync}, {@link #refused}) may come from the tasks that process partitions side by side,
 * {@link #flush} and {@link #due} from the consumer's thread between polls: all are synchronized (the pool's tasks
 * start and end inside {@link #flush}); the registry's calls ({@link #earliestOffset}, {@link #dropPartitions}) come
 * from the consumer's thread while no partition is processed, and take no lock, so that the registry's lock and this
 * one are never taken in both orders.
 */
@Singleton
public class SubscriptionService implements GraphRegistry.PartitionState, CheckpointedSubscriptions {
    private static final Logger LOG = LoggerFactory.getLogger(SubscriptionService.class);

    private final GraphRegistry registry;
    private final EngineService engines;
    private final FrontierConfig config;
    /** The subscriptions and their limits, by graph. */
    private final SubscriptionBook book;
    /** Makes the pushes (and END pushes, error events) of subscriptions, and counts them. */
    private final PushMaker pushes;
    private final SubscriptionMetrics metrics;
    /** Where the current flush of a graph spent its time: for the slow-flush DEBUG line. */
    private final FlushTimes times = new FlushTimes();
    /** Brings standing answers up to date after a batch: the kernels' repairs, then the recomputes. */
    private final Refresher refresher;
    /** A graph's flush longer than this is logged at DEBUG with its steps ({@code frontier.slow-batch-ms}). */
    private final long slowFlushNs;

    public SubscriptionService(GraphRegistry registry, EngineService engines, FrontierConfig config, MeterRegistry meters) {
        this(registry, engines, config, meters, PushBacklog.NONE);
    }

    /** {@code backlog}: the output publisher's pushes not yet acknowledged, which hold a subscription's next UPDATE back. */
    @Inject
    public SubscriptionService(GraphRegistry registry, EngineService engines, FrontierConfig config, MeterRegistry meters,
                               PushBacklog backlog) {
        this.registry = registry;
        this.engines = engines;
        this.config = config;
        registry.attach(this);
        this.pushes = new PushMaker(config, meters, backlog);
        this.book = new SubscriptionBook(config, pushes, Refresher.policy(config));
        this.metrics = new SubscriptionMetrics(meters, book::size);
        this.refresher = new Refresher(config, this::engine, this::synced, times);
        this.slowFlushNs = config.getSlowBatchMs() * 1_000_000L;
    }

    /**
     * What subscriptions produced: pushed answers (results topic, keyed by subscription id), error events, and the
     * cancels of subscriptions the worker ended for an error ({@code endedBy} set), for the graphs topic: the log then
     * records their end, so a replay does not bring them back.
     */
    public record Pushes(List<QueryResult> results, List<ErrorEvent> errors, List<Subscription> ended) {
        public static final Pushes NONE = new Pushes(List.of(), List.of(), List.of());

        public boolean isEmpty() { return results.isEmpty() && errors.isEmpty() && ended.isEmpty(); }
    }

    /** Where a subscription record was read, for its error events and the partition's rebuild start. */
    public record Origin(String topic, int partition, long offset) {}

    /**
     * Registers {@code s} (replacing a subscription of the same id), or cancels it ({@link SubscriptionBook#accept}).
     * Its answer comes at the next flush.
     */
    public synchronized Pushes accept(Subscription s, Origin at, boolean replay) {
        return book.accept(s, at, replay);
    }

    /** The subscriptions of {@code partition} push their answers complete at the next flush (reason RESYNC). */
    public synchronized void resync(int partition) {
        book.resync(partition);
    }

    /** Whether a throttled subscription of a {@code live} partition has a push due by {@code nowMs}. */
    public synchronized boolean due(IntPredicate live, long nowMs) {
        return book.due(live, nowMs);
    }

    /**
     * Brings the answers of the subscriptions of {@code live} partitions (assigned, rebuilt) up to date with the
     * graphs and returns the pushes due by {@code nowMs}.
     */
    public Pushes flush(IntPredicate live, long nowMs) {
        return flush(live, nowMs, null);
    }

    /**
     * As {@link #flush(IntPredicate, long)}, and with {@code early} (null: none; and none when
     * {@code frontier.subscriptions.settled-first} is off) the pushes of answers a graph's batch settled on the host
     * are handed there as soon as they are made (never empty), while the batch's heavy answers are still repaired on the device or
     * recomputed: each subscription still pushes once per flush, and what {@code early} got is not returned again.
     */
    public synchronized Pushes flush(IntPredicate live, long nowMs, Consumer<Pushes> early) {
        if (book.graphs.isEmpty()) return Pushes.NONE;
        List<QueryResult> results = new ArrayList<>();
        List<ErrorEvent> errors = new ArrayList<>();
        List<Subscription> ended = new ArrayList<>();
        Consumer<Pushes> first = early != null ? early : p -> {
            results.addAll(p.results());
            errors.addAll(p.errors());
        };
        pushRoom = config.getMaxBatchAnswerBytes();
        for (Iterator<GraphSubscriptions> it = book.graphs.values().iterator(); it.hasNext(); ) {
            GraphSubscriptions g = it.next();
            if (!live.test(g.partition)) continue;
            results.addAll(g.endings);
            g.endings.clear();
            if (!g.subs.isEmpty()) flush(g, nowMs, results, errors, config.getSubscriptions().isSettledFirst() ? first : null);
            ended.addAll(g.ended);
            g.ended.clear();
            if (g.subs.isEmpty()) {
                g.stopFollowing();
                it.remove();
            }
        }
        book.recount();
        return results.isEmpty() && errors.isEmpty() && ended.isEmpty() ? Pushes.NONE : new Pushes(results, errors, ended);
    }

    private void flush(GraphSubscriptions g, long nowMs, List<QueryResult> results, List<ErrorEvent> errors, Consumer<Pushes> first) {
        GraphEntry entry = registry.get(g.graphId).orElse(null);
        if (entry == null) {
            String why = registry.whyUnknown(g.graphId);
            for (Subscriber sub : List.copyOf(g.subs.values())) endWith(g, sub, ErrorCode.UNKNOWN_GRAPH, why, results, errors);
            return;
        }
        long start = System.nanoTime();
        times.reset();
        g.version = entry.version();
        MutableGraph graph = entry.resident().mutable();
        Changes read = g.tracked == graph ? g.changes.read() : null;
        if (read == null || read.restart()) {   // the first look, a new snapshot, a rebuilt partition, a lost cursor: afresh
            if (g.tracked != null) {
                for (Subscriber sub : g.subs.values()) if (sub.sequence >= 0 && sub.complete == null) sub.complete = PushReason.RESYNC;
            }
            g.follow(graph);
            g.clearAnswers();
        } else {
            ChangedEdges changes = read.edges();
            if (!changes.isEmpty(graph.vertexCount())) {
                List<Refresher.Refresh<?>> refreshed = refresher.refreshAll(g, entry, List.copyOf(g.answers.values()), changes,
                        first == null ? null : settled -> {
                            Pushes p = pushSettled(g, entry, settled, nowMs);
                            if (!p.isEmpty()) first.accept(p);
                        });
                for (Refresher.Refresh<?> t : refreshed) update(g, entry, t, results, errors);
            }
        }
        List<Subscriber> due = new ArrayList<>();
        int vertices = entry.vertexCount();
        for (Subscriber sub : g.subs.values()) {
            if (!(sub.complete != null || (sub.waiting() && nowMs >= sub.dueMs()))) continue;
            if (sub.complete != null || sub.pending.all()) {   // a complete answer: paced, within the flush's room
                long bytes = PushMaker.completeBytes(sub, vertices);
                if (bytes > pushRoom && pushRoom < config.getMaxBatchAnswerBytes()) continue;   // the next flush (due says so)
                pushRoom -= bytes;
            }
            due.add(sub);
        }
        if (!due.isEmpty()) {
            long p = System.nanoTime();
            computeMissing(g, entry, due, results, errors);
            pushAll(g, entry, due, nowMs, results, errors);
            times.add(FlushTimes.Phase.PUSHES, System.nanoTime() - p);
        }
        long took = System.nanoTime() - start;
        metrics.flushed(took, times);
        if (took >= slowFlushNs && LOG.isDebugEnabled()) {
            LOG.debug("graph {} version {}: flush of {} answers took {} ms: {}, pushes {} due", LogSafe.quote(g.graphId), g.version,
                    g.answers.size(), FlushTimes.ms(took), times, due.size());
        }
    }

    /**
     * The pushes of the answers a batch's host repairs settled, made while its heavy answers wait for the device or a
     * recompute: those answers' changes taken, then the UPDATE pushes of their subscriptions that are due (a complete
     * push waits for the flush's own pass, which paces them).
     */
    private Pushes pushSettled(GraphSubscriptions g, GraphEntry entry, List<Refresher.Refresh<?>> settled, long nowMs) {
        long p = System.nanoTime();
        List<QueryResult> results = new ArrayList<>();
        List<ErrorEvent> errors = new ArrayList<>();
        Set<AnswerKey> keys = new HashSet<>();
        for (Refresher.Refresh<?> t : settled) {
            update(g, entry, t, results, errors);
            keys.add(t.answer.key);
        }
        List<Subscriber> due = new ArrayList<>();
        for (Subscriber sub : g.subs.values()) {
            if (keys.contains(sub.key) && sub.updateDue(nowMs)) due.add(sub);
        }
        if (!due.isEmpty()) pushAll(g, entry, due, nowMs, results, errors);
        times.add(FlushTimes.Phase.PUSHES, System.nanoTime() - p);
        return new Pushes(results, errors, List.of());
    }

    /**
     * Bytes of complete pushes a flush may still make ({@code frontier.max-batch-answer-bytes}): after a restart or a
     * new snapshot every subscription pushes its answer complete (RESYNC), and a thousand of them at once would hold
     * gigabytes of chunks; beyond the room they wait for the next flush, which comes as soon as the consumer has
     * published the previous one ({@link #due}). At least one push is made per flush.
     */
    private long pushRoom;

    /** Heap a standing answer keeps on {@code vertices} vertices (its form's {@link StandingForm#bytesPerVertex}). */
    static long standingBytes(Algorithm algorithm, int vertices) {
        return 4096 + StandingForm.ALL.get(algorithm).bytesPerVertex() * vertices;
    }

    /**
     * The graph brought up to date on its engine, for recomputes on the pool's threads: a resident graph runs queries
     * from several threads (the CPU engine side by side, each on its own arrays; a GPU one after another under its
     * context's lock, with the kernels' buffers kept between runs), so the host-side work of one recompute (copying
     * the answer back, comparing it) overlaps the others'. Called on the consumer's thread, once per step.
     */
    Engine engine(GraphEntry entry) {
        GraphEntry synced = synced(entry);
        return new Engine(synced, engineFor(synced));
    }


    /**
     * The standing answers that due subscriptions need and do not have (new subscriptions; every answer after a new
     * snapshot or a rebuild), computed from scratch on the pool's threads. An answer that cannot be computed ends the
     * subscriptions that use it.
     */
    private void computeMissing(GraphSubscriptions g, GraphEntry entry, List<Subscriber> due, List<QueryResult> results, List<ErrorEvent> errors) {
        Map<AnswerKey, StandingAnswer<?>> missing = new LinkedHashMap<>();
        for (Subscriber sub : due) {
            if (!g.answers.containsKey(sub.key)) missing.computeIfAbsent(sub.key, k -> new StandingAnswer<>(StandingForm.ALL.get(sub.spec.getAlgorithm()), sub));
        }
        if (missing.isEmpty()) return;
        // each answer reserves its heap first (the memory model): one that does not fit ends its subscriptions
        List<StandingAnswer<?>> answers = new ArrayList<>(missing.size());
        List<StandingAnswer<?>> refused = new ArrayList<>();
        for (StandingAnswer<?> a : missing.values()) {
            long bytes = standingBytes(a.key.algorithm(), entry.vertexCount());
            if (registry.tryReserveStanding(bytes)) {
                a.reserved(registry.budget(), bytes);
                answers.add(a);
            } else {
                refused.add(a);
            }
        }
        for (StandingAnswer<?> a : refused) {
            HeapBudget b = registry.budget();
            failed(g, a.key, new RejectedException(ErrorCode.RESOURCE_EXHAUSTED, "standing " + a.key + " on graph '" + g.graphId
                    + "' needs about " + HeapBudget.mb(standingBytes(a.key.algorithm(), entry.vertexCount())) + " of heap; the memory model's "
                    + HeapBudget.mb(b.limitBytes()) + " hold graphs and snapshots (" + HeapBudget.mb(registry.heldBytes()) + "), standing answers ("
                    + HeapBudget.mb(b.standingBytes()) + ") and reserves for answers in flight (" + HeapBudget.mb(b.fixedBytes()) + ")"), results, errors);
        }
        if (answers.isEmpty()) return;
        List<Object> computed;
        Engine engine = null;
        try {
            engine = engine(entry);
            Engine on = engine;
            computed = each(answers, a -> {
                try {
                    return a.fresh(on, config);
                } catch (RuntimeException e) {
                    return e;
                }
            });
        } catch (RuntimeException e) {   // the graph could not be brought up to date on its engine
            computed = Collections.nCopies(answers.size(), e);
        }
        for (int i = 0; i < answers.size(); i++) {
            StandingAnswer<?> a = answers.get(i);
            if (computed.get(i) instanceof RuntimeException e) {
                a.release();
                failed(g, a.key, e, results, errors);
            } else {
                g.answers.put(a.key, a);
                keep(g, a, computed.get(i), engine.resident());
            }
        }
    }

    /**
     * Keeps {@code answer} (just computed or recomputed: exact on the current version) as {@code a}'s, in the graph's
     * standings: with a tree on the device where its graph is held on the GPU and
     * {@code frontier.standing-trees-on-device} allows (a batch whose repair the host gives up on is repaired there).
     * An answer whose tree cannot be had (device memory) is recomputed in that case, as on the CPU engine.
     */
    @SuppressWarnings("unchecked")
    private <A> void keep(GraphSubscriptions g, StandingAnswer<A> a, Object answer, ResidentGraph resident) {
        if (a.kept == null) a.kept = g.standings.open(a.form.kind(), (A) answer, resident);
        else g.standings.reset(a.kept, (A) answer, resident);
        switch (a.kept.placed()) {
            case TREE_OPENED -> LOG.info("standing {} on graph {} has a tree on the device: repaired there when the host gives up",
                    a.key, LogSafe.quote(g.graphId));
            case REFUSED -> LOG.warn("standing {} on graph {} stays on the host: its tree on the device could not be kept ({})", a.key,
                    LogSafe.quote(g.graphId), a.kept.refusal().toString());
            default -> { }
        }
    }

    /** The resident copy the registry holds for {@code g}'s graph now (null: none). */
    private ResidentGraph resident(GraphSubscriptions g) {
        return registry.get(g.graphId).map(GraphEntry::resident).orElse(null);
    }

    /**
     * {@code f} of each item, in order; side by side on the common pool when there are several, by at most the pool's
     * parallelism plus one tasks at once, each taking the next item. The bound matters on a GPU graph: each item's
     * engine call waits for the graph's lane, and a pool worker that waits makes the pool start a spare thread (the
     * kernels' PoolAwareLock, which keeps the lane's holder able to use the pool); a thousand answers recomputed in one
     * flush would otherwise take the common pool to its limit of spare threads.
     */
    @SuppressWarnings("unchecked")
    static <T, U> List<U> each(List<T> items, Function<T, U> f) {
        int n = items.size();
        if (n <= 1) return items.stream().map(f).toList();
        Object[] out = new Object[n];
        AtomicInteger next = new AtomicInteger();
        IntStream.range(0, Math.min(n, ForkJoinPool.getCommonPoolParallelism() + 1)).parallel().forEach(task -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) out[i] = f.apply(items.get(i));
        });
        return (List<U>) Collections.unmodifiableList(Arrays.asList(out));   // as toList(): nulls allowed
    }

    /** A batch of changes reached one standing answer: repaired in place, or recomputed and compared. */
    private <A> void update(GraphSubscriptions g, GraphEntry entry, Refresher.Refresh<A> t, List<QueryResult> results, List<ErrorEvent> errors) {
        StandingAnswer<A> a = t.answer;
        if (t.failure != null) {
            failed(g, a.key, t.failure, results, errors);
            return;
        }
        if (t.repaired == null) {
            metrics.recomputed.increment();
            keep(g, a, t.recomputed, resident(g));
            for (Subscriber sub : g.users(a.key)) {
                if (t.compared == null) sub.pending.markAll();
                else sub.pending.add(t.compared);
            }
            return;
        }
        (t.onDevice ? metrics.repairedOnDevice : metrics.repaired).increment();
        if (t.mismatch != null) {
            metrics.mismatches.increment();
            LOG.error("incremental {} on graph {} version {} differs from a recompute: {}; pushing the recomputed answer (RESYNC)",
                    a.key, LogSafe.quote(g.graphId), entry.version(), t.mismatch);
            keep(g, a, t.fresh, resident(g));
            for (Subscriber sub : g.users(a.key)) {
                sub.complete = PushReason.RESYNC;
                sub.pending.clear();
            }
            return;
        }
        for (Subscriber sub : g.users(a.key)) sub.pending.add(t.repaired);
    }

    /**
     * The pushes of the due subscriptions, built per standing answer on the pool's threads (each task reads one answer
     * and changes only its own subscriptions' state), appended in subscription order. A push that fails (a target
     * outside a new snapshot's vertices, say) ends its subscription.
     */
    private void pushAll(GraphSubscriptions g, GraphEntry entry, List<Subscriber> due, long nowMs, List<QueryResult> results, List<ErrorEvent> errors) {
        Map<AnswerKey, List<Subscriber>> byAnswer = new LinkedHashMap<>();
        for (Subscriber sub : due) {
            if (g.subs.get(sub.spec.getSubscriptionId()) == sub && g.answers.containsKey(sub.key)) {
                byAnswer.computeIfAbsent(sub.key, k -> new ArrayList<>()).add(sub);
            }
        }
        List<Map.Entry<AnswerKey, List<Subscriber>>> work = List.copyOf(byAnswer.entrySet());
        Map<Subscriber, PushMaker.Made> made = new IdentityHashMap<>();
        for (List<PushMaker.Made> m : each(work, w -> pushes.pushes(entry, g.answers.get(w.getKey()), w.getValue(), nowMs))) {
            for (PushMaker.Made x : m) made.put(x.sub(), x);
        }
        List<PushMaker.Made> ok = new ArrayList<>(due.size());
        for (Subscriber sub : due) {
            PushMaker.Made m = made.get(sub);
            if (m == null) continue;
            if (m.failure() == null) {
                ok.add(m);
                continue;
            }
            RuntimeException e = m.failure();
            ErrorCode code = ErrorCode.of(e);
            if (code == ErrorCode.INTERNAL_ERROR) LOG.error("push of subscription {} failed", LogSafe.quote(sub.spec.getSubscriptionId()), e);
            endWith(g, sub, code, Objects.requireNonNullElse(e.getMessage(), e.toString()), results, errors);
        }
        // smallest first (a stable sort: ties in the subscriptions' order); each push's chunks stay together, in order
        if (config.getSubscriptions().isSmallFirst() && ok.size() > 1) {
            Map<PushMaker.Made, Long> bytes = new IdentityHashMap<>();
            for (PushMaker.Made m : ok) bytes.put(m, PushMaker.bytes(m.chunks()));
            ok.sort(Comparator.comparingLong(bytes::get));
        }
        for (PushMaker.Made m : ok) results.addAll(m.chunks());
    }

    /** An answer could not be computed: every subscription using it ends with the failure. */
    private void failed(GraphSubscriptions g, AnswerKey key, RuntimeException e, List<QueryResult> results, List<ErrorEvent> errors) {
        ErrorCode code = ErrorCode.of(e);
        if (code == ErrorCode.INTERNAL_ERROR) LOG.error("standing {} on graph {} failed", key, LogSafe.quote(g.graphId), e);
        g.removeAnswer(key);
        for (Subscriber sub : g.using(key)) endWith(g, sub, code, Objects.requireNonNullElse(e.getMessage(), e.toString()), results, errors);
    }

    private void endWith(GraphSubscriptions g, Subscriber sub, ErrorCode code, String reason, List<QueryResult> results, List<ErrorEvent> errors) {
        LOG.warn("subscription {} on graph {} ends: {} - {}", LogSafe.quote(sub.spec.getSubscriptionId()), LogSafe.quote(g.graphId), code, reason);
        g.remove(sub);
        results.add(pushes.end(sub, g.version, code, reason));
        errors.add(PushMaker.error(sub, code, reason));
        g.ended.add(Subscription.newBuilder(sub.spec).setCancel(true).setEndedBy(code.name()).build());
    }

    /**
     * The END push that answers a subscription record refused before it reached this service (a key that differs
     * from its graph id, a fault of the worker), so a waiting subscriber is not left hanging.
     */
    public synchronized QueryResult refused(Subscription s, ErrorCode code, String reason) {
        return pushes.end(new Subscriber(s, new Origin("", -1, -1)), -1, code, reason);
    }

    @Override
    public void dropPartitions(Collection<Integer> partitions) {
        book.dropPartitions(partitions);
    }

    @Override
    public long earliestOffset(int partition) {
        GraphRegistry.Coverage c = coverage;
        return book.earliestOffset(partition, graphId -> registry.get(graphId).map(e -> c.coveredThrough(graphId, e.snapshotOffset())).orElse(-1L));
    }

    /** Which subscriptions a checkpoint holds ({@link #cover}); none until checkpoints are on. */
    private volatile GraphRegistry.Coverage coverage = (graphId, lineage) -> -1;

    @Override
    public void cover(GraphRegistry.Coverage c) {
        this.coverage = c;
    }

    /**
     * The graph's subscriptions as a checkpoint carries them: each as its record was published (the ids its names
     * resolved to taken out again, so a rebuild resolves them as a replay would), with the offset it was read at.
     */
    @Override
    public synchronized List<Carried> carried(String graphId) {
        GraphSubscriptions g = book.graphs.get(graphId);
        if (g == null) return List.of();
        List<Carried> out = new ArrayList<>(g.subs.size());
        for (Subscriber sub : g.subs.values()) out.add(new Carried(graphId, sub.origin.offset(), FrontierCodec.encode(published(sub.spec))));
        return out;
    }

    /** A registered subscription as it was published: a source or targets given by name carry no ids. */
    static Subscription published(Subscription spec) {
        if (spec.getSourceName() == null && spec.getTargetNames().isEmpty()) return spec;
        Subscription.Builder b = Subscription.newBuilder(spec);
        if (spec.getSourceName() != null) b.setSource(null);
        if (!spec.getTargetNames().isEmpty()) b.setTargets(List.of());
        return b.build();
    }

    @Override
    public synchronized long lastChange(String graphId) {
        return book.lastChange(graphId);
    }

    /** Subscriptions held, for the gauge and tests. */
    public int size() {
        return book.size();
    }

    GraphEntry synced(GraphEntry e) {
        return registry.synced(e);
    }

    ResidentGraph engineFor(GraphEntry e) {
        return engines.forQuery(e.resident(), null);
    }
}
