package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Standing queries on a graph held in the wide form, end to end through a real broker (issue 29 item 2): a worker
 * with the GPU engine and {@code frontier.wide-arcs-from: 1} (every graph built wide, as one of more than 2^31 - 8
 * arcs is) takes SSSP, BFS, CC and MST subscriptions in DELTA mode on a random weighted graph (seed 29); bursts of
 * updates (re-weights, additions, removals) follow, and after each burst every subscriber's view, assembled from its
 * pushes alone, equals the answer computed from scratch here on the same version (distances, hops, labels and the
 * forest exactly; parents by the verifiers). Every push after the INITIAL one is a DELTA (MST's too: on a wide graph
 * the worker recomputes every answer a batch can change on the GPU and compares), none ends the subscription, also
 * with {@code frontier.verify-incremental} 1 (nothing is repaired on a wide graph, so nothing is checked: the
 * verifiers read int-indexed arrays). Skipped without a GPU: the CPU engine refuses a wide graph ({@link WideGraphIT}).
 */
class WideSubscriptionsIT extends WorkerIT {
    static final String GRAPH = "wide-subs";
    static final long SEED = 29;

    @BeforeAll
    static void start() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(), () -> "no GPU engine: " + GpuBackend.unavailableReason().orElse(""));
        startWorker(Map.of(
                "frontier.worker-id", "wide-subs-it-worker",
                "frontier.wide-arcs-from", 1,
                "frontier.verify-incremental", 1.0,
                "micronaut.server.port", -1));
    }

    @Test
    void deltaPushesOnAWideGraphKeepEveryViewExact() {
        Random rnd = new Random(SEED);
        int n = 1_500;
        EdgeList edges = new EdgeList(n, false);
        for (int i = 0; i < 6_000; i++) {
            int u = rnd.nextInt(n), v = rnd.nextInt(n);
            if (u != v) edges.add(u, v, 1 + rnd.nextInt(40));
        }
        MutableGraph local = new MutableGraph(GraphBuilder.build(edges));
        Map<Algorithm, Subscription> subs = new EnumMap<>(Algorithm.class);
        for (Algorithm a : new Algorithm[] {Algorithm.SSSP, Algorithm.BFS, Algorithm.CC, Algorithm.MST}) {
            boolean fromSource = a == Algorithm.SSSP || a == Algorithm.BFS;
            subs.put(a, Subscription.newBuilder().setSubscriptionId("wide-" + a).setGraphId(GRAPH).setAlgorithm(a)
                    .setSource(fromSource ? 0 : null).setResultMode(ResultMode.DELTA).build());
        }
        List<String> ids = subs.values().stream().map(Subscription::getSubscriptionId).toList();
        Map<String, Integer> updates = new HashMap<>();
        try (TopicWatcher<GraphStatus> status = client.watchStatus(); SubscriptionFeed feed = client.follow(ids)) {
            client.publishSnapshot(GRAPH, 1, Snapshots.of(edges), 0, true, null);
            awaitLoaded(status, GRAPH, 1);
            assertTrue(worker.context().getBean(GraphRegistry.class).get(GRAPH).orElseThrow().resident().graph().wide(),
                    "the worker holds the graph in the wide form");
            subs.values().forEach(client::publishSubscription);
            long version = 1;
            awaitExact(feed, subs, local.current(), updates, "the INITIAL pushes");
            for (int burst = 0; burst < 10; burst++) {
                for (int k = 0; k < 3; k++) {
                    EdgeEdits e = randomEdits(rnd, local.current());
                    try {
                        local.apply(e, 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException refused) {
                        continue;   // two edits of one pair, say: not published
                    }
                    client.publishUpdate(update(e));
                    version++;
                }
                awaitLoaded(status, GRAPH, version);
                awaitExact(feed, subs, local.current(), updates, "burst " + burst + ", version " + version);
            }
        }
        for (Algorithm a : new Algorithm[] {Algorithm.SSSP, Algorithm.MST}) {
            assertTrue(updates.getOrDefault("wide-" + a, 0) > 0, a + " got DELTA pushes: " + updates);
        }
    }

    /** Re-weights, an addition and a removal of random edges of {@code g} (user ids are vertex ids here). */
    private static EdgeEdits randomEdits(Random rnd, CsrGraph g) {
        int n = g.vertexCount();
        List<int[]> reweight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int[] arc = randomArc(rnd, g);
            if (arc != null) reweight.add(arc);
        }
        int[] removed = randomArc(rnd, g);
        int a = rnd.nextInt(n), b = rnd.nextInt(n);
        int[] none = {};
        double[] w = new double[reweight.size()];
        for (int i = 0; i < w.length; i++) w[i] = 1 + rnd.nextInt(40);
        return new EdgeEdits(0, removed == null ? none : new int[] {removed[0]}, removed == null ? none : new int[] {removed[1]},
                reweight.stream().mapToInt(x -> x[0]).toArray(), reweight.stream().mapToInt(x -> x[1]).toArray(), w,
                a == b ? none : new int[] {a}, a == b ? none : new int[] {b}, a == b ? new double[0] : new double[] {1 + rnd.nextInt(40)});
    }

    private static int[] randomArc(Random rnd, CsrGraph g) {
        for (int tries = 0; tries < 20; tries++) {
            int u = rnd.nextInt(g.vertexCount());
            if (g.degree(u) > 0) return new int[] {u, g.columns()[g.rowStart(u) + rnd.nextInt(g.degree(u))]};
        }
        return null;
    }

    private static GraphUpdate update(EdgeEdits e) {
        return GraphUpdate.newBuilder().setGraphId(GRAPH)
                .setRemoved(PackedArrays.edgeBatch(e.removeU(), e.removeV(), new double[0]))
                .setReweighted(PackedArrays.edgeBatch(e.reweightU(), e.reweightV(), e.reweightW()))
                .setAdded(PackedArrays.edgeBatch(e.addU(), e.addV(), e.addW())).build();
    }

    /**
     * Reads pushes until every view equals the answer from scratch on {@code g} (or fails after {@link Pipeline#WAIT}
     * with the first difference): each push OK, none an END, every one after the first a DELTA ({@code updates}
     * counts them per subscription).
     */
    private static void awaitExact(SubscriptionFeed feed, Map<Algorithm, Subscription> subs, CsrGraph g, Map<String, Integer> updates,
                                   String what) {
        long deadline = System.nanoTime() + Pipeline.WAIT.toNanos();
        while (true) {
            for (SubscriptionFeed.Push p : feed.poll(Duration.ofMillis(200))) {
                String id = p.subscriptionId();
                assertEquals(ResultStatus.OK, p.status(), () -> what + ", " + id + ": " + p.error());
                assertTrue(p.reason() == PushReason.INITIAL || p.reason() == PushReason.UPDATE, what + ", " + id + ": " + p.reason());
                assertEquals(SubscriptionFeed.Outcome.APPLIED, p.outcome(), what + ", " + id);
                if (p.reason() == PushReason.UPDATE) {
                    assertTrue(p.delta(), what + ", " + id + ": an UPDATE push is a DELTA");
                    updates.merge(id, 1, Integer::sum);
                }
            }
            String difference = difference(feed, subs, g);
            if (difference == null) return;
            if (System.nanoTime() > deadline) throw new AssertionError(what + ": " + difference);
        }
    }

    /** The first way a view differs from the answer from scratch on {@code g}, or null. */
    private static String difference(SubscriptionFeed feed, Map<Algorithm, Subscription> subs, CsrGraph g) {
        int n = g.vertexCount();
        for (Map.Entry<Algorithm, Subscription> e : subs.entrySet()) {
            SubscriptionView view = feed.view(e.getValue().getSubscriptionId());
            if (view == null || view.vertexCount() != n) return e.getKey() + ": no view of " + n + " vertices yet";
            String d = switch (e.getKey()) {
                case SSSP -> {
                    Verification v = SsspVerifier.verify(g, 0, new SsspResult(0, Arrays.copyOf(view.distances(), n),
                            Arrays.copyOf(view.parents(), n), Timing.NONE), DijkstraReference.run(g, 0));
                    yield v.ok() ? null : v.message();
                }
                case BFS -> {
                    Verification v = BfsVerifier.verify(g, 0, new BfsResult(0, Arrays.copyOf(view.hops(), n),
                            Arrays.copyOf(view.parents(), n), Timing.NONE), BfsReference.run(g, 0));
                    yield v.ok() ? null : v.message();
                }
                case CC -> Arrays.equals(CcReference.run(g).labels(), Arrays.copyOf(view.labels(), n)) ? null : "labels differ";
                default -> forest(g).equals(view.forest()) ? null : "the forest differs";
            };
            if (d != null) return e.getKey() + ": " + d;
        }
        return null;
    }

    /** The minimum spanning forest of {@code g} by {@link SubscriptionView#key} of its ends, with weights. */
    private static Map<Long, Double> forest(CsrGraph g) {
        UndirectedEdges e = g.undirectedEdges();
        Map<Long, Double> m = new HashMap<>();
        for (int id : KruskalReference.run(g).edgeIds()) m.put(SubscriptionView.key(e.u[id], e.v[id]), e.w[id]);
        return m;
    }
}
