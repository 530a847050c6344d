package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A standing CC subscription end to end through a real broker ("which routers are cut off, tell me the moment the
 * network splits"): a network of routers (ids from 1) is subscribed to in DELTA and SUMMARY mode through the Java
 * client's {@link SubscriptionFeed}; a bridge removed gives a push with a SPLIT naming both sides, an edge joining two
 * components a MERGED, an edge inside a ring removed with two routers joined one MERGED and no split; after each, the
 * subscriber's view (assembled from the pushes alone, with {@code frontier.verify-incremental} 1: every repair also
 * checked against a recompute) equals a fresh CC query.
 */
class CcSubscriptionIT extends WorkerIT {

    @BeforeAll
    static void start() {
        startWorker(Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "cc-sub-it-worker",
                "frontier.verify-incremental", 1.0,
                "micronaut.server.port", -1));
    }

    /** Routers 1..12: a ring 1-2-3-4, the bridge 4-5, a ring 5-6-7; 8-9-10; 11 and 12 alone. */
    private static EdgeList routers() {
        EdgeList e = new EdgeList(12, false);
        int[][] links = {{1, 2}, {2, 3}, {3, 4}, {4, 1}, {4, 5}, {5, 6}, {6, 7}, {7, 5}, {8, 9}, {9, 10}};
        for (int[] l : links) e.add(l[0] - 1, l[1] - 1, 1);
        return e;
    }

    @Test
    void aBridgeCutIsASplitAndAJoinAMergeAndTheViewEqualsAFreshQuery() {
        Subscription delta = Subscription.newBuilder().setSubscriptionId("routers-cc").setGraphId("routers")
                .setAlgorithm(Algorithm.CC).setResultMode(ResultMode.DELTA).build();
        Subscription summary = Subscription.newBuilder(delta).setSubscriptionId("routers-count")
                .setResultMode(ResultMode.SUMMARY).build();
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults();
             SubscriptionFeed feed = client.follow(List.of(delta.getSubscriptionId(), summary.getSubscriptionId()))) {
            client.publishSnapshot("routers", 1, Snapshots.of(routers()), 1, false, null);
            awaitLoaded(status, "routers", 1);
            client.publishSubscription(delta);
            client.publishSubscription(summary);
            assertEquals(PushReason.INITIAL, next(feed, "routers-cc").reason());
            assertEquals(PushReason.INITIAL, next(feed, "routers-count").reason());
            assertEquals(4L, feed.view("routers-count").components());
            assertCurrent(feed.view("routers-cc"), results, 1);

            // the bridge 4-5 goes down: routers 5, 6 and 7 are cut off
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("routers")
                    .setRemoved(PackedArrays.edgeBatch(new int[] {4}, new int[] {5}, new double[0])).build());
            SubscriptionFeed.Push cut = next(feed, "routers-cc");
            assertTrue(cut.delta());
            assertEquals(List.of("SPLIT 1 [1, 5]"), text(feed.view("routers-cc").componentChanges()));
            assertArrayEquals(new int[] {5, 6, 7}, PackedArrays.toIntArray(cut.head().getVertices()));
            assertArrayEquals(new int[] {5, 5, 5}, PackedArrays.toIntArray(cut.head().getLabels()));
            assertEquals(5L, next(feed, "routers-count").head().getComponents());
            assertCurrent(feed.view("routers-cc"), results, 2);

            // router 7 is linked to router 8: two components become one
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("routers")
                    .setAdded(PackedArrays.edgeBatch(new int[] {7}, new int[] {8}, new double[] {1})).build());
            SubscriptionFeed.Push joined = next(feed, "routers-cc");
            assertEquals(List.of("MERGED 5 [5, 8]"), text(feed.view("routers-cc").componentChanges()));
            assertEquals(6L, joined.head().getLargestComponent());
            assertEquals(4L, next(feed, "routers-count").head().getComponents());
            assertCurrent(feed.view("routers-cc"), results, 3);

            // a ring link 1-2 goes down (no split: 1-4-3-2 remains) and 11 is linked to 12, in one update
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("routers")
                    .setRemoved(PackedArrays.edgeBatch(new int[] {1}, new int[] {2}, new double[0]))
                    .setAdded(PackedArrays.edgeBatch(new int[] {12}, new int[] {11}, new double[] {1})).build());
            SubscriptionFeed.Push third = next(feed, "routers-cc");
            assertEquals(List.of("MERGED 11 [11, 12]"), text(feed.view("routers-cc").componentChanges()));
            assertArrayEquals(new int[] {12}, PackedArrays.toIntArray(third.head().getVertices()));
            assertEquals(3L, next(feed, "routers-count").head().getComponents());
            assertCurrent(feed.view("routers-cc"), results, 4);
            assertFalse(feed.view("routers-cc").stale());
            assertEquals(3, feed.view("routers-cc").sequence());
        }
    }

    private static SubscriptionFeed.Push next(SubscriptionFeed feed, String id) {
        long deadline = System.nanoTime() + Pipeline.WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (SubscriptionFeed.Push p : feed.poll(Duration.ofMillis(100))) {
                if (p.subscriptionId().equals(id)) {
                    assertEquals(ResultStatus.OK, p.status(), () -> id + ": " + p.error());
                    assertEquals(SubscriptionFeed.Outcome.APPLIED, p.outcome(), id);
                    return p;
                }
                pending.add(p);
            }
            for (int i = 0; i < pending.size(); i++) {
                if (pending.get(i).subscriptionId().equals(id)) return pending.remove(i);
            }
        }
        throw new AssertionError("no push of " + id + " within " + Pipeline.WAIT);
    }

    /** Pushes read while waiting for another subscription's. */
    private static final List<SubscriptionFeed.Push> pending = new ArrayList<>();

    /** The view's labels, count and largest size equal a fresh CC query's on {@code version}. */
    private static void assertCurrent(SubscriptionView view, TopicWatcher<QueryResult> results, long version) {
        GraphQuery q = query("routers", Algorithm.CC, null);
        client.publishQuery(q);
        List<QueryResult> chunks = await(results, q.getQueryId());
        QueryResult h = chunks.get(0);
        assertEquals(ResultStatus.OK, h.getStatus(), h.getError());
        assertEquals(version, h.getGraphVersion());
        assertEquals(version, view.version());
        int[] labels = new int[h.getVertexCount()];
        for (QueryResult c : chunks) {
            int[] l = PackedArrays.toIntArray(c.getLabels());
            for (int i = 0; i < l.length; i++) labels[c.getOffset() + i] = l[i] - 1;
        }
        assertArrayEquals(labels, Arrays.copyOf(view.labels(), view.vertexCount()), "labels on version " + version);
        assertEquals(h.getComponents(), view.components());
        assertEquals(h.getLargestComponent(), view.largestComponent());
    }

    private static List<String> text(List<ComponentChange> changes) {
        List<String> out = new ArrayList<>();
        for (ComponentChange c : changes) {
            out.add(c.getKind() + " " + c.getLabel() + " " + Arrays.stream(PackedArrays.toIntArray(c.getParts())).boxed().toList());
        }
        return out;
    }
}
