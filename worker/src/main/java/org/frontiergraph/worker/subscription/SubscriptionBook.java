package org.frontiergraph.worker.subscription;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;
import org.frontiergraph.kernels.standing.RepairPolicy;
import org.frontiergraph.kernels.standing.Standings;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * The book of subscriptions: each graph's subscriptions ({@link GraphSubscriptions}), registered, replaced and
 * cancelled within the limits ({@code frontier.max-subscriptions}, {@code -per-graph}, {@code max-min-interval-ms},
 * {@code max-subscription-targets}), and what the consumer and the registry ask of them (a partition's RESYNC, a due
 * push, a partition dropped, the earliest offset to replay). Called under {@code SubscriptionService}'s lock, except
 * the registry's calls (see there).
 */
final class SubscriptionBook {
    final Map<String, GraphSubscriptions> graphs = new LinkedHashMap<>();
    private final FrontierConfig config;
    private final PushMaker pushes;
    /** How each graph's standings repair their answers. */
    private final RepairPolicy policy;
    private volatile int count;
    /** Ticks of the changes of the graphs' subscriptions ({@link GraphSubscriptions#changedAt}). */
    private final AtomicLong changes = new AtomicLong();

    SubscriptionBook(FrontierConfig config, PushMaker pushes, RepairPolicy policy) {
        this.config = config;
        this.pushes = pushes;
        this.policy = policy;
    }

    /**
     * Registers {@code s} (replacing a subscription of the same id), or cancels it. Its answer comes at the next
     * flush. A subscription that cannot be served is refused at once: an END push with the failure's status and an
     * error event (nothing in replay: it was refused when first read).
     */
    SubscriptionService.Pushes accept(Subscription s, SubscriptionService.Origin at, boolean replay) {
        GraphSubscriptions g = graphs.computeIfAbsent(s.getGraphId(),
                id -> new GraphSubscriptions(id, at.partition(), Standings.of(policy, config.isStandingTreesOnDevice()), changes::incrementAndGet));
        Subscriber existing = g.subs.get(s.getSubscriptionId());
        try {
            if (s.getCancel() && s.getEndedBy() != null) {   // a worker's record that it ended this one: already told
                if (existing != null && sameQuery(existing.spec, s)) g.remove(existing);
                count = total();
                return SubscriptionService.Pushes.NONE;
            }
            if (s.getCancel()) {
                if (existing == null) {
                    throw new RejectedException(ErrorCode.UNKNOWN_SUBSCRIPTION, "cancel of subscription '" + s.getSubscriptionId()
                            + "': graph '" + s.getGraphId() + "' has no such subscription");
                }
                g.remove(existing);
                if (!replay) g.endings.add(pushes.end(existing, g.version, null, "cancelled"));
                return SubscriptionService.Pushes.NONE;
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
            g.add(new Subscriber(s, at));
            count = total();
            return SubscriptionService.Pushes.NONE;
        } catch (RejectedException e) {
            count = total();
            if (replay) return SubscriptionService.Pushes.NONE;
            Subscriber refused = new Subscriber(s, at);
            return new SubscriptionService.Pushes(List.of(pushes.end(refused, g.version, e.code(), e.getMessage())), List.of(PushMaker.error(refused, e.code(), e.getMessage())),
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
        StandingForm<?> standing = StandingForm.ALL.get(s.getAlgorithm());
        String what = "subscription '" + s.getSubscriptionId() + "'";
        if (s.getSubscriptionId() == null || s.getSubscriptionId().isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "subscription on graph '" + s.getGraphId() + "' has an empty subscriptionId");
        }
        if (standing == null) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, what + " asks for " + s.getAlgorithm()
                    + "; subscriptions answer " + new TreeSet<>(StandingForm.ALL.keySet()));
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
    void resync(int partition) {
        for (GraphSubscriptions g : graphs.values()) {
            if (g.partition != partition) continue;
            g.stopFollowing();   // recompute every answer
            for (Subscriber sub : g.subs.values()) sub.complete = PushReason.RESYNC;
        }
    }

    /** Whether a throttled subscription of a {@code live} partition has a push due by {@code nowMs}. */
    boolean due(IntPredicate live, long nowMs) {
        for (GraphSubscriptions g : graphs.values()) {
            if (!live.test(g.partition)) continue;
            if (!g.endings.isEmpty()) return true;
            for (Subscriber sub : g.subs.values()) if (sub.waiting() && nowMs >= sub.dueMs()) return true;
        }
        return false;
    }

    void dropPartitions(Collection<Integer> partitions) {
        graphs.values().removeIf(g -> {
            if (!partitions.contains(g.partition)) return false;
            g.clearAnswers();
            g.stopFollowing();
            return true;
        });
        count = total();
    }

    /**
     * The earliest record of {@code partition} a live subscription still needs: those at or before the offset through
     * which a checkpoint of their graph holds it ({@code covered}, -1: none) are in the checkpoint.
     */
    long earliestOffset(int partition, ToLongFunction<String> covered) {
        long min = Long.MAX_VALUE;
        for (GraphSubscriptions g : graphs.values()) {
            if (g.partition != partition) continue;
            long through = covered.applyAsLong(g.graphId);
            for (Subscriber sub : g.subs.values()) if (sub.origin.offset() > through) min = Math.min(min, sub.origin.offset());
        }
        return min;
    }

    /** The tick of the last change of the graph's subscriptions; 0 when it has none. */
    long lastChange(String graphId) {
        GraphSubscriptions g = graphs.get(graphId);
        return g == null ? 0 : g.changedAt;
    }

    /** Subscriptions held, for the gauge and tests. */
    int size() {
        return count;
    }

    /** Counts the subscriptions again (after a flush ended some). */
    void recount() {
        count = total();
    }

    private int total() {
        int n = 0;
        for (GraphSubscriptions g : graphs.values()) n += g.subs.size();
        return n;
    }
}
