package org.frontiergraph.worker.subscription;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.standing.Standings;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The subscriptions of one graph, their standing answers, and the graph copy whose changes they follow. */
final class GraphSubscriptions {
    private static final Logger LOG = LoggerFactory.getLogger(GraphSubscriptions.class);

    final String graphId;
    final int partition;
    final Map<String, Subscriber> subs = new LinkedHashMap<>();
    final Map<AnswerKey, StandingAnswer<?>> answers = new HashMap<>();
    /** The subscriptions of {@link #subs} by the answer they use. */
    private final Map<AnswerKey, List<Subscriber>> users = new HashMap<>();
    /** END pushes of cancelled subscriptions, published at the next flush. */
    final List<QueryResult> endings = new ArrayList<>();
    /** The end records of subscriptions ended for an error, for the graphs topic. */
    final List<Subscription> ended = new ArrayList<>();
    /** The graph whose changed edges the answers follow; null: none yet (every answer is computed afresh). */
    MutableGraph tracked;
    /** The answers' place in {@link #tracked}'s change log. */
    ChangeLog.Cursor changes;

    /** Follows {@code graph}'s changes from now on (the previous graph's cursor closed). */
    void follow(MutableGraph graph) {
        stopFollowing();
        tracked = graph;
        changes = graph.log().cursor(ChangeLog.Detail.EDGES);
    }

    /** Closes the cursor, so that the graph's log keeps nothing for these answers. */
    void stopFollowing() {
        if (changes != null) changes.close();
        changes = null;
        tracked = null;
    }
    long version = -1;

    /** Keeps the answers exact as the graph changes (the kernels'; their trees on the device where the graph is). */
    final Standings standings;
    /** Gives the tick of a change of {@link #subs}; the tick of the last one (0: none yet), which checkpoints compare. */
    private final LongSupplier ticks;
    long changedAt;

    GraphSubscriptions(String graphId, int partition, Standings standings, LongSupplier ticks) {
        this.graphId = graphId;
        this.partition = partition;
        this.standings = standings;
        this.ticks = ticks;
    }

    void add(Subscriber sub) {
        subs.put(sub.spec.getSubscriptionId(), sub);
        users.computeIfAbsent(sub.key, k -> new ArrayList<>()).add(sub);
        changedAt = ticks.getAsLong();
    }

    /** Removes {@code sub}, and its standing answer when no other subscription uses it. */
    void remove(Subscriber sub) {
        if (!subs.remove(sub.spec.getSubscriptionId(), sub)) return;
        changedAt = ticks.getAsLong();
        List<Subscriber> u = users.get(sub.key);
        u.remove(sub);
        if (u.isEmpty()) {
            users.remove(sub.key);
            removeAnswer(sub.key);
        }
    }

    /** Removes the answer {@code key} (its device tree freed). */
    void removeAnswer(AnswerKey key) {
        StandingAnswer<?> a = answers.remove(key);
        if (a != null) close(a);
    }

    /** Removes every answer (their device trees freed, their heap given back). */
    void clearAnswers() {
        for (StandingAnswer<?> a : answers.values()) close(a);
        answers.clear();
    }

    /** The subscriptions that use answer {@code key}, in the order they came (the index itself: do not modify). */
    List<Subscriber> users(AnswerKey key) {
        return users.getOrDefault(key, List.of());
    }

    /** {@link #users} as a copy, for loops that remove subscriptions. */
    List<Subscriber> using(AnswerKey key) {
        return List.copyOf(users(key));
    }

    /** Stops keeping {@code a} (its tree on the device freed) and gives its heap back. */
    private void close(StandingAnswer<?> a) {
        try {
            if (a.kept != null) standings.close(a.kept);
        } catch (RuntimeException e) {
            LOG.warn("freeing the device tree of standing {} failed ({})", a.key, e.toString());
        }
        a.release();
    }
}
