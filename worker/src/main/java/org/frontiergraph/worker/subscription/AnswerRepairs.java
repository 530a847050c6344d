package org.frontiergraph.worker.subscription;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.TreeRepair;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.registry.GraphEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repair policy of standing answers: what a batch of changed arcs does to each answer of a graph, found on the
 * pool's threads and handed back as {@link Refresh}es for {@code SubscriptionService} to apply on the consumer's
 * thread. The batch's shared screen first, then repairs on the host with a budget, the device's side-by-side repair
 * of the trees the host gave up on (or of every tree, for a large batch), and recomputes of what is left or picked
 * for checking ({@code frontier.verify-incremental}). It changes no subscription.
 */
final class AnswerRepairs {
    private static final Logger LOG = LoggerFactory.getLogger(AnswerRepairs.class);

    private final FrontierConfig config;
    /** A graph version brought up to date on its engine (the service's {@code engine}). */
    private final Function<GraphEntry, Engine> engines;
    /** A graph version brought up to date where it is held (the registry's {@code synced}). */
    private final Function<GraphEntry, GraphEntry> synced;
    private final FlushTimes times;

    AnswerRepairs(FrontierConfig config, Function<GraphEntry, Engine> engines, Function<GraphEntry, GraphEntry> synced, FlushTimes times) {
        this.config = config;
        this.engines = engines;
        this.synced = synced;
        this.times = times;
    }

    /**
     * What a batch's changes did to one standing answer: the repair's answer and changes, or (a repair that gave up
     * or threw) the recomputed answer and what it changed; with {@code frontier.verify-incremental}, the recomputed
     * answer a repair differed from. Found on the pool's threads; applied by {@code SubscriptionService.update} on the consumer's.
     */
    static final class Refresh<R> {
        final StandingAnswer<R> answer;
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

        Refresh(StandingAnswer<R> answer) {
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
     * (see {@code SubscriptionService.engine}). A graph on the GPU repairs with a smaller budget: a recompute there is about
     * {@link #GPU_SPEED_UP} times faster than on one core, but the recomputes of several answers run one after another
     * while their repairs run side by side; an answer that keeps a tree on the device, with a budget
     * {@link #DEVICE_BUDGET_DIVISOR} times smaller (what the host gives up on, the device repairs).
     */
    List<Refresh<?>> refreshAll(GraphSubscriptions g, GraphEntry entry, List<StandingAnswer<?>> answers, ChangedEdges changes) {
        CsrGraph graph = hostGraph(entry, answers);
        int parallel = Math.max(1, Math.min(answers.size(), Runtime.getRuntime().availableProcessors()));
        int divisor = entry.resident().backend().equals("gpu") ? Math.max(1, GPU_SPEED_UP / parallel) : 1;
        double verify = config.getVerifyIncremental();
        // the shared first pass: which answers the batch can touch at all (a few array reads per answer and changed
        // arc); the others are left as they are, and only the touched ones are repaired on the pool
        long t0 = System.nanoTime();
        TreeRepair.Screen screen = TreeRepair.Screen.of(graph, changes);
        List<Refresh<?>> refreshed = new ArrayList<>(answers.size());
        List<StandingAnswer<?>> touched = new ArrayList<>(answers.size());
        for (StandingAnswer<?> a : answers) {
            if (touchedBy(screen, a)) touched.add(a);
            else refreshed.add(untouched(a, verify));
        }
        long t1 = System.nanoTime();
        // a large batch goes to the device first for the answers that keep a tree there (repaired side by side; the
        // host's attempt would mostly run up to its budget and give up), the others are repaired on the host
        List<StandingAnswer<?>> onHost = touched;
        ResidentGraph resident = entry.resident();
        if (changes.size() >= DEVICE_FIRST_ARCS && DEVICE_FIRST_ARCS > 0) {
            List<StandingAnswer<?>> first = touched.stream().filter(a -> a.hasTreeOn(resident)).toList();
            if (first.size() >= 2) {
                onHost = touched.stream().filter(a -> !a.hasTreeOn(resident)).toList();
                for (StandingAnswer<?> a : first) refreshed.add(new Refresh<>(a));   // not tried on the host: repairOnDevice takes it
            }
        }
        // an answer with a tree on the device gives up on the host sooner: the device repairs the batch's heavy ones
        // together, where the host would spend up to a recompute's time on each
        int deviceDivisor = Math.max(divisor, DEVICE_BUDGET_DIVISOR);
        refreshed.addAll(SubscriptionService.each(onHost, a -> repair(g, a, graph, changes, a.hasTreeOn(resident) ? deviceDivisor : divisor, verify)));
        long t2 = System.nanoTime();
        repairOnDevice(g, entry, refreshed, changes, verify);
        long t3 = System.nanoTime();
        times.add(FlushTimes.Phase.SCREEN, t1 - t0);
        times.add(FlushTimes.Phase.HOST_REPAIRS, t2 - t1);
        times.add(FlushTimes.Phase.DEVICE_REPAIRS, t3 - t2);
        times.touched += touched.size();
        List<Refresh<?>> recompute = refreshed.stream().filter(Refresh::recompute).toList();
        times.recomputed += recompute.size();
        if (recompute.isEmpty()) return refreshed;
        try {
            Engine engine = engines.apply(entry);
            SubscriptionService.each(recompute, t -> recompute(t, engine, graph));
        } catch (RuntimeException e) {   // the graph could not be brought up to date on its engine
            for (Refresh<?> t : recompute) t.failure = e;
        }
        times.add(FlushTimes.Phase.RECOMPUTES, System.nanoTime() - t3);
        return refreshed;
    }

    /**
     * The current version on the host, with what the repairs and checks of {@code answers} read cached first (the
     * transpose of a directed graph, MST's edge list), before the pool's tasks read it.
     */
    private static CsrGraph hostGraph(GraphEntry entry, List<StandingAnswer<?>> answers) {
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
        times.gaveUp += gaveUp.size();
        try {
            if (synced.apply(entry).resident() != resident) {   // moved to the CPU engine: the trees went with the device copy
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

    private static <R> boolean touchedBy(TreeRepair.Screen screen, StandingAnswer<R> a) {
        return a.standing.touchedBy(screen, a.result);
    }

    /** An answer the batch cannot touch: as a repair that changed nothing (verify-incremental may still pick it). */
    private static <R> Refresh<R> untouched(StandingAnswer<R> a, double verify) {
        Refresh<R> t = new Refresh<>(a);
        t.repaired = new Standing.Updated<>(a.result, Pending.Changes.NONE);
        t.verify = verify > 0 && ThreadLocalRandom.current().nextDouble() < verify;
        return t;
    }

    private static <R> Refresh<R> repair(GraphSubscriptions g, StandingAnswer<R> a, CsrGraph graph, ChangedEdges changes, int divisor, double verify) {
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
        StandingAnswer<R> a = t.answer;
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
}
