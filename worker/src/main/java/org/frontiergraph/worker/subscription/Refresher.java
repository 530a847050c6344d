package org.frontiergraph.worker.subscription;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.standing.Delta;
import org.frontiergraph.kernels.standing.RepairPolicy;
import org.frontiergraph.kernels.standing.Standing;
import org.frontiergraph.kernels.standing.Standings;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.registry.GraphEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the standing answers of a graph up to date after a batch: one call to the kernels' {@link Standings} (the
 * batch's screen, the host's repairs with their budgets, the device's repair of what the host gave up on), then the
 * recomputes of the answers given up on and of those {@code frontier.verify-incremental} picks, side by side on the
 * pool (see {@code SubscriptionService.engine}). It holds no device state and changes no subscription: the
 * {@link Refresh}es go back to {@code SubscriptionService} to apply on the consumer's thread.
 */
final class Refresher {
    private static final Logger LOG = LoggerFactory.getLogger(Refresher.class);

    private final FrontierConfig config;
    /** A graph version brought up to date on its engine (the service's {@code engine}). */
    private final Function<GraphEntry, Engine> engines;
    /** A graph version brought up to date where it is held (the registry's {@code synced}). */
    private final Function<GraphEntry, GraphEntry> synced;
    private final FlushTimes times;

    Refresher(FrontierConfig config, Function<GraphEntry, Engine> engines, Function<GraphEntry, GraphEntry> synced, FlushTimes times) {
        this.config = config;
        this.engines = engines;
        this.synced = synced;
        this.times = times;
    }

    /** The repair policy {@code config} sets ({@code frontier.subscriptions.*}, {@code frontier.trees.*}). */
    static RepairPolicy policy(FrontierConfig config) {
        FrontierConfig.Subscriptions s = config.getSubscriptions();
        FrontierConfig.Trees t = config.getTrees();
        return new RepairPolicy(s.getDeviceFirstArcs(), s.getDeviceBudgetDivisor(), RepairPolicy.DEFAULTS.gpuSpeedUp(),
                t.isSideBySide(), t.getBlocksPerSm(), t.isPhases(), t.getSettle(), t.getShiftPasses());
    }

    /**
     * What a batch's changes did to one standing answer: the repair's answer and changes, or (a repair that gave up
     * or threw) the recomputed answer and what it changed; with {@code frontier.verify-incremental}, the recomputed
     * answer a repair differed from.
     */
    static final class Refresh<A> {
        final StandingAnswer<A> answer;
        /** The repair's changes; null when it gave up or threw. */
        Delta repaired;
        /** The repair ran on the device. */
        boolean onDevice;
        /** False when a repair threw or failed on the device: it may have left the answer half changed. */
        boolean intact = true;
        /** verify-incremental picked this repair for a check against a recompute. */
        boolean verify;
        /** The answer recomputed after a repair that gave up or threw. */
        A recomputed;
        /** What the recompute changed; null: unknown (the next push is complete). */
        Delta compared;
        /** verify-incremental: the recomputed answer the repair differed from, and how. */
        A fresh;
        String mismatch;
        /** The recompute failed. */
        RuntimeException failure;

        Refresh(StandingAnswer<A> answer) {
            this.answer = answer;
        }

        /** Whether this answer needs a recompute: its repair gave up or threw, or it is to be checked. */
        boolean recompute() {
            return repaired == null || verify;
        }
    }

    /**
     * Brings {@code answers} (of {@code g}, all kept) up to date after {@code changes}. With {@code settledFirst} (null:
     * none), the answers the host's repairs settled go there first, before the device's repairs and the recomputes of
     * the others (not those picked for verification: they wait for their check); the list returned holds the rest, in
     * {@code answers}' order.
     */
    List<Refresh<?>> refreshAll(GraphSubscriptions g, GraphEntry entry, List<StandingAnswer<?>> answers, ChangedEdges changes,
                                Consumer<List<Refresh<?>>> settledFirst) {
        CsrGraph graph = entry.resident().graph();
        ResidentGraph resident = entry.resident();
        List<Standing<?>> kept = new ArrayList<>(answers.size());
        for (StandingAnswer<?> a : answers) kept.add(a.kept);
        // a graph in the wide form is never repaired (only screened), and the verifiers read int-indexed arrays
        double verify = graph.wide() ? 0 : config.getVerifyIncremental();
        Refresh<?>[] made = new Refresh<?>[answers.size()];
        boolean[] handed = new boolean[answers.size()];
        Standings.Batch batch = new Standings.Batch(graph, changes, resident, () -> synced.apply(entry).resident());
        Standings.Repairs r = g.standings.repair(kept, batch, settledFirst == null ? null : settled -> {
            List<Refresh<?>> first = new ArrayList<>();
            for (int i = 0; i < answers.size(); i++) {
                if (settled.get(i) == null) continue;
                made[i] = refresh(g, answers.get(i), settled.get(i), verify);
                if (made[i].recompute()) continue;   // picked for a check against a recompute: with the others
                handed[i] = true;
                first.add(made[i]);
            }
            if (!first.isEmpty()) settledFirst.accept(first);
        });
        List<Refresh<?>> refreshed = new ArrayList<>(answers.size());
        for (int i = 0; i < answers.size(); i++) {
            if (!handed[i]) refreshed.add(made[i] != null ? made[i] : refresh(g, answers.get(i), r.outcomes().get(i), verify));
        }
        if (r.deviceFailure() != null) {
            LOG.warn("incremental repair on the device of graph {} failed ({}); recomputing {} standing answers",
                    LogSafe.quote(g.graphId), r.deviceFailure().toString(), r.toDevice());
        } else if (r.toDevice() > 0 && LOG.isDebugEnabled()) {
            LOG.debug("graph {}: {} standing answers repaired on the device (the host gave up on them, or a large batch) in {} ms",
                    LogSafe.quote(g.graphId), r.toDevice(), String.format("%.2f", r.deviceNanos() / 1e6));
        }
        times.add(FlushTimes.Phase.SCREEN, r.screenNanos());
        times.add(FlushTimes.Phase.HOST_REPAIRS, r.hostNanos());
        times.add(FlushTimes.Phase.DEVICE_REPAIRS, r.deviceNanos());   // 0 when no answer went to the device
        times.touched += r.touched();
        times.gaveUp += r.toDevice();
        List<Refresh<?>> recompute = refreshed.stream().filter(Refresh::recompute).toList();
        times.recomputed += recompute.size();
        if (recompute.isEmpty()) return refreshed;
        long t = System.nanoTime();
        try {
            Engine engine = engines.apply(entry);
            SubscriptionService.each(recompute, x -> recompute(x, engine, graph));
        } catch (RuntimeException e) {   // the graph could not be brought up to date on its engine
            for (Refresh<?> x : recompute) x.failure = e;
        }
        times.add(FlushTimes.Phase.RECOMPUTES, System.nanoTime() - t);
        return refreshed;
    }

    private static <A> Refresh<A> refresh(GraphSubscriptions g, StandingAnswer<A> a, Standings.Outcome<?> o, double verify) {
        Refresh<A> t = new Refresh<>(a);
        if (o.failure() != null) {
            LOG.warn("incremental repair of {} on graph {} failed ({}); recomputing", a.key, LogSafe.quote(g.graphId), o.failure().toString());
        }
        t.intact = o.intact();
        t.onDevice = o.onDevice();
        if (o.repaired() != null) {
            t.repaired = o.delta();
            t.verify = verify > 0 && ThreadLocalRandom.current().nextDouble() < verify;
        }
        return t;
    }

    /** Recomputes {@code t}'s answer: what replaces a repair that gave up (and what it changed), or what checks one. */
    private <A> Refresh<A> recompute(Refresh<A> t, Engine engine, CsrGraph graph) {
        StandingAnswer<A> a = t.answer;
        try {
            A fresh = a.fresh(engine, config);
            if (t.repaired == null) {
                t.recomputed = fresh;
                // DELTA subscribers still get only what changed, found by comparing the two answers (O(n), no kernel)
                t.compared = t.intact ? a.form.kind().compare(a.result(), fresh) : null;
                return t;
            }
            Verification v = a.form.kind().verify(graph, a.result(), fresh);
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
