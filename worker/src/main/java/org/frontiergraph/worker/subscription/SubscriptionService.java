package org.frontiergraph.worker.subscription;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.sssp.TreeRepair;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.Ids;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.query.QueryContext;
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
 * <ul>
 *   <li>{@link #accept} registers, replaces or cancels a subscription; its first answer is computed at the next
 *       flush (the end of the poll batch), on the version current then (INITIAL).</li>
 *   <li>{@link #flush}, after each poll batch: for each graph with subscriptions, the edges the batch's updates
 *       touched ({@link MutableGraph#drainChangedEdges()}) repair each standing answer in place (the kernels'
 *       incremental algorithms, on the host graph); one answer serves every subscription of the same algorithm and
 *       source. A change too large to repair cheaply on the host is repaired on the device where the graph lives on the
 *       GPU (the BFS and SSSP answers keep a tree there, {@link DeviceAnswers}: the host's changes scattered into it
 *       lazily, the trees the host gave up on repaired together, only their changed vertices copied back; a batch of
 *       {@link #DEVICE_FIRST_ARCS} changed arcs or more goes there first), else recomputed on the graph's engine and
 *       compared.
 *       Each subscription pushes only when its answer changed: once per flush, with the net change of the whole
 *       batch, and at most once per {@code minIntervalMs} (changes in between accumulate into the next push).</li>
 *   <li>The work of a flush runs on the common pool, one task per standing answer (each touches only its answer and
 *       its subscriptions): the repairs, then the recomputes, then the pushes' chunks. Before the repairs, one pass
 *       over the batch's changed arcs shared by every answer ({@link TreeRepair.Screen}) sets aside the BFS and SSSP
 *       trees the batch cannot touch (an arc off the tree re-weighted without shortening anything), at a few array
 *       reads each: on a road grid with 100 subscriptions about half of the trees per single re-weight. A content
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
 * to the earliest live subscription, see {@link GraphRegistry.PartitionState}). Threads: the records' methods
 * ({@link #accept}, {@link #resync}, {@link #refused}) may come from the tasks that process partitions side by side,
 * {@link #flush} and {@link #due} from the consumer's thread between polls: all are synchronized (the pool's tasks
 * start and end inside {@link #flush}); the registry's calls ({@link #earliestOffset}, {@link #dropPartitions}) come
 * from the consumer's thread while no partition is processed, and take no lock, so that the registry's lock and this
 * one are never taken in both orders.
 */
@Singleton
public class SubscriptionService implements GraphRegistry.PartitionState {
    private static final Logger LOG = LoggerFactory.getLogger(SubscriptionService.class);
    private static final Map<Algorithm, Standing<?>> STANDINGS = new EnumMap<>(Map.of(
            Algorithm.BFS, new BfsStanding(), Algorithm.SSSP, new SsspStanding(), Algorithm.MST, new MstStanding()));

    private final GraphRegistry registry;
    private final EngineService engines;
    private final FrontierConfig config;
    private final Map<String, GraphSubscriptions> graphs = new LinkedHashMap<>();
    private final Map<PushReason, Counter> pushes = new EnumMap<>(PushReason.class);
    private final Counter repaired;
    private final Counter recomputed;
    private final Counter repairedOnDevice;
    private final Timer flushes;
    /** Where the current flush of a graph spent its time (nanoseconds): for the slow-flush DEBUG line. */
    private final long[] phases = new long[Phase.values().length];
    private int phaseTouched, phaseGaveUp, phaseRecomputed;

    /** A graph's flush, step by step. */
    private enum Phase { SCREEN, HOST_REPAIRS, DEVICE_REPAIRS, RECOMPUTES, PUSHES }

    /**
     * A graph's flush longer than this is logged at DEBUG with its steps ({@code -Dfrontier.slow-batch-ms}, default
     * 20, the poll batch's threshold too).
     */
    private static final long SLOW_FLUSH_NS = Long.getLong("frontier.slow-batch-ms", 20) * 1_000_000L;
    private final Counter mismatches;
    private volatile int count;

    public SubscriptionService(GraphRegistry registry, EngineService engines, FrontierConfig config, MeterRegistry meters) {
        this.registry = registry;
        this.engines = engines;
        this.config = config;
        registry.attach(this);
        Gauge.builder("frontier.subscriptions", this, s -> s.count)
                .description("Standing queries held by this worker").register(meters);
        for (PushReason r : PushReason.values()) {
            pushes.put(r, Counter.builder("frontier.subscriptions.pushes").tag("reason", r.name())
                    .description("Answers pushed to subscribers, by reason").register(meters));
        }
        repaired = Counter.builder("frontier.subscriptions.updates").tag("how", "repaired")
                .description("Standing answers brought up to date after a batch of updates, by incremental repair or by recompute")
                .register(meters);
        recomputed = Counter.builder("frontier.subscriptions.updates").tag("how", "recomputed")
                .description("Standing answers brought up to date after a batch of updates, by incremental repair or by recompute")
                .register(meters);
        repairedOnDevice = Counter.builder("frontier.subscriptions.updates").tag("how", "repaired-on-device")
                .description("Standing answers brought up to date after a batch of updates, by incremental repair or by recompute")
                .register(meters);
        flushes = Timer.builder("frontier.subscriptions.flush")
                .description("A graph's standing answers brought up to date and its pushes made after a poll batch (repairs, recomputes, pushes)")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                .register(meters);
        mismatches = Counter.builder("frontier.subscriptions.mismatches")
                .description("Incremental repairs that differed from a recompute (frontier.verify-incremental); each was replaced and pushed as RESYNC")
                .register(meters);
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
     * Registers {@code s} (replacing a subscription of the same id), or cancels it. Its answer comes at the next
     * flush. A subscription that cannot be served is refused at once: an END push with the failure's status and an
     * error event (nothing in replay: it was refused when first read).
     */
    public synchronized Pushes accept(Subscription s, Origin at, boolean replay) {
        GraphSubscriptions g = graphs.computeIfAbsent(s.getGraphId(), id -> new GraphSubscriptions(id, at.partition()));
        Sub existing = g.subs.get(s.getSubscriptionId());
        try {
            if (s.getCancel() && s.getEndedBy() != null) {   // a worker's record that it ended this one: already told
                if (existing != null && sameQuery(existing.spec, s)) g.remove(existing);
                count = total();
                return Pushes.NONE;
            }
            if (s.getCancel()) {
                if (existing == null) {
                    throw new RejectedException(ErrorCode.UNKNOWN_SUBSCRIPTION, "cancel of subscription '" + s.getSubscriptionId()
                            + "': graph '" + s.getGraphId() + "' has no such subscription");
                }
                g.remove(existing);
                if (!replay) g.endings.add(end(existing, g.version, null, "cancelled"));
                return Pushes.NONE;
            }
            validate(s);
            if (existing == null && g.subs.size() >= config.getMaxSubscriptionsPerGraph()) {
                throw new RejectedException(ErrorCode.TOO_MANY_SUBSCRIPTIONS, "graph '" + s.getGraphId() + "' has "
                        + g.subs.size() + " subscriptions, the most frontier.max-subscriptions-per-graph allows");
            }
            if (existing == null && total() >= config.getMaxSubscriptions()) {
                throw new RejectedException(ErrorCode.TOO_MANY_SUBSCRIPTIONS, "this worker holds " + total()
                        + " subscriptions over all its graphs, the most frontier.max-subscriptions allows");
            }
            if (existing != null) g.remove(existing);
            g.add(new Sub(s, at));
            count = total();
            return Pushes.NONE;
        } catch (RejectedException e) {
            count = total();
            if (replay) return Pushes.NONE;
            Sub refused = new Sub(s, at);
            return new Pushes(List.of(end(refused, g.version, e.code(), e.getMessage())), List.of(error(refused, e.code(), e.getMessage())),
                    List.of());
        }
    }

    /** Whether two subscription records ask the same standing query (a worker's end record names the one it ended). */
    private static boolean sameQuery(Subscription a, Subscription b) {
        return a.getAlgorithm() == b.getAlgorithm() && Objects.equals(a.getSource(), b.getSource())
                && a.getResultMode() == b.getResultMode() && a.getTargets().equals(b.getTargets())
                && a.getMinIntervalMs() == b.getMinIntervalMs();
    }

    private void validate(Subscription s) {
        Standing<?> standing = STANDINGS.get(s.getAlgorithm());
        String what = "subscription '" + s.getSubscriptionId() + "'";
        if (s.getSubscriptionId() == null || s.getSubscriptionId().isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "subscription on graph '" + s.getGraphId() + "' has an empty subscriptionId");
        }
        if (standing == null) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " asks for " + s.getAlgorithm()
                    + "; subscriptions answer " + STANDINGS.keySet());
        }
        if (!standing.supports(s.getResultMode())) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + ": " + s.getAlgorithm() + " has no " + s.getResultMode() + " mode");
        }
        if (s.getMinIntervalMs() < 0) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " has a negative minIntervalMs " + s.getMinIntervalMs());
        }
        if (s.getMinIntervalMs() > config.getMaxMinIntervalMs()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " has a minIntervalMs of " + s.getMinIntervalMs()
                    + " ms, more than frontier.max-min-interval-ms (" + config.getMaxMinIntervalMs() + " ms)");
        }
        if (s.getResultMode() == ResultMode.TARGETS && s.getTargets().size() > config.getMaxSubscriptionTargets()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " lists " + s.getTargets().size() + " targets, more than "
                    + "frontier.max-subscription-targets (" + config.getMaxSubscriptionTargets() + "): every push of TARGETS mode "
                    + "sends them all; subscribe in DELTA mode, which sends only the vertices that changed");
        }
    }

    /** The subscriptions of {@code partition} push their answers complete at the next flush (reason RESYNC). */
    public synchronized void resync(int partition) {
        for (GraphSubscriptions g : graphs.values()) {
            if (g.partition != partition) continue;
            g.tracked = null;   // recompute every answer
            for (Sub sub : g.subs.values()) sub.complete = PushReason.RESYNC;
        }
    }

    /** Whether a throttled subscription of a {@code live} partition has a push due by {@code nowMs}. */
    public synchronized boolean due(IntPredicate live, long nowMs) {
        for (GraphSubscriptions g : graphs.values()) {
            if (!live.test(g.partition)) continue;
            if (!g.endings.isEmpty()) return true;
            for (Sub sub : g.subs.values()) if (sub.waiting() && nowMs >= sub.dueMs()) return true;
        }
        return false;
    }

    /**
     * Brings the answers of the subscriptions of {@code live} partitions (assigned, rebuilt) up to date with the
     * graphs and returns the pushes due by {@code nowMs}.
     */
    public synchronized Pushes flush(IntPredicate live, long nowMs) {
        if (graphs.isEmpty()) return Pushes.NONE;
        List<QueryResult> results = new ArrayList<>();
        List<ErrorEvent> errors = new ArrayList<>();
        List<Subscription> ended = new ArrayList<>();
        pushRoom = config.getMaxBatchAnswerBytes();
        for (Iterator<GraphSubscriptions> it = graphs.values().iterator(); it.hasNext(); ) {
            GraphSubscriptions g = it.next();
            if (!live.test(g.partition)) continue;
            results.addAll(g.endings);
            g.endings.clear();
            if (!g.subs.isEmpty()) flush(g, nowMs, results, errors);
            ended.addAll(g.ended);
            g.ended.clear();
            if (g.subs.isEmpty()) it.remove();
        }
        count = total();
        return results.isEmpty() && errors.isEmpty() && ended.isEmpty() ? Pushes.NONE : new Pushes(results, errors, ended);
    }

    private void flush(GraphSubscriptions g, long nowMs, List<QueryResult> results, List<ErrorEvent> errors) {
        GraphEntry entry = registry.get(g.graphId).orElse(null);
        if (entry == null) {
            String why = registry.whyUnknown(g.graphId);
            for (Sub sub : List.copyOf(g.subs.values())) endWith(g, sub, ErrorCode.UNKNOWN_GRAPH, why, results, errors);
            return;
        }
        long start = System.nanoTime();
        java.util.Arrays.fill(phases, 0);
        phaseTouched = phaseGaveUp = phaseRecomputed = 0;
        g.version = entry.version();
        MutableGraph graph = entry.resident().mutable();
        if (g.tracked != graph) {   // the first look, a new snapshot, a rebuilt partition: every answer afresh
            if (g.tracked != null) {
                for (Sub sub : g.subs.values()) if (sub.sequence >= 0 && sub.complete == null) sub.complete = PushReason.RESYNC;
            }
            g.tracked = graph;
            graph.trackChangedEdges();
            graph.drainChangedEdges();
            g.clearAnswers();
        } else {
            ChangedEdges changes = graph.drainChangedEdges();
            if (!changes.isEmpty(graph.vertexCount())) {
                List<Refresh<?>> refreshed = refreshAll(g, entry, List.copyOf(g.answers.values()), changes);
                for (Refresh<?> t : refreshed) update(g, entry, t, results, errors);
            }
        }
        List<Sub> due = new ArrayList<>();
        int vertices = entry.vertexCount();
        for (Sub sub : g.subs.values()) {
            if (!(sub.complete != null || (sub.waiting() && nowMs >= sub.dueMs()))) continue;
            if (sub.complete != null || sub.pending.all()) {   // a complete answer: paced, within the flush's room
                long bytes = completePushBytes(sub, vertices);
                if (bytes > pushRoom && pushRoom < config.getMaxBatchAnswerBytes()) continue;   // the next flush (due says so)
                pushRoom -= bytes;
            }
            due.add(sub);
        }
        if (!due.isEmpty()) {
            long p = System.nanoTime();
            computeMissing(g, entry, due, results, errors);
            pushAll(g, entry, due, nowMs, results, errors);
            phases[Phase.PUSHES.ordinal()] = System.nanoTime() - p;
        }
        long took = System.nanoTime() - start;
        flushes.record(took, TimeUnit.NANOSECONDS);
        if (took >= SLOW_FLUSH_NS && LOG.isDebugEnabled()) {
            LOG.debug("graph {} version {}: flush of {} answers took {} ms: screen {}, host repairs {} ({} touched), device repairs {} "
                    + "({} the host gave up on), recomputes {} ({}), pushes {} ({} due)", LogSafe.quote(g.graphId), g.version, g.answers.size(),
                    ms(took), ms(phases[Phase.SCREEN.ordinal()]), ms(phases[Phase.HOST_REPAIRS.ordinal()]), phaseTouched,
                    ms(phases[Phase.DEVICE_REPAIRS.ordinal()]), phaseGaveUp, ms(phases[Phase.RECOMPUTES.ordinal()]),
                    phaseRecomputed, ms(phases[Phase.PUSHES.ordinal()]), due.size());
        }
    }

    /**
     * Bytes of complete pushes a flush may still make ({@code frontier.max-batch-answer-bytes}): after a restart or a
     * new snapshot every subscription pushes its answer complete (RESYNC), and a thousand of them at once would hold
     * gigabytes of chunks; beyond the room they wait for the next flush, which comes as soon as the consumer has
     * published the previous one ({@link #due}). At least one push is made per flush.
     */
    private long pushRoom;

    /** Roughly what a complete push of {@code sub} holds, packed and encoded: 16 bytes a vertex (or target), at most. */
    private static long completePushBytes(Sub sub, int vertices) {
        return switch (sub.spec.getResultMode()) {
            case SUMMARY -> 512;
            case TARGETS -> 512 + 16L * sub.spec.getTargets().size();
            default -> 512 + 16L * vertices;
        };
    }

    /**
     * Heap a standing answer keeps on {@code vertices} vertices: BFS and SSSP about 20 bytes a vertex (value, parent,
     * the repair's keys; 5.1 MB measured on USA-road-d.NY), MST a forest and its index, about 64.
     */
    static long standingBytes(Algorithm algorithm, int vertices) {
        return 4096 + (algorithm == Algorithm.MST ? 64L : 20L) * vertices;
    }

    private static String ms(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /**
     * The graph brought up to date on its engine, for recomputes on the pool's threads: a resident graph runs queries
     * from several threads (the CPU engine side by side, each on its own arrays; a GPU one after another under its
     * context's lock, with the kernels' buffers kept between runs), so the host-side work of one recompute (copying
     * the answer back, comparing it) overlaps the others'. Called on the consumer's thread, once per step.
     */
    private Engine engine(GraphEntry entry) {
        GraphEntry synced = synced(entry);
        return new Engine(synced, engineFor(synced));
    }

    /** A graph version and the engine its answers are computed on. */
    private record Engine(GraphEntry entry, ResidentGraph resident) {}

    /**
     * The standing answers that due subscriptions need and do not have (new subscriptions; every answer after a new
     * snapshot or a rebuild), computed from scratch on the pool's threads. An answer that cannot be computed ends the
     * subscriptions that use it.
     */
    private void computeMissing(GraphSubscriptions g, GraphEntry entry, List<Sub> due, List<QueryResult> results, List<ErrorEvent> errors) {
        Map<AnswerKey, Answer<?>> missing = new LinkedHashMap<>();
        for (Sub sub : due) {
            if (!g.answers.containsKey(sub.key)) missing.computeIfAbsent(sub.key, k -> new Answer<>(STANDINGS.get(sub.spec.getAlgorithm()), sub));
        }
        if (missing.isEmpty()) return;
        // each answer reserves its heap first (the memory model): one that does not fit ends its subscriptions
        List<Answer<?>> answers = new ArrayList<>(missing.size());
        List<Answer<?>> refused = new ArrayList<>();
        for (Answer<?> a : missing.values()) {
            long bytes = standingBytes(a.key.algorithm(), entry.vertexCount());
            if (registry.tryReserveStanding(bytes)) {
                a.reserved(registry, bytes);
                answers.add(a);
            } else {
                refused.add(a);
            }
        }
        for (Answer<?> a : refused) {
            HeapBudget b = registry.budget();
            failed(g, a.key, new RejectedException(ErrorCode.RESOURCE_EXHAUSTED, "standing " + a.key + " on graph '" + g.graphId
                    + "' needs about " + HeapBudget.mb(standingBytes(a.key.algorithm(), entry.vertexCount())) + " of heap; the memory model's "
                    + HeapBudget.mb(b.limitBytes()) + " hold graphs and snapshots (" + HeapBudget.mb(registry.heldBytes()) + "), standing answers ("
                    + HeapBudget.mb(b.standingBytes()) + ") and reserves for answers in flight (" + HeapBudget.mb(b.fixedBytes()) + ")"), results, errors);
        }
        if (answers.isEmpty()) return;
        List<RuntimeException> failures;
        Engine engine = null;
        try {
            engine = engine(entry);
            Engine on = engine;
            failures = each(answers, a -> {
                try {
                    a.compute(on, config);
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
        } catch (RuntimeException e) {   // the graph could not be brought up to date on its engine
            failures = Collections.nCopies(answers.size(), e);
        }
        for (int i = 0; i < answers.size(); i++) {
            Answer<?> a = answers.get(i);
            if (failures.get(i) != null) {
                a.release();
                failed(g, a.key, failures.get(i), results, errors);
            } else {
                g.answers.put(a.key, a);
                onDevice(g, a, engine.resident());
            }
        }
    }

    /**
     * Gives answer {@code a} (just computed or replaced: exact on the current version) a tree on the device where its
     * graph is held on the GPU and {@code frontier.standing-trees-on-device} allows ({@link DeviceAnswers}): a batch
     * whose repair the host gives up on is repaired there ({@link #repairOnDevice}). An answer whose tree cannot be had
     * (device memory) is recomputed in that case, as on the CPU engine.
     */
    private void onDevice(GraphSubscriptions g, Answer<?> a, ResidentGraph resident) {
        try {
            if (a.hasTreeOn(resident)) {
                a.dropStale();
                DeviceAnswers.reset(resident, a.device, a.result);
                return;
            }
            a.closeDevice();
            if (!config.isStandingTreesOnDevice() || resident == null || !resident.backend().equals("gpu")) return;
            a.device = DeviceAnswers.open(resident, a.result);
            a.deviceOn = a.device == null ? null : resident;
            if (a.device != null) LOG.info("standing {} on graph {} has a tree on the device: repaired there when the host gives up", a.key, LogSafe.quote(g.graphId));
        } catch (RuntimeException e) {
            LOG.warn("standing {} on graph {} stays on the host: its tree on the device could not be kept ({})", a.key,
                    LogSafe.quote(g.graphId), e.toString());
            a.closeDevice();
        }
    }

    /** The resident copy the registry holds for {@code g}'s graph now (null: none). */
    private ResidentGraph resident(GraphSubscriptions g) {
        return registry.get(g.graphId).map(GraphEntry::resident).orElse(null);
    }

    /** {@code f} of each item, in order; side by side on the common pool when there are several. */
    private static <T, U> List<U> each(List<T> items, Function<T, U> f) {
        return (items.size() > 1 ? items.parallelStream() : items.stream()).map(f).toList();
    }

    /**
     * What a batch's changes did to one standing answer: the repair's answer and changes, or (a repair that gave up
     * or threw) the recomputed answer and what it changed; with {@code frontier.verify-incremental}, the recomputed
     * answer a repair differed from. Found on the pool's threads; applied by {@link #update} on the consumer's.
     */
    private static final class Refresh<R> {
        final Answer<R> answer;
        /** The repair's answer and changes; null when it gave up or threw. */
        Standing.Updated<R> repaired;
        /** The repair ran on the device (its tree holds the answer already). */
        boolean onDevice;
        /** False when a repair threw: it may have left the answer half changed, so what changed is unknown. */
        boolean intact = true;
        /** verify-incremental picked this repair for a check against a recompute. */
        boolean verify;
        /** The answer recomputed after a repair that gave up or threw. */
        R recomputed;
        /** What the recompute changed; null: unknown (the next push is complete). */
        Pending.Changes compared;
        /** verify-incremental: the recomputed answer the repair differed from, and how. */
        R fresh;
        String mismatch;
        /** The recompute failed. */
        RuntimeException failure;

        Refresh(Answer<R> answer) {
            this.answer = answer;
        }

        /** Whether this answer needs a recompute: its repair gave up or threw, or it is to be checked. */
        boolean recompute() {
            return repaired == null || verify;
        }
    }

    /**
     * Brings the standing answers of a graph up to date after a batch, on the pool's threads: first the batch's
     * screen on this thread (the answers it cannot touch are left as they are), then every other repair side by side
     * (each task writes only its own answer; the graph is only read, and what it caches lazily is built first), then
     * the recomputes, of the answers whose repair gave up and of those verify-incremental picks, also side by side
     * (see {@link #engine}). A graph on the GPU repairs with a smaller budget: a recompute there is about
     * {@link #GPU_SPEED_UP} times faster than on one core, but the recomputes of several answers run one after another
     * while their repairs run side by side; an answer that keeps a tree on the device, with a budget
     * {@link #DEVICE_BUDGET_DIVISOR} times smaller (what the host gives up on, the device repairs).
     */
    private List<Refresh<?>> refreshAll(GraphSubscriptions g, GraphEntry entry, List<Answer<?>> answers, ChangedEdges changes) {
        CsrGraph graph = hostGraph(entry, answers);
        int parallel = Math.max(1, Math.min(answers.size(), Runtime.getRuntime().availableProcessors()));
        int divisor = entry.resident().backend().equals("gpu") ? Math.max(1, GPU_SPEED_UP / parallel) : 1;
        double verify = config.getVerifyIncremental();
        // the shared first pass: which answers the batch can touch at all (a few array reads per answer and changed
        // arc); the others are left as they are, and only the touched ones are repaired on the pool
        long t0 = System.nanoTime();
        TreeRepair.Screen screen = TreeRepair.Screen.of(graph, changes);
        List<Refresh<?>> refreshed = new ArrayList<>(answers.size());
        List<Answer<?>> touched = new ArrayList<>(answers.size());
        for (Answer<?> a : answers) {
            if (touchedBy(screen, a)) touched.add(a);
            else refreshed.add(untouched(a, verify));
        }
        long t1 = System.nanoTime();
        // a large batch goes to the device first for the answers that keep a tree there (repaired side by side; the
        // host's attempt would mostly run up to its budget and give up), the others are repaired on the host
        List<Answer<?>> onHost = touched;
        ResidentGraph resident = entry.resident();
        if (changes.size() >= DEVICE_FIRST_ARCS && DEVICE_FIRST_ARCS > 0) {
            List<Answer<?>> first = touched.stream().filter(a -> a.hasTreeOn(resident)).toList();
            if (first.size() >= 2) {
                onHost = touched.stream().filter(a -> !a.hasTreeOn(resident)).toList();
                for (Answer<?> a : first) refreshed.add(new Refresh<>(a));   // not tried on the host: repairOnDevice takes it
            }
        }
        // an answer with a tree on the device gives up on the host sooner: the device repairs the batch's heavy ones
        // together, where the host would spend up to a recompute's time on each
        int deviceDivisor = Math.max(divisor, DEVICE_BUDGET_DIVISOR);
        refreshed.addAll(each(onHost, a -> repair(g, a, graph, changes, a.hasTreeOn(resident) ? deviceDivisor : divisor, verify)));
        long t2 = System.nanoTime();
        repairOnDevice(g, entry, refreshed, changes, verify);
        long t3 = System.nanoTime();
        phases[Phase.SCREEN.ordinal()] += t1 - t0;
        phases[Phase.HOST_REPAIRS.ordinal()] += t2 - t1;
        phases[Phase.DEVICE_REPAIRS.ordinal()] += t3 - t2;
        phaseTouched += touched.size();
        List<Refresh<?>> recompute = refreshed.stream().filter(Refresh::recompute).toList();
        phaseRecomputed += recompute.size();
        if (recompute.isEmpty()) return refreshed;
        try {
            Engine engine = engine(entry);
            each(recompute, t -> recompute(t, engine, graph));
        } catch (RuntimeException e) {   // the graph could not be brought up to date on its engine
            for (Refresh<?> t : recompute) t.failure = e;
        }
        phases[Phase.RECOMPUTES.ordinal()] += System.nanoTime() - t3;
        return refreshed;
    }

    /**
     * The current version on the host, with what the repairs and checks of {@code answers} read cached first (the
     * transpose of a directed graph, MST's edge list), before the pool's tasks read it.
     */
    private static CsrGraph hostGraph(GraphEntry entry, List<Answer<?>> answers) {
        CsrGraph graph = entry.resident().graph();
        if (graph.directed()) graph.transpose();
        if (answers.stream().anyMatch(a -> a.key.algorithm() == Algorithm.MST)) graph.undirectedEdges();
        return graph;
    }

    /**
     * The repairs the host gave up on (a batch too large to repair cheaply there), done on the device where the answer
     * has a tree there ({@link DeviceAnswers}) instead of a recompute and a comparison: the trees first brought level
     * with their answers (the vertices the host's repairs changed since, or the whole answer), then repaired together,
     * only their changed vertices copied back. A graph that no longer fits the device, or a device repair that fails,
     * leaves them to the recompute (pushed complete after a failure: the answers may be half changed).
     */
    private void repairOnDevice(GraphSubscriptions g, GraphEntry entry, List<Refresh<?>> refreshed, ChangedEdges changes, double verify) {
        ResidentGraph resident = entry.resident();
        List<Refresh<?>> gaveUp = refreshed.stream()
                .filter(t -> t.repaired == null && t.intact && t.answer.hasTreeOn(resident)).toList();
        if (gaveUp.isEmpty()) return;
        phaseGaveUp += gaveUp.size();
        try {
            if (synced(entry).resident() != resident) {   // moved to the CPU engine: the trees went with the device copy
                for (Refresh<?> t : gaveUp) t.answer.dropDevice();
                return;
            }
            List<Object> trees = new ArrayList<>(gaveUp.size());
            for (Refresh<?> t : gaveUp) {
                t.answer.level(resident);
                trees.add(t.answer.device);
            }
            long start = System.nanoTime();
            DeviceAnswers.Repaired[] r = DeviceAnswers.repair(resident, trees, changes);
            for (int i = 0; i < r.length; i++) onDevice(gaveUp.get(i), r[i], verify);
            if (LOG.isDebugEnabled()) LOG.debug("graph {}: {} standing answers repaired on the device (the host gave up on them, or a large batch) in {} ms",
                    LogSafe.quote(g.graphId), r.length, String.format("%.2f", (System.nanoTime() - start) / 1e6));
        } catch (RuntimeException e) {
            LOG.warn("incremental repair on the device of graph {} failed ({}); recomputing {} standing answers",
                    LogSafe.quote(g.graphId), e.toString(), gaveUp.size());
            for (Refresh<?> t : gaveUp) {
                t.answer.closeDevice();
                t.intact = false;
            }
        }
    }

    private static <R> void onDevice(Refresh<R> t, DeviceAnswers.Repaired r, double verify) {
        @SuppressWarnings("unchecked") R result = (R) r.result();
        t.repaired = new Standing.Updated<>(result, r.changed() == null ? Pending.Changes.NONE : Pending.Changes.ofVertices(r.changed()));
        t.onDevice = true;
        t.verify = verify > 0 && ThreadLocalRandom.current().nextDouble() < verify;
    }

    /**
     * Changed arcs from which a batch is repaired on the device first, where at least two touched answers keep a tree
     * there ({@code -Dfrontier.subscriptions.device-first-arcs}, 0: never; the host tries first below it). RepairBench,
     * 100 trees on USA-road-d.NY, H100: the device's side-by-side repair beat the host's 16 cores from 100 updates a
     * batch on (1.4-3.5x) and lost at 10 (27 against 10 ms); on kron20 it lost at 100 and won 5.5x at 10^4.
     */
    static final int DEVICE_FIRST_ARCS = Integer.getInteger("frontier.subscriptions.device-first-arcs", 1024);

    /**
     * How many times sooner the host gives up on repairing an answer that keeps a tree on the device
     * ({@code -Dfrontier.subscriptions.device-budget-divisor}; 1: as any other): the device then repairs it with the
     * batch's other heavy ones, side by side. docs/benchmarks.md has the A/B.
     */
    static final int DEVICE_BUDGET_DIVISOR = Integer.getInteger("frontier.subscriptions.device-budget-divisor", 32);

    /** How much faster a recompute runs on the GPU than on one host core (USA-road-d.NY SSSP: 2.4 ms on an H200, 52 ms on the host). */
    static final int GPU_SPEED_UP = 20;

    private static <R> boolean touchedBy(TreeRepair.Screen screen, Answer<R> a) {
        return a.standing.touchedBy(screen, a.result);
    }

    /** An answer the batch cannot touch: as a repair that changed nothing (verify-incremental may still pick it). */
    private static <R> Refresh<R> untouched(Answer<R> a, double verify) {
        Refresh<R> t = new Refresh<>(a);
        t.repaired = new Standing.Updated<>(a.result, Pending.Changes.NONE);
        t.verify = verify > 0 && ThreadLocalRandom.current().nextDouble() < verify;
        return t;
    }

    private static <R> Refresh<R> repair(GraphSubscriptions g, Answer<R> a, CsrGraph graph, ChangedEdges changes, int divisor, double verify) {
        Refresh<R> t = new Refresh<>(a);
        try {
            t.repaired = a.standing.repair(graph, a.result, changes, divisor);
        } catch (RuntimeException e) {
            LOG.warn("incremental repair of {} on graph {} failed ({}); recomputing", a.key, LogSafe.quote(g.graphId), e.toString());
            t.intact = false;
        }
        t.verify = t.repaired != null && verify > 0 && ThreadLocalRandom.current().nextDouble() < verify;
        return t;
    }

    /** Recomputes {@code t}'s answer: what replaces a repair that gave up (and what it changed), or what checks one. */
    private <R> Refresh<R> recompute(Refresh<R> t, Engine engine, CsrGraph graph) {
        Answer<R> a = t.answer;
        try {
            R fresh = a.fresh(engine, config);
            if (t.repaired == null) {
                t.recomputed = fresh;
                // DELTA subscribers still get only what changed, found by comparing the two answers (O(n), no kernel)
                t.compared = t.intact ? a.standing.compare(a.result, fresh) : null;
                return t;
            }
            Verification v = a.standing.verify(graph, t.repaired.result(), fresh);
            if (!v.ok()) {
                t.fresh = fresh;
                t.mismatch = v.message();
            }
        } catch (RuntimeException e) {
            t.failure = e;
        }
        return t;
    }

    /** A batch of changes reached one standing answer: repaired in place, or recomputed and compared. */
    private <R> void update(GraphSubscriptions g, GraphEntry entry, Refresh<R> t, List<QueryResult> results, List<ErrorEvent> errors) {
        Answer<R> a = t.answer;
        if (t.failure != null) {
            failed(g, a.key, t.failure, results, errors);
            return;
        }
        if (t.repaired == null) {
            recomputed.increment();
            a.result = t.recomputed;
            onDevice(g, a, resident(g));
            for (Sub sub : g.users(a.key)) {
                if (t.compared == null) sub.pending.markAll();
                else sub.pending.add(t.compared);
            }
            return;
        }
        (t.onDevice ? repairedOnDevice : repaired).increment();
        if (t.mismatch != null) {
            mismatches.increment();
            LOG.error("incremental {} on graph {} version {} differs from a recompute: {}; pushing the recomputed answer (RESYNC)",
                    a.key, LogSafe.quote(g.graphId), entry.version(), t.mismatch);
            a.result = t.fresh;
            onDevice(g, a, resident(g));
            for (Sub sub : g.users(a.key)) {
                sub.complete = PushReason.RESYNC;
                sub.pending.clear();
            }
            return;
        }
        a.result = t.repaired.result();
        if (!t.onDevice) a.changedOnHost(t.repaired.changes().vertices());
        for (Sub sub : g.users(a.key)) sub.pending.add(t.repaired.changes());
    }

    /**
     * The pushes of the due subscriptions, built per standing answer on the pool's threads (each task reads one answer
     * and changes only its own subscriptions' state), appended in subscription order. A push that fails (a target
     * outside a new snapshot's vertices, say) ends its subscription.
     */
    private void pushAll(GraphSubscriptions g, GraphEntry entry, List<Sub> due, long nowMs, List<QueryResult> results, List<ErrorEvent> errors) {
        Map<AnswerKey, List<Sub>> byAnswer = new LinkedHashMap<>();
        for (Sub sub : due) {
            if (g.subs.get(sub.spec.getSubscriptionId()) == sub && g.answers.containsKey(sub.key)) {
                byAnswer.computeIfAbsent(sub.key, k -> new ArrayList<>()).add(sub);
            }
        }
        List<Map.Entry<AnswerKey, List<Sub>>> work = List.copyOf(byAnswer.entrySet());
        Map<Sub, Made> made = new IdentityHashMap<>();
        for (List<Made> m : each(work, w -> pushes(entry, g.answers.get(w.getKey()), w.getValue(), nowMs))) {
            for (Made x : m) made.put(x.sub(), x);
        }
        for (Sub sub : due) {
            Made m = made.get(sub);
            if (m == null) continue;
            if (m.failure() == null) {
                results.addAll(m.chunks());
                continue;
            }
            RuntimeException e = m.failure();
            ErrorCode code = ErrorCode.of(e);
            if (code == ErrorCode.INTERNAL_ERROR) LOG.error("push of subscription {} failed", LogSafe.quote(sub.spec.getSubscriptionId()), e);
            endWith(g, sub, code, Objects.requireNonNullElse(e.getMessage(), e.toString()), results, errors);
        }
    }

    /** A subscription's push: its chunks (none when nothing was to be pushed), or why it could not be made. */
    private record Made(Sub sub, List<QueryResult> chunks, RuntimeException failure) {}

    /** The pushes of {@code subs}, due subscriptions of answer {@code a}; each content is encoded once for all. */
    private <R> List<Made> pushes(GraphEntry entry, Answer<R> a, List<Sub> subs, long nowMs) {
        Map<Object, Shared> contents = new HashMap<>();
        List<Made> made = new ArrayList<>(subs.size());
        for (Sub sub : subs) {
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
            for (QueryResult r : chunks) copies.add(PushCopies.copy(r));
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
    private <R> List<QueryResult> push(GraphEntry entry, Answer<R> a, Sub sub, long nowMs, Map<Object, Shared> contents) {
        ResultMode mode = sub.spec.getResultMode();
        boolean complete = sub.complete != null || sub.pending.all();
        PushReason reason = sub.complete != null ? sub.complete : PushReason.UPDATE;
        boolean delta = mode == ResultMode.DELTA && !complete;
        ResultMode encoded = mode == ResultMode.DELTA ? ResultMode.FULL : mode;
        Object key = !delta ? new Complete(encoded, mode == ResultMode.TARGETS ? sub.spec.getTargets() : List.of())
                : Objects.requireNonNullElse(sub.pending.only(), sub);
        Shared content = contents.computeIfAbsent(key, k -> new Shared(sub.context(entry, config, encoded)));
        if (mode == ResultMode.TARGETS && !complete && !sub.pending.anyOf(content.targets())) {
            sub.pending.clear();
            return List.of();
        }
        List<QueryResult> encodedChunks = content.chunks(() -> delta ? a.standing.delta(content.context, a.result, sub.pending)
                : a.standing.complete(content.context, a.result));
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
        pushes.get(reason).increment();
        sub.sequence = sequence;
        sub.complete = null;
        sub.pending.clear();
        sub.lastPushMs = nowMs;
        return chunks;
    }

    private static boolean sameSummary(QueryResult a, QueryResult b) {
        return a != null && a.getVertexCount() == b.getVertexCount() && Objects.equals(a.getReachedCount(), b.getReachedCount())
                && Objects.equals(a.getMaxHops(), b.getMaxHops()) && Objects.equals(a.getMaxDistance(), b.getMaxDistance())
                && Objects.equals(a.getTotalWeight(), b.getTotalWeight()) && Objects.equals(a.getComponents(), b.getComponents());
    }

    /** An answer could not be computed: every subscription using it ends with the failure. */
    private void failed(GraphSubscriptions g, AnswerKey key, RuntimeException e, List<QueryResult> results, List<ErrorEvent> errors) {
        ErrorCode code = ErrorCode.of(e);
        if (code == ErrorCode.INTERNAL_ERROR) LOG.error("standing {} on graph {} failed", key, LogSafe.quote(g.graphId), e);
        g.removeAnswer(key);
        for (Sub sub : g.using(key)) endWith(g, sub, code, Objects.requireNonNullElse(e.getMessage(), e.toString()), results, errors);
    }

    private void endWith(GraphSubscriptions g, Sub sub, ErrorCode code, String reason, List<QueryResult> results, List<ErrorEvent> errors) {
        LOG.warn("subscription {} on graph {} ends: {} - {}", LogSafe.quote(sub.spec.getSubscriptionId()), LogSafe.quote(g.graphId), code, reason);
        g.remove(sub);
        results.add(end(sub, g.version, code, reason));
        errors.add(error(sub, code, reason));
        g.ended.add(Subscription.newBuilder(sub.spec).setCancel(true).setEndedBy(code.name()).build());
    }

    /**
     * The END push that answers a subscription record refused before it reached this service (a key that differs
     * from its graph id, a fault of the worker), so a waiting subscriber is not left hanging.
     */
    public synchronized QueryResult refused(Subscription s, ErrorCode code, String reason) {
        return end(new Sub(s, new Origin("", -1, -1)), -1, code, reason);
    }

    /** The last push of a subscription: END, status OK when cancelled, else the failure's. */
    private QueryResult end(Sub sub, long version, ErrorCode code, String reason) {
        pushes.get(PushReason.END).increment();
        Subscription s = sub.spec;
        ResultStatus status = code == null ? ResultStatus.OK : code.resultStatus().orElse(ResultStatus.INTERNAL_ERROR);
        return QueryResult.newBuilder()
                .setQueryId(s.getSubscriptionId()).setGraphId(s.getGraphId()).setGraphVersion(version)
                .setAlgorithm(s.getAlgorithm()).setStatus(status).setError(code == null ? null : Ids.reason(reason))
                .setSource(s.getSource()).setReason(PushReason.END).setSequence(sub.sequence + 1)
                .build();
    }

    private static ErrorEvent error(Sub sub, ErrorCode code, String reason) {
        return ErrorEvent.newBuilder()
                .setSourceTopic(sub.origin.topic()).setPartition(sub.origin.partition()).setOffset(sub.origin.offset())
                .setKey(sub.spec.getGraphId()).setGraphId(sub.spec.getGraphId()).setQueryId(sub.spec.getSubscriptionId())
                .setCode(code.name()).setReason(Ids.reason(reason)).setTimestampMs(System.currentTimeMillis()).build();
    }

    @Override
    public void dropPartitions(Collection<Integer> partitions) {
        graphs.values().removeIf(g -> {
            if (!partitions.contains(g.partition)) return false;
            g.clearAnswers();
            return true;
        });
        count = total();
    }

    @Override
    public long earliestOffset(int partition) {
        long min = Long.MAX_VALUE;
        for (GraphSubscriptions g : graphs.values()) {
            if (g.partition != partition) continue;
            for (Sub sub : g.subs.values()) min = Math.min(min, sub.origin.offset());
        }
        return min;
    }

    /** Subscriptions held, for the gauge and tests. */
    public int size() {
        return count;
    }

    private int total() {
        int n = 0;
        for (GraphSubscriptions g : graphs.values()) n += g.subs.size();
        return n;
    }

    GraphEntry synced(GraphEntry e) {
        return registry.synced(e);
    }

    ResidentGraph engineFor(GraphEntry e) {
        return engines.forQuery(e.resident(), null);
    }

    /** Standing answers are shared by the subscriptions of one algorithm and source. */
    record AnswerKey(Algorithm algorithm, Integer source) {
        @Override
        public String toString() {
            return algorithm + (source == null ? "" : " from " + source);
        }
    }

    /** One standing answer and the algorithm that keeps it. */
    private static final class Answer<R> {
        final Standing<R> standing;
        final AnswerKey key;
        final Sub owner;
        R result;
        /**
         * Its tree on the device ({@link DeviceAnswers}) on {@link #deviceOn}; null: none. The tree holds {@link #result}
         * but where the host's repairs changed it since ({@link #stale}, or every vertex when {@link #restale}).
         */
        Object device;
        ResidentGraph deviceOn;
        private java.util.BitSet stale;
        private boolean restale;

        @SuppressWarnings("unchecked")
        Answer(Standing<?> standing, Sub owner) {
            this.standing = (Standing<R>) standing;
            this.key = owner.key;
            this.owner = owner;
        }

        /** Heap reserved for it in the memory model, and where (released when the answer goes). */
        private GraphRegistry budget;
        private long reserved;

        void reserved(GraphRegistry registry, long bytes) {
            this.budget = registry;
            this.reserved = bytes;
        }

        /** Gives its heap back to the memory model (once). */
        void release() {
            if (reserved > 0) budget.budget().releaseStanding(reserved);
            reserved = 0;
        }

        /** Frees its tree on the device, if any. */
        void closeDevice() {
            if (device == null) return;
            try {
                DeviceAnswers.close(deviceOn, device);
            } catch (RuntimeException e) {
                LOG.warn("freeing the device tree of standing {} failed ({})", key, e.toString());
            }
            dropDevice();
        }

        /** Whether it keeps a tree on {@code resident}'s device copy. */
        boolean hasTreeOn(ResidentGraph resident) {
            return device != null && deviceOn == resident;
        }

        /** Forgets its tree on the device (freed with the graph's device copy). */
        void dropDevice() {
            device = null;
            deviceOn = null;
            stale = null;
            restale = false;
        }

        /** The host repaired the answer at {@code vertices}: its tree on the device is behind there. */
        void changedOnHost(int[] vertices) {
            if (device == null || restale || vertices.length == 0) return;
            int n = DeviceAnswers.vertexCount(device);
            if (stale == null) stale = new java.util.BitSet(n);
            for (int v : vertices) {
                if (v >= n) {   // a new vertex: the tree is uploaded again
                    restale = true;
                    stale = null;
                    return;
                }
                stale.set(v);
            }
            if (stale.cardinality() > n / 8) {   // cheaper uploaded whole than scattered
                restale = true;
                stale = null;
            }
        }

        /** Forgets what {@link #changedOnHost} recorded (the tree is about to be given the whole answer). */
        void dropStale() {
            stale = null;
            restale = false;
        }

        /** Brings its tree on the device level with {@link #result}: the changed entries written there, or all. */
        void level(ResidentGraph resident) {
            if (restale || DeviceAnswers.vertexCountOf(result) != DeviceAnswers.vertexCount(device)) DeviceAnswers.reset(resident, device, result);
            else DeviceAnswers.patch(resident, device, result, stale == null ? new int[0] : stale.stream().toArray());
            stale = null;
            restale = false;
        }

        /** Computes the answer from scratch on {@code engine}. */
        void compute(Engine engine, FrontierConfig config) {
            result = fresh(engine, config);
        }

        /** The answer from scratch on {@code engine}, brought up to date ({@link #engine}). */
        R fresh(Engine engine, FrontierConfig config) {
            return standing.compute(owner.context(engine.entry(), config, ResultMode.FULL, engine.resident()));
        }
    }

    /** One subscription and what it has pushed. */
    private static final class Sub {
        final Subscription spec;
        final Origin origin;
        final AnswerKey key;
        final Pending pending = new Pending();
        /** The next push is complete, for this reason (INITIAL, RESYNC); null: updates only. */
        PushReason complete = PushReason.INITIAL;
        /** The sequence number of the last push; -1 before the first. */
        long sequence = -1;
        long lastPushMs = Long.MIN_VALUE / 2;
        QueryResult lastSummary;

        Sub(Subscription spec, Origin origin) {
            this.spec = spec;
            this.origin = origin;
            this.key = new AnswerKey(spec.getAlgorithm(), spec.getAlgorithm() == Algorithm.MST ? null : spec.getSource());
        }

        boolean waiting() {
            return complete != null || !pending.isEmpty();
        }

        long dueMs() {
            return complete != null ? Long.MIN_VALUE : lastPushMs + spec.getMinIntervalMs();
        }

        QueryContext context(GraphEntry entry, FrontierConfig config, ResultMode mode) {
            return context(entry, config, mode, entry.resident());
        }

        QueryContext context(GraphEntry entry, FrontierConfig config, ResultMode mode, ResidentGraph resident) {
            GraphQuery q = GraphQuery.newBuilder()
                    .setQueryId(spec.getSubscriptionId()).setGraphId(spec.getGraphId()).setAlgorithm(spec.getAlgorithm())
                    .setSource(spec.getSource()).setTargets(spec.getTargets()).setResultMode(mode).build();
            return new QueryContext(q, entry, resident, config);
        }
    }

    /** The subscriptions of one graph, their standing answers, and the graph copy whose changes they follow. */
    private static final class GraphSubscriptions {
        final String graphId;
        final int partition;
        final Map<String, Sub> subs = new LinkedHashMap<>();
        final Map<AnswerKey, Answer<?>> answers = new HashMap<>();
        /** The subscriptions of {@link #subs} by the answer they use. */
        private final Map<AnswerKey, List<Sub>> users = new HashMap<>();
        /** END pushes of cancelled subscriptions, published at the next flush. */
        final List<QueryResult> endings = new ArrayList<>();
        /** The end records of subscriptions ended for an error, for the graphs topic. */
        final List<Subscription> ended = new ArrayList<>();
        /** The graph whose changed edges the answers follow; null: none yet (every answer is computed afresh). */
        MutableGraph tracked;
        long version = -1;

        GraphSubscriptions(String graphId, int partition) {
            this.graphId = graphId;
            this.partition = partition;
        }

        void add(Sub sub) {
            subs.put(sub.spec.getSubscriptionId(), sub);
            users.computeIfAbsent(sub.key, k -> new ArrayList<>()).add(sub);
        }

        /** Removes {@code sub}, and its standing answer when no other subscription uses it. */
        void remove(Sub sub) {
            if (!subs.remove(sub.spec.getSubscriptionId(), sub)) return;
            List<Sub> u = users.get(sub.key);
            u.remove(sub);
            if (u.isEmpty()) {
                users.remove(sub.key);
                removeAnswer(sub.key);
            }
        }

        /** Removes the answer {@code key} (its device tree freed). */
        void removeAnswer(AnswerKey key) {
            Answer<?> a = answers.remove(key);
            if (a != null) {
                a.closeDevice();
                a.release();
            }
        }

        /** Removes every answer (their device trees freed, their heap given back). */
        void clearAnswers() {
            for (Answer<?> a : answers.values()) {
                a.closeDevice();
                a.release();
            }
            answers.clear();
        }

        /** The subscriptions that use answer {@code key}, in the order they came (the index itself: do not modify). */
        List<Sub> users(AnswerKey key) {
            return users.getOrDefault(key, List.of());
        }

        /** {@link #users} as a copy, for loops that remove subscriptions. */
        List<Sub> using(AnswerKey key) {
            return List.copyOf(users(key));
        }
    }
}
