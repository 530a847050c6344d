package org.frontiergraph.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.query.Answers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier demo}: a real broker, a worker and a workload in one process. Publishes the Rome road graph
 * (shipped) and a seeded random graph, asks BFS, SSSP and MST through Kafka, re-weights some roads and asks again,
 * follows a standing SSSP query (DELTA pushes) through one more re-weight, sends one bad query, then drives a small
 * road network with named junctions through the CLI's own commands ({@link NamedDemo}: load, subscribe, update and
 * query by name, drop), and checks every answer with the verifiers. Exit 0 only if every check passed.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start an embedded Kafka broker and a worker, publish the Rome road network and a seeded random "
                + "graph, ask BFS, SSSP and MST through Kafka, re-weight some roads and ask again, subscribe to SSSP and "
                + "watch a re-weight change a route (DELTA push), send a bad query; load a road network with named junctions "
                + "and subscribe, update, query and drop it through the CLI's commands, by name; "
                + "verify every answer. Exit 0 only if every check passed."})
final class Demo implements Callable<Integer> {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @ParentCommand
    FrontierCli cli;

    @Option(names = "--backend", paramLabel = "auto|gpu|cpu", converter = Converters.BackendName.class,
            description = "The worker's engine (default: auto, the GPU when there is one).")
    String backend;

    @Override
    public Integer call() throws Exception {
        return run(backend, cli.out);
    }

    static int run(String backend, PrintStream out) throws Exception {
        long t0 = System.nanoTime();
        out.println("Frontier demo: starting an embedded Kafka broker (KRaft) and a worker ...");
        Map<String, Object> props = backend == null ? Map.of() : Map.of("frontier.backend", backend);
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary();
             FrontierWorker worker = FrontierWorker.start(broker.bootstrapServers(), props);
             FrontierClient client = new FrontierClient(broker.bootstrapServers());
             TopicWatcher<QueryResult> results = client.watchResults();
             TopicWatcher<LatencyEvent> latency = client.watchLatency();
             TopicWatcher<GraphStatus> status = client.watchStatus()) {
            out.printf(Locale.ROOT, "broker on %s, worker up after %.1f s%n%n", broker.bootstrapServers(), (System.nanoTime() - t0) / 1e9);
            List<Boolean> checks = new ArrayList<>();

            LoadedGraph rome = rome();
            CsrGraph romeCsr = rome.toCsr();
            publish(client, status, "rome99", 1, rome.edges(), 1, out);
            EdgeList random = UniformRandomGraph.generate(20_000, 200_000, 42, 100, false);
            CsrGraph randomCsr = GraphBuilder.build(random);
            publish(client, status, "random-20k", 1, random, 0, out);

            out.println();
            out.println(String.format(Locale.ROOT, "%-11s %-5s %-3s %-7s %-4s %-40s %9s %9s  %s",
                    "graph", "algo", "ver", "status", "on", "answer", "compute", "end2end", "verified"));
            ask(client, results, latency, romeCsr, "rome99", Algorithm.BFS, 1, 1, checks, out);
            ask(client, results, latency, romeCsr, "rome99", Algorithm.SSSP, 1, 1, checks, out);
            ask(client, results, latency, romeCsr, "rome99", Algorithm.MST, null, 1, checks, out);
            ask(client, results, latency, randomCsr, "random-20k", Algorithm.BFS, 0, 1, checks, out);
            ask(client, results, latency, randomCsr, "random-20k", Algorithm.SSSP, 0, 1, checks, out);
            ask(client, results, latency, randomCsr, "random-20k", Algorithm.MST, null, 1, checks, out);

            // Traffic: the first three roads of the graph get ten times slower; the next answer must be on version 2.
            int[] u = new int[3], v = new int[3];
            double[] w = new double[3];
            int[] off = romeCsr.rowOffsets(), col = romeCsr.columns();
            for (int arc = 0, src = 0; arc < 3; arc++) {
                while (off[src + 1] <= arc) src++;
                u[arc] = src;
                v[arc] = col[arc];
                w[arc] = romeCsr.weights()[arc] * 10;
            }
            CsrGraph rome2 = GraphEdit.reweight(romeCsr, u, v, w);
            int[] us = new int[3], vs = new int[3];   // DIMACS ids, 1-based
            for (int i = 0; i < 3; i++) { us[i] = u[i] + 1; vs[i] = v[i] + 1; }
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("rome99").setUpdateId("traffic-1").setBaseVersion(1L)
                    .setReweighted(PackedArrays.edgeBatch(us, vs, w)).build());
            out.println("(update to version 2: roads " + Arrays.toString(us) + " -> " + Arrays.toString(vs) + " ten times slower)");
            ask(client, results, latency, rome2, "rome99", Algorithm.SSSP, 1, 2, checks, out);

            // A burst: a link-metric feed re-weights 1,000 roads one update at a time, a new router joins with two
            // links, and one update names a road that does not exist (refused alone). The worker applies the run of
            // updates in place and brings the device up to date once, before the query that follows them.
            MutableGraph expected = new MutableGraph(new MutableGraph(rome2).snapshot());
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
            int[] romeCol = rome2.columns();
            long burstStart = System.nanoTime();
            for (int i = 0; i < 1_000; i++) {
                int arc = rnd.nextInt(rome2.arcCount()), src = rome2.sourceOf(arc);
                double metric = 1 + rnd.nextInt(5_000);
                expected.apply(EdgeEdits.reweight(src, romeCol[arc], metric), 1, Long.MAX_VALUE);
                client.publishUpdate(GraphUpdate.newBuilder().setGraphId("rome99").setUpdateId("metric-" + i)
                        .setReweighted(PackedArrays.edgeBatch(new int[] {src + 1}, new int[] {romeCol[arc] + 1}, new double[] {metric})).build());
            }
            int absent = 1;
            while (rome2.findArc(0, absent) >= 0) absent++;
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("rome99").setUpdateId("no-such-road")
                    .setRemoved(PackedArrays.edgeBatch(new int[] {1}, new int[] {absent + 1}, new double[0])).build());
            int router = rome2.vertexCount();   // 0-based id of the new vertex
            expected.apply(new EdgeEdits(1, new int[0], new int[0], new int[0], new int[0], new double[0],
                    new int[] {router, router}, new int[] {0, 1}, new double[] {3, 4}), 1, Long.MAX_VALUE);
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("rome99").setUpdateId("new-router").setAddedVertexCount(1)
                    .setAdded(PackedArrays.edgeBatch(new int[] {router + 1, router + 1}, new int[] {1, 2}, new double[] {3, 4})).build());
            out.println("(burst: 1,000 single-road re-weights, a new router " + (router + 1) + " with 2 links, and an update"
                    + " removing a road that does not exist: refused alone, version kept)");
            ask(client, results, latency, expected.current(), "rome99", Algorithm.SSSP, router + 1, 2 + 1_000 + 1, checks, out);
            out.printf(Locale.ROOT, "(1,002 updates published, applied and answered in %.0f ms)%n", (System.nanoTime() - burstStart) / 1e6);

            // A standing query: SSSP from road 1 kept up to date in DELTA mode; one link's metric rises on a shortest
            // path and the worker pushes only the routes that changed.
            checks.add(standingRoute(client, results, expected, 2 + 1_000 + 1, out));

            // A query for a vertex that does not exist gets a named error, and the worker carries on.
            String bad = "demo-bad-source";
            client.publishQuery(GraphQuery.newBuilder().setQueryId(bad).setGraphId("rome99").setAlgorithm(Algorithm.SSSP)
                    .setSource(999_999).build());
            Optional<List<QueryResult>> badAnswer = FrontierClient.awaitResult(results, bad, TIMEOUT);
            boolean badOk = badAnswer.isPresent() && badAnswer.get().get(0).getStatus() == ResultStatus.INVALID_VERTEX;
            checks.add(badOk);
            out.println("bad query (source 999999): " + badAnswer.map(a -> a.get(0).getStatus() + " - " + a.get(0).getError()).orElse("no answer")
                    + (badOk ? "  [expected]" : "  [UNEXPECTED]"));

            // Named vertices through the CLI: load --names, subscribe and update by junction name, query, drop.
            checks.add(NamedDemo.run(broker.bootstrapServers(), out));

            long passed = checks.stream().filter(b -> b).count();
            out.printf(Locale.ROOT, "%n%d of %d checks passed in %.1f s%n", passed, checks.size(), (System.nanoTime() - t0) / 1e9);
            return passed == checks.size() ? 0 : 1;
        }
    }

    /**
     * Subscribes to SSSP from vertex 1 of rome99 (DELTA), raises the metric of one road in the middle of the shortest
     * path to a vertex eight roads away, prints how the pushed change moved that route, checks the subscriber's view
     * against a fresh query (distances exactly, parents with the verifier) and cancels. {@code expected} is the graph
     * at {@code version} (the current one), and is updated.
     */
    private static boolean standingRoute(FrontierClient client, TopicWatcher<QueryResult> results, MutableGraph expected,
                                         long version, PrintStream out) {
        String id = "demo-route-1";
        int source = 1;   // DIMACS id; dense position source - 1
        try (SubscriptionFeed feed = client.subscribe(Subscription.newBuilder().setSubscriptionId(id).setGraphId("rome99")
                .setAlgorithm(Algorithm.SSSP).setSource(source).setResultMode(ResultMode.DELTA).build())) {
            SubscriptionFeed.Push initial = feed.next(TIMEOUT).orElseThrow(() -> new CliFailure("no INITIAL push for " + id));
            SubscriptionView view = feed.view(id);
            if (initial.outcome() != SubscriptionFeed.Outcome.APPLIED || initial.reason() != PushReason.INITIAL) {
                out.println("subscription " + id + ": first push " + initial.reason() + " " + initial.status() + " "
                        + initial.error() + "  [UNEXPECTED]");
                return false;
            }
            out.printf(Locale.ROOT, "%nsubscription %s: SSSP from %d, DELTA mode: INITIAL #%d on v%d, %,d vertices%n", id, source,
                    initial.sequence(), initial.graphVersion(), view.vertexCount());
            int[] before = path(view.parents(), source - 1, farthestWithin(view.parents(), source - 1, 8));
            double oldDistance = view.distances()[before[before.length - 1]];
            int target = before[before.length - 1];
            int u = before[before.length / 2 - 1], v = before[before.length / 2];   // a road in the middle of the route
            CsrGraph g = expected.current();
            double oldMetric = g.weights()[g.findArc(u, v)], newMetric = oldMetric * 10 + 1_000;
            expected.apply(EdgeEdits.reweight(u, v, newMetric), 1, Long.MAX_VALUE);
            long t0 = System.nanoTime();
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("rome99").setUpdateId("route-metric").setBaseVersion(version)
                    .setReweighted(PackedArrays.edgeBatch(new int[] {u + 1}, new int[] {v + 1}, new double[] {newMetric})).build());
            SubscriptionFeed.Push update = feed.next(TIMEOUT).orElseThrow(() -> new CliFailure("no push after the metric change"));
            double pushedMs = (System.nanoTime() - t0) / 1e6;
            int changed = update.chunks().stream().mapToInt(c -> c.getDistances() == null ? 0 : PackedArrays.doubleCount(c.getDistances())).sum();
            out.printf(Locale.ROOT, "(update to version %d: road %d -> %d, metric %s -> %s; pushed %s #%d on v%d%s, %,d vertices changed, %.0f ms after publishing)%n",
                    version + 1, u + 1, v + 1, metric(oldMetric), metric(newMetric), update.reason(), update.sequence(), update.graphVersion(),
                    update.delta() ? " as a DELTA" : " complete", changed, pushedMs);
            double newDistance = view.distances()[target];
            int[] after = newDistance == Double.POSITIVE_INFINITY ? null : path(view.parents(), source - 1, target);
            out.printf(Locale.ROOT, "route %d -> %d: %s via %s became %s%n", source, target + 1, metric(oldDistance), route(before),
                    after == null ? "unreachable" : metric(newDistance) + " via " + route(after));

            // the subscriber's view against a fresh query on the same version
            String check = id + "-check";
            client.publishQuery(GraphQuery.newBuilder().setQueryId(check).setGraphId("rome99").setAlgorithm(Algorithm.SSSP)
                    .setSource(source).build());
            List<QueryResult> fresh = FrontierClient.awaitResult(results, check, TIMEOUT)
                    .orElseThrow(() -> new CliFailure("no answer to query " + check));
            Verification verdict;
            if (fresh.get(0).getStatus() != ResultStatus.OK) {
                verdict = Verification.fail("fresh query: " + fresh.get(0).getStatus() + " " + fresh.get(0).getError());
            } else if (update.outcome() != SubscriptionFeed.Outcome.APPLIED || view.version() != version + 1
                    || fresh.get(0).getGraphVersion() != version + 1) {
                verdict = Verification.fail("push " + update.outcome() + " on v" + view.version() + ", fresh answer on v"
                        + fresh.get(0).getGraphVersion() + ", expected v" + (version + 1));
            } else {
                SsspResult reference = Answers.decode(SsspResult.class, fresh);
                verdict = !Arrays.equals(reference.distances(), view.distances())
                        ? Verification.fail("the view's distances differ from the fresh query's")
                        : SsspVerifier.verify(expected.current(), source - 1,
                                new SsspResult(source - 1, view.distances(), view.parents(), Timing.NONE), reference);
            }
            client.cancel("rome99", id);
            Optional<SubscriptionFeed.Push> end = feed.next(TIMEOUT);
            boolean ended = end.isPresent() && end.get().end() && end.get().status() == ResultStatus.OK;
            out.printf(Locale.ROOT, "subscriber's view = fresh query on v%d: %s; cancelled: %s%n", version + 1,
                    verdict.ok() ? "yes" : "NO: " + verdict.message(),
                    ended ? "END #" + end.get().sequence() + " (OK)" : end.map(p -> p.reason() + " " + p.status()).orElse("no END push") + "  [UNEXPECTED]");
            return verdict.ok() && ended;
        }
    }

    /** The vertex whose route from {@code source} (through the parents) has {@code roads} roads, or the longest one below. */
    private static int farthestWithin(int[] parents, int source, int roads) {
        int best = source, bestRoads = 0;
        for (int v = 0; v < parents.length; v++) {
            if (parents[v] < 0) continue;
            int k = path(parents, source, v).length - 1;
            if (k <= roads && k > bestRoads) {
                best = v;
                bestRoads = k;
                if (k == roads) break;
            }
        }
        return best;
    }

    /** The route from {@code source} to {@code target} through the parents (dense ids). */
    private static int[] path(int[] parents, int source, int target) {
        List<Integer> p = new ArrayList<>();
        for (int x = target; ; x = parents[x]) {
            p.add(x);
            if (x == source || x < 0 || p.size() > parents.length) break;
        }
        java.util.Collections.reverse(p);
        return p.stream().mapToInt(Integer::intValue).toArray();
    }

    /** A route in DIMACS ids, shortened in the middle when long. */
    private static String route(int[] path) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < path.length; i++) {
            if (path.length > 12 && i == 5) {
                b.append("... ");
                i = path.length - 5;
            }
            b.append(path[i] + 1).append(i + 1 < path.length ? ", " : "]");
        }
        return b.toString();
    }

    private static String metric(double d) {
        return d == Math.rint(d) ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%,.2f", d);
    }

    private static LoadedGraph rome() throws IOException {
        try (InputStream in = Demo.class.getResourceAsStream("/demo/rome99.gr.gz")) {
            if (in == null) throw new IOException("demo graph /demo/rome99.gr.gz missing from the classpath");
            return GraphFiles.read(in, "rome99.gr.gz", GraphFormat.DIMACS, false);
        }
    }

    private static void publish(FrontierClient client, TopicWatcher<GraphStatus> status, String id, long version,
                                EdgeList edges, int first, PrintStream out) {
        client.publishSnapshot(id, version, Snapshots.of(edges), first, true, null);
        GraphStatus s = status.awaitFirst(x -> x.getGraphId().equals(id) && x.getVersion() == version, TIMEOUT)
                .orElseThrow(() -> new CliFailure("worker did not load graph '" + id + "'"));
        out.printf(Locale.ROOT, "loaded %-11s v%d: %,d vertices, %,d edges (%s) on %s%n", id, version, s.getVertexCount(),
                s.getEdgeCount(), edges.directed() ? "directed" : "undirected", s.getBackend());
    }

    private static void ask(FrontierClient client, TopicWatcher<QueryResult> results, TopicWatcher<LatencyEvent> latency,
                            CsrGraph graph, String graphId, Algorithm algorithm, Integer source, long expectVersion,
                            List<Boolean> checks, PrintStream out) {
        String id = graphId + "-" + algorithm.name().toLowerCase(Locale.ROOT) + "-v" + expectVersion;
        client.publishQuery(GraphQuery.newBuilder().setQueryId(id).setGraphId(graphId).setAlgorithm(algorithm)
                .setSource(source).build());
        List<QueryResult> chunks = FrontierClient.awaitResult(results, id, TIMEOUT)
                .orElseThrow(() -> new CliFailure("no answer to query " + id));
        Optional<LatencyEvent> lat = latency.awaitFirst(e -> e.getQueryId().equals(id), Duration.ofSeconds(10));
        QueryResult h = chunks.get(0);
        Verification v;
        String answer;
        if (h.getStatus() != ResultStatus.OK) {
            v = Verification.fail(h.getStatus() + ": " + h.getError());
            answer = h.getError();
        } else if (h.getGraphVersion() != expectVersion) {
            v = Verification.fail("answered on version " + h.getGraphVersion() + ", expected " + expectVersion);
            answer = "";
        } else {
            int s = source == null ? 0 : source - h.getFirstVertexId();
            switch (algorithm) {
                case BFS -> {
                    var r = Answers.decode(BfsResult.class, chunks);
                    v = BfsVerifier.verify(graph, s, r);
                    long reached = java.util.Arrays.stream(r.hops()).filter(x -> x >= 0).count();
                    int max = java.util.Arrays.stream(r.hops()).max().orElse(0);
                    answer = String.format(Locale.ROOT, "%,d reached, %d levels", reached, max);
                }
                case SSSP -> {
                    var r = Answers.decode(SsspResult.class, chunks);
                    v = SsspVerifier.verify(graph, s, r);
                    double far = java.util.Arrays.stream(r.distances()).filter(d -> d != Double.POSITIVE_INFINITY).max().orElse(0);
                    answer = String.format(Locale.ROOT, "farthest at distance %,.0f", far);
                }
                default -> {
                    var r = Answers.decode(MstResult.class, graph, chunks);
                    v = MstVerifier.verify(graph, r);
                    answer = String.format(Locale.ROOT, "weight %,.0f, %d edges, %d tree(s)", r.totalWeight(), r.edgeIds().length, r.components());
                }
            }
        }
        checks.add(v.ok());
        out.println(String.format(Locale.ROOT, "%-11s %-5s v%-2d %-7s %-4s %-40s %7.2fms %7.1fms  %s",
                graphId, algorithm, h.getGraphVersion(), h.getStatus(), h.getBackend(), answer,
                lat.map(e -> e.getComputeMicros() / 1000.0).orElse(Double.NaN),
                lat.map(e -> e.getEndToEndMicros() / 1000.0).orElse(Double.NaN),
                v.ok() ? "yes" : "NO: " + v.message()));
    }
}
