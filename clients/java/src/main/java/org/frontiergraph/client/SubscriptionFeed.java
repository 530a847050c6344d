package org.frontiergraph.client;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.SubscriptionView;

/**
 * Follows the pushes of one or more subscriptions on the results topic (docs/contract.md, "Subscription"): reads
 * the topic from where it ended when the feed was opened, keeps the chunks of each push until all arrived, applies
 * each complete push, in order, to its subscription's {@link SubscriptionView}, and hands it out as a {@link Push}.
 * Open the feed (or {@link #follow} an id) <em>before</em> the subscription is published, so that its INITIAL push
 * cannot be missed: {@link FrontierClient#subscribe} does both in that order.
 *
 * <p>A push whose chunks stop coming (its worker died part way through) is dropped when the next push of that
 * subscription starts; the next owner of the graph pushes the answer complete (RESYNC). Pushes of ids not followed
 * are skipped. Not thread-safe (one Kafka consumer): use it from one thread.
 *
 * <p>A subscription is identified by its graph and its id (docs/contract.md, "Subscription"): the same id may stand on
 * two graphs, and every push names its graph. {@link #follow(String, String)} follows one pair: pushes of that id for
 * another graph are never applied to its view. {@link #follow(String)} (no graph named) binds the view to the graph
 * of the first push it applies, and skips the id's pushes of any other graph from then on.
 */
public final class SubscriptionFeed implements AutoCloseable {
    /** What the subscription's view made of a push. */
    public enum Outcome {
        /** Applied: the view holds the answer at the push's graph version. */
        APPLIED,
        /** A redelivery of a push already applied (at-least-once): ignored. */
        REPEATED,
        /**
         * A push was missed before this one: the view is {@link SubscriptionView#stale() stale} until the next
         * complete push (RESYNC, or re-subscribe to get an INITIAL).
         */
        GAP
    }

    /** One complete push of one subscription: every chunk, in chunk order, and what the view made of it. */
    public record Push(String subscriptionId, List<QueryResult> chunks, Outcome outcome) {
        public Push {
            chunks = List.copyOf(chunks);
        }

        /** The graph of the subscription (with its id, what identifies it). */
        public String graphId() { return head().getGraphId(); }

        /** Chunk 0: reason, sequence, version, status, error and the summary fields. */
        public QueryResult head() { return chunks.get(0); }

        public PushReason reason() { return head().getReason(); }

        public long sequence() { return head().getSequence() == null ? 0 : head().getSequence(); }

        public long graphVersion() { return head().getGraphVersion(); }

        /** True when the push holds only what changed since the previous one (DELTA mode). */
        public boolean delta() { return head().getDelta(); }

        public ResultStatus status() { return head().getStatus(); }

        /** The failure that ended the subscription (END with a status other than OK); null otherwise. */
        public String error() { return head().getError(); }

        /** The last push of the subscription: cancelled (status OK) or failed. */
        public boolean end() { return reason() == PushReason.END; }
    }

    private final TopicWatcher<QueryResult> results;
    /** By subscription id: one assembly per graph followed under that id (graph null: bound by its first push). */
    private final Map<String, List<Assembly>> followed = new LinkedHashMap<>();
    private final Deque<Push> ready = new ArrayDeque<>();

    /**
     * A feed reading {@code results} (positioned where reading should start, normally its end); null: a feed that
     * reads nothing, for chunks handed to it directly (tests).
     */
    public SubscriptionFeed(TopicWatcher<QueryResult> results, Collection<String> subscriptionIds) {
        this.results = results;
        subscriptionIds.forEach(this::follow);
    }

    /**
     * Follows one more subscription id, with a new view; its pushes count from here on (call it before the
     * subscription is published). Following an id again keeps its view.
     */
    public SubscriptionFeed follow(String subscriptionId) {
        List<Assembly> views = followed.computeIfAbsent(subscriptionId, id -> new ArrayList<>(1));
        if (views.isEmpty()) views.add(new Assembly(null));
        return this;
    }

    /**
     * Follows the subscription {@code subscriptionId} of graph {@code graphId}, with a new view that only that graph's
     * pushes change (call it before the subscription is published). Following the pair again keeps its view.
     */
    public SubscriptionFeed follow(String graphId, String subscriptionId) {
        java.util.Objects.requireNonNull(graphId, "graphId");
        List<Assembly> views = followed.computeIfAbsent(subscriptionId, id -> new ArrayList<>(1));
        for (Assembly a : views) if (graphId.equals(a.graphId)) return this;
        views.add(new Assembly(graphId));
        return this;
    }

    /** Stops following a subscription id, on every graph (its views are forgotten). */
    public void unfollow(String subscriptionId) {
        followed.remove(subscriptionId);
        ready.removeIf(p -> p.subscriptionId().equals(subscriptionId));
    }

    /** Stops following the subscription {@code subscriptionId} of graph {@code graphId} (its view is forgotten). */
    public void unfollow(String graphId, String subscriptionId) {
        List<Assembly> views = followed.get(subscriptionId);
        if (views == null) return;
        views.removeIf(a -> graphId.equals(a.graphId));
        if (views.isEmpty()) followed.remove(subscriptionId);
        ready.removeIf(p -> p.subscriptionId().equals(subscriptionId) && graphId.equals(p.graphId()));
    }

    /** The ids followed, in the order first followed. */
    public List<String> subscriptionIds() {
        return List.copyOf(followed.keySet());
    }

    /**
     * The answer of a followed subscription as its pushes so far made it (empty arrays before the first push).
     *
     * @throws IllegalArgumentException for an id not followed, or followed on several graphs (name the graph)
     */
    public SubscriptionView view(String subscriptionId) {
        List<Assembly> views = followed.get(subscriptionId);
        if (views == null || views.isEmpty()) {
            throw new IllegalArgumentException("subscription '" + subscriptionId + "' is not followed by this feed");
        }
        if (views.size() > 1) {
            throw new IllegalArgumentException("subscription '" + subscriptionId + "' is followed on " + views.size()
                    + " graphs: name the graph, view(graphId, subscriptionId)");
        }
        return views.get(0).view;
    }

    /**
     * The answer of the subscription {@code subscriptionId} of graph {@code graphId} as its pushes so far made it.
     *
     * @throws IllegalArgumentException when that pair is not followed
     */
    public SubscriptionView view(String graphId, String subscriptionId) {
        for (Assembly a : followed.getOrDefault(subscriptionId, List.of())) {
            if (graphId.equals(a.graphId)) return a.view;
        }
        throw new IllegalArgumentException("subscription '" + subscriptionId + "' of graph '" + graphId
                + "' is not followed by this feed");
    }

    /** The next complete push of any followed subscription, waiting up to {@code timeout}; empty when none came. */
    public Optional<Push> next(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ready.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) break;
            read(Duration.ofNanos(Math.min(left, Duration.ofMillis(200).toNanos())));
        }
        return Optional.ofNullable(ready.poll());
    }

    /** Every complete push that arrived within {@code timeout} (at least one poll of the topic); perhaps none. */
    public List<Push> poll(Duration timeout) {
        read(timeout);
        List<Push> out = new ArrayList<>(ready);
        ready.clear();
        return out;
    }

    private void read(Duration timeout) {
        if (results == null) return;
        for (QueryResult r : results.poll(timeout)) {
            Push p = accept(r);
            if (p != null) ready.add(p);
        }
    }

    /**
     * Takes one chunk read from the results topic; returns the push it completes (applied to its view), or null
     * (a chunk of a push still incomplete, an answer to a query, a push of an id not followed). A chunk in compact
     * arrays is expanded to the plain ones ({@link CompactArrays#expand}): a push's chunks hold plain packed arrays.
     */
    Push accept(QueryResult r) {
        List<Assembly> views = followed.get(r.getQueryId());
        if (views == null || r.getReason() == null) return null;   // not followed, or a query's answer
        CompactArrays.expand(r);
        String graph = r.getGraphId();
        Assembly unbound = null;
        for (Assembly a : views) {
            if (a.graphId == null) unbound = a;
            else if (a.graphId.equals(graph)) return a.accept(r);
        }
        if (unbound == null || graph == null) return null;   // the same id on a graph not followed: never applied
        unbound.graphId = graph;   // follow(id): the view belongs to the graph of its first push
        return unbound.accept(r);
    }

    @Override
    public void close() {
        if (results != null) results.close();
    }

    /** Closes the feed's reader within {@code timeout} (a broker that is gone). */
    public void close(java.time.Duration timeout) {
        if (results != null) results.close(timeout);
    }

    /** The chunks of the push in progress of one subscription, and its view. */
    private static final class Assembly {
        final SubscriptionView view = new SubscriptionView();
        /** The graph whose pushes this view applies; null until the first push (follow without a graph). */
        String graphId;

        Assembly(String graphId) {
            this.graphId = graphId;
        }

        QueryResult[] chunks;
        int have;

        Push accept(QueryResult r) {
            int count = Math.max(1, r.getChunkCount()), index = r.getChunkIndex();
            if (index < 0 || index >= count) return null;   // malformed: not a chunk of any push
            if (chunks == null || !samePush(chunks, r)) {   // a new push; one left incomplete is dropped
                chunks = new QueryResult[count];
                have = 0;
            }
            if (chunks[index] == null) {   // a chunk read twice is the same chunk
                chunks[index] = r;
                have++;
            }
            if (have < count) return null;
            List<QueryResult> push = Arrays.asList(chunks);
            chunks = null;
            Outcome outcome;
            if (view.apply(push.get(0))) {
                for (int i = 1; i < push.size(); i++) view.apply(push.get(i));
                outcome = Outcome.APPLIED;
            } else {
                outcome = view.stale() ? Outcome.GAP : Outcome.REPEATED;
            }
            return new Push(r.getQueryId(), push, outcome);
        }

        private static boolean samePush(QueryResult[] held, QueryResult r) {
            QueryResult any = null;
            for (QueryResult c : held) if (c != null) any = c;
            return any != null && held.length == Math.max(1, r.getChunkCount()) && any.getReason() == r.getReason()
                    && java.util.Objects.equals(any.getSequence(), r.getSequence())
                    && any.getGraphVersion() == r.getGraphVersion();
        }
    }
}
