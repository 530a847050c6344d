package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 27, row 5: one subscription id on two graphs is two subscriptions. A real worker process (CPU engine, 256 MB
 * heap, -XX:+ExitOnOutOfMemoryError), two small graphs, one DELTA SSSP subscription id on both, updates on both: each
 * graph's view (the Java client's SubscriptionFeed) equals a fresh SSSP query of its own graph; a cancel on one graph
 * ends only that one, the other keeps pushing.
 */
class SharedSubscriptionIdIT extends FaultTest {
    static final long SEED = 0xFA_0005L;
    static final String ID = "shared-spf";
    static final List<String> GRAPHS = List.of("left", "right");
    static final int[] SIZES = {300, 500};

    @Test
    void oneIdOnTwoGraphsIsTwoSubscriptions() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("shared-id", 3);
        worker = WorkerProcess.start("shared", bootstrap, dir, "256m", Map.of("frontier.topics.partitions", "3"), Map.of(),
                List.of("-XX:+ExitOnOutOfMemoryError")).awaitReady(Duration.ofSeconds(90));
        Map<String, EdgeList> edges = new HashMap<>();
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            for (int g = 0; g < 2; g++) {
                EdgeList e = UniformRandomGraph.generate(SIZES[g], 4L * SIZES[g], SEED + g, 10, true);
                edges.put(GRAPHS.get(g), e);
                client.publishSnapshot(GRAPHS.get(g), 1, Snapshots.of(e), 0, true, n -> {});
            }
            Awaitility.await("both graphs loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> GRAPHS.stream().allMatch(g -> out.loaded(g, 1)));
            int pushes = 0, verified = 0;
            try (SubscriptionFeed feed = client.follow(List.of())) {
                for (String g : GRAPHS) {
                    feed.follow(g, ID);
                    client.publishSubscription(Subscription.newBuilder().setSubscriptionId(ID).setGraphId(g)
                            .setAlgorithm(Algorithm.SSSP).setSource(0).setResultMode(ResultMode.DELTA).build());
                }
                long[] version = {1, 1};
                for (int round = 0; round < 3; round++) {
                    for (int g = 0; g < 2; g++) {
                        EdgeList e = edges.get(GRAPHS.get(g));
                        int i = (round * 37 + g * 11) % e.size();
                        client.publishUpdate(GraphUpdate.newBuilder().setGraphId(GRAPHS.get(g)).setUpdateId("r" + round)
                                .setReweighted(PackedArrays.edgeBatch(new int[] {e.source(i)}, new int[] {e.target(i)},
                                        new double[] {0.1 * (round + 1)})).build());
                        version[g]++;
                    }
                    // a push comes only when the answer changed: wait for the versions, answer fresh, then read the feed
                    long[] v = version.clone();
                    Awaitility.await("updates applied").atMost(Duration.ofSeconds(60))
                            .until(() -> out.loaded(GRAPHS.get(0), v[0]) && out.loaded(GRAPHS.get(1), v[1]));
                    double[][] want = new double[2][];
                    for (int g = 0; g < 2; g++) want[g] = fresh(client, GRAPHS.get(g), "q-" + g + "-" + round, version[g]);
                    pushes += drain(feed);
                    for (int g = 0; g < 2; g++) {
                        assertArrayEquals(want[g], feed.view(GRAPHS.get(g), ID).distances(), GRAPHS.get(g) + "'s view after round " + round);
                        verified++;
                    }
                }
                // a cancel names its graph: only that subscription ends
                client.cancel("right", ID);
                SubscriptionFeed.Push end = feed.next(Duration.ofSeconds(60)).orElseThrow();
                assertTrue(end.end(), "END: " + end.reason());
                assertEquals("right", end.graphId());
                pushes++;
                EdgeList left = edges.get("left");
                int j = 0;
                while (left.source(j) != 0 || left.target(j) == 0) j++;   // an arc out of the source: its answer changes
                client.publishUpdate(GraphUpdate.newBuilder().setGraphId("left").setUpdateId("after-cancel")
                        .setReweighted(PackedArrays.edgeBatch(new int[] {0}, new int[] {left.target(j)},
                                new double[] {0.001})).build());
                client.publishUpdate(GraphUpdate.newBuilder().setGraphId("right").setUpdateId("after-cancel")
                        .setReweighted(PackedArrays.edgeBatch(new int[] {edges.get("right").source(5)},
                                new int[] {edges.get("right").target(5)}, new double[] {0.05})).build());
                version[0]++;
                SubscriptionFeed.Push after = feed.next(Duration.ofSeconds(60)).orElseThrow();
                pushes++;
                assertEquals("left", after.graphId(), "the left subscription keeps pushing");
                assertEquals(version[0], after.graphVersion());
                assertArrayEquals(fresh(client, "left", "q-left-last", version[0]), feed.view("left", ID).distances());
                verified++;
                assertTrue(feed.poll(Duration.ofSeconds(2)).isEmpty(), "nothing more: the right one ended");
                assertTrue(feed.view("right", ID).ended());
                assertFalse(feed.view("left", ID).ended());
            }
            System.out.printf("[heavy 5] one subscription id on 2 graphs (%d and %d vertices): %d pushes, each view applied "
                            + "only its own graph's; %d views verified against fresh SSSP queries, 0 wrong; a cancel on one "
                            + "ended only it, the other kept pushing; %.1f s%n", SIZES[0], SIZES[1], pushes, verified,
                    FaultSupport.seconds(System.nanoTime() - t0));
        }
    }

    /** Reads the pushes that came (a push is published with its batch, before the fresh query's answer). */
    private static int drain(SubscriptionFeed feed) {
        int n = 0;
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < Duration.ofSeconds(2).toNanos()) {   // until 2 s bring nothing
            for (SubscriptionFeed.Push p : feed.poll(Duration.ofMillis(200))) {
                assertEquals(SubscriptionFeed.Outcome.APPLIED, p.outcome(), p.graphId() + " #" + p.sequence());
                n++;
                quietSince = System.nanoTime();
            }
        }
        return n;
    }

    private static double[] fresh(FrontierClient client, String graph, String queryId, long version) {
        List<QueryResult> r = client.query(GraphQuery.newBuilder().setQueryId(queryId).setGraphId(graph)
                .setAlgorithm(Algorithm.SSSP).setSource(0).setResultMode(ResultMode.FULL).build(), Duration.ofSeconds(60)).orElseThrow();
        assertEquals(version, r.get(0).getGraphVersion());
        return PackedArrays.toDoubleArray(r.get(0).getDistances());
    }
}
