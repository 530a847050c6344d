package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.frontiergraph.cli.FrontierCliAccess;
import org.frontiergraph.worker.query.Answers;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.SubscriptionFeed;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.it.fault.WorkerProcess;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.ErrorEvent;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Standing queries end to end: a real broker, the worker as a real child JVM ({@code frontier.verify-incremental}
 * = 1: every incremental repair is also recomputed and compared), the Java client's {@link SubscriptionFeed}.
 *
 * <p>A random directed graph (3,000 vertices, 12,000 arcs, weights with ties and zeros) is subscribed to by SSSP
 * DELTA, BFS DELTA, MST DELTA and SSSP SUMMARY. Bursts of random single-edge updates (re-weights up and down, mostly
 * on the current trees so that answers change, removals, additions, now and then a new vertex) follow; after each
 * burst, each subscriber's view, assembled from its pushes alone, must equal a fresh GraphQuery on the graph's
 * version: distances and hops exactly, parents by the verifiers (and acyclic), the forest edge for edge, the summary.
 * A view that claims the version must equal it at once; one behind may wait for its push. In the middle the worker
 * is killed (SIGKILL) right after a burst, one more burst is published while none runs, and a new worker (the same
 * worker id) takes over: every subscription must get a RESYNC, and no push may ever be refused as a gap or a repeat.
 * The worker's log and metrics must show no repair that differed from its recompute.
 *
 * <p>Then {@code ./frontier subscribe} as a real child process: its JSON lines, SIGINT (cancel, END, exit 0), and a
 * subscription that fails (exit 1, the status on stderr).
 */
class SubscriptionsIT {
    static final long SEED = 0x5_0B5L;
    static final int N = 3_000, ARCS = 12_000, FIRST = 1;
    static final int[] BURSTS = {1, 4, 12, 1, 30, 25, /* kill right after this one */ 10, /* published while down */ 8, 1, 40, 3, 15};
    static final int KILL_AFTER = 5;
    static final Duration CHECK_WAIT = Duration.ofSeconds(40);
    static final Map<String, String> SETTINGS = Map.of(
            "frontier.verify-incremental", "1.0",
            "frontier.topics.partitions", "2",
            "frontier.result-chunk-vertices", "1000",   // complete answers in three chunks
            "frontier.result-chunk-edges", "1000");

    static TestKafka kafka;
    static Path dir;
    static WorkerProcess worker;
    static final List<WorkerProcess> retired = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.start();
        dir = Files.createTempDirectory("frontier-subscriptions-it-");
        worker = WorkerProcess.start("w0", kafka.bootstrapServers(), dir, "320m", SETTINGS, Map.of()).awaitReady(Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() throws Exception {
        if (worker != null) worker.close();
        retired.forEach(WorkerProcess::close);
        if (kafka != null) kafka.close();
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** A subscription of the test and what its pushes did. */
    private static final class Watched {
        final Subscription spec;
        final Map<PushReason, Integer> reasons = new EnumMap<>(PushReason.class);
        int deltas, resyncsBeforeKill, repeats, gaps;

        Watched(Subscription spec) {
            this.spec = spec;
        }

        String id() { return spec.getSubscriptionId(); }

        void record(SubscriptionFeed.Push p, boolean killed) {
            reasons.merge(p.reason(), 1, Integer::sum);
            if (p.delta()) deltas++;
            if (p.reason() == PushReason.RESYNC && !killed) resyncsBeforeKill++;
            if (p.outcome() == SubscriptionFeed.Outcome.REPEATED) repeats++;
            if (p.outcome() == SubscriptionFeed.Outcome.GAP) gaps++;
        }

        @Override
        public String toString() {
            return id() + " " + reasons + " (" + deltas + " DELTA)";
        }
    }

    /** The answers of fresh queries on one version, for the checks. */
    private record Fresh(long version, CsrGraph graph, SsspResult sssp, BfsResult bfs, Map<Long, Double> forest,
                         QueryResult mstHead, QueryResult summary) {}

    private final Random rnd = new Random(SEED);
    private MutableGraph model;
    private long version;
    private boolean killed;

    @Test
    void everySubscribersViewEqualsAFreshQueryThroughUpdateBurstsAndAWorkerKill() throws Exception {
        long t0 = System.nanoTime();
        String graph = "subs";
        String bootstrap = kafka.bootstrapServers();
        EdgeList edges = randomGraph();
        model = new MutableGraph(GraphBuilder.build(edges));
        int s0 = 0, s1 = 17, s2 = 1_234;   // dense sources of SSSP, BFS and the SSSP summary
        List<Watched> watched = List.of(
                new Watched(sub("sssp-delta", graph, Algorithm.SSSP, s0 + FIRST, ResultMode.DELTA)),
                new Watched(sub("bfs-delta", graph, Algorithm.BFS, s1 + FIRST, ResultMode.DELTA)),
                new Watched(sub("mst-delta", graph, Algorithm.MST, null, ResultMode.DELTA)),
                new Watched(sub("sssp-summary", graph, Algorithm.SSSP, s2 + FIRST, ResultMode.SUMMARY)));
        Map<String, Watched> byId = new LinkedHashMap<>();
        watched.forEach(w -> byId.put(w.id(), w));
        List<String> timings = new ArrayList<>();
        try (FrontierClient client = new FrontierClient(bootstrap);
             TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults();
             TopicWatcher<ErrorEvent> errors = client.watchErrors();
             SubscriptionFeed feed = client.follow(byId.keySet())) {
            client.publishSnapshot(graph, 1, Snapshots.of(edges), FIRST, true, null);
            Pipeline.awaitLoaded(status, graph, 1);
            version = 1;
            for (Watched w : watched) client.publishSubscription(w.spec);
            check(client, results, feed, byId, graph, s0, s1, s2, "after INITIAL");
            for (Watched w : watched) assertEquals(1, w.reasons.getOrDefault(PushReason.INITIAL, 0), w.toString());

            for (int b = 0; b < BURSTS.length; b++) {
                long burstStart = System.nanoTime();
                for (int i = 0; i < BURSTS[b]; i++) client.publishUpdate(randomUpdate(graph, feed, s0, s1));
                if (b == KILL_AFTER) {   // right after the burst: some of it may be unprocessed or uncommitted
                    worker.kill();
                    killed = true;
                    retired.add(worker);
                    timings.add(String.format(Locale.ROOT, "burst %d (%d updates), then SIGKILL", b, BURSTS[b]));
                    continue;
                }
                String done = "published and every view checked";
                if (b == KILL_AFTER + 1) {   // published while no worker runs; a new one takes over
                    long restart = System.nanoTime();
                    worker = WorkerProcess.start("w0", bootstrap, dir, "320m", SETTINGS, Map.of()).awaitReady(Duration.ofSeconds(90));
                    done = String.format(Locale.ROOT, "published while down; new worker ready in %.1f s, then every view checked",
                            (System.nanoTime() - restart) / 1e9);
                    burstStart = System.nanoTime();
                }
                check(client, results, feed, byId, graph, s0, s1, s2, "after burst " + b + " (version " + version + ")");
                timings.add(String.format(Locale.ROOT, "burst %d: %d updates to v%d, %s in %.0f ms",
                        b, BURSTS[b], version, done, (System.nanoTime() - burstStart) / 1e6));
            }

            System.out.printf(Locale.ROOT, "[subscriptions] %d updates in %d bursts, one SIGKILL; total %.1f s%n",
                    version - 1, BURSTS.length, (System.nanoTime() - t0) / 1e9);
            timings.forEach(t -> System.out.println("[subscriptions]   " + t));
            watched.forEach(w -> System.out.println("[subscriptions]   " + w));
            for (Watched w : watched) {
                assertEquals(0, w.resyncsBeforeKill, w + ": RESYNC before the kill");
                assertTrue(w.reasons.getOrDefault(PushReason.RESYNC, 0) >= 1, w + ": a RESYNC after the new worker took over");
                assertEquals(0, w.gaps, w + ": pushes refused as gaps");
                assertEquals(0, w.repeats, w + ": pushes refused as repeats");
            }
            assertTrue(byId.get("sssp-delta").deltas >= 5 && byId.get("bfs-delta").deltas >= 3 && byId.get("mst-delta").deltas >= 5,
                    "DELTA pushes were made: " + watched);
            assertTrue(errors.awaitUntil(l -> false, Duration.ofMillis(200)).isEmpty(), () -> "no error events: " + errors.seen());
        }
        for (WorkerProcess w : retiredAndLive()) {
            assertTrue(!w.log().contains("differs from a recompute"), "worker log shows a repair that differed from its recompute:\n" + w.tail());
        }
        String metrics = worker.httpBody("/prometheus");
        assertEquals(0.0, metric(metrics, "frontier_subscriptions_mismatches_total"), "no repair differed from a recompute");
        assertTrue(metric(metrics, "frontier_subscriptions_updates_total{how=\"repaired\"") > 0, "answers were repaired");
    }

    private static List<WorkerProcess> retiredAndLive() {
        List<WorkerProcess> all = new ArrayList<>(retired);
        all.add(worker);
        return all;
    }

    private static double metric(String prometheus, String prefix) {
        return prometheus.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .orElseThrow(() -> new AssertionError("no metric " + prefix + " in:\n" + prometheus));
    }

    private static Subscription sub(String id, String graph, Algorithm a, Integer source, ResultMode mode) {
        return Subscription.newBuilder().setSubscriptionId(id).setGraphId(graph).setAlgorithm(a).setSource(source)
                .setResultMode(mode).build();
    }

    // ------------------------------------------------------------------------------------------------ checks

    /**
     * Fresh queries on the current version, then every view must come to equal them: at once if its version is the
     * current one, else when its push arrives (a view behind that already equals the answer needed no push).
     */
    private void check(FrontierClient client, TopicWatcher<QueryResult> results, SubscriptionFeed feed, Map<String, Watched> byId,
                       String graph, int s0, int s1, int s2, String when) {
        Fresh fresh = fresh(client, results, graph, s0, s1, s2);
        Map<String, String> waiting = new LinkedHashMap<>();
        byId.keySet().forEach(id -> waiting.put(id, "no push yet"));
        long deadline = System.nanoTime() + CHECK_WAIT.toNanos();
        while (true) {
            for (SubscriptionFeed.Push p : feed.poll(Duration.ofMillis(50))) {
                byId.get(p.subscriptionId()).record(p, killed);
                assertTrue(!p.end(), () -> p.subscriptionId() + " ended: " + p.status() + " " + p.error());
            }
            for (var it = waiting.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                SubscriptionView view = feed.view(e.getKey());
                String mismatch = mismatch(byId.get(e.getKey()).spec, view, fresh, s0, s1, s2);
                if (mismatch == null) {
                    it.remove();
                } else if (view.version() == fresh.version() && !view.stale()) {
                    fail(e.getKey() + " " + when + ": pushed version " + view.version() + " differs from a fresh query: " + mismatch);
                } else {
                    e.setValue(mismatch + " (view at v" + view.version() + (view.stale() ? ", stale" : "") + ")");
                }
            }
            if (waiting.isEmpty()) return;
            if (System.nanoTime() > deadline) fail(when + ", version " + fresh.version() + ": views never matched: " + waiting);
        }
    }

    private Fresh fresh(FrontierClient client, TopicWatcher<QueryResult> results, String graph, int s0, int s1, int s2) {
        List<GraphQuery> qs = List.of(Pipeline.query(graph, Algorithm.SSSP, s0 + FIRST), Pipeline.query(graph, Algorithm.BFS, s1 + FIRST),
                Pipeline.query(graph, Algorithm.MST, null), Pipeline.query(graph, Algorithm.SSSP, s2 + FIRST));
        qs.get(3).setResultMode(ResultMode.SUMMARY);
        for (GraphQuery q : qs) client.publishQuery(q);
        List<List<QueryResult>> answers = new ArrayList<>();
        for (GraphQuery q : qs) {
            List<QueryResult> a = Pipeline.await(results, q.getQueryId());
            assertEquals(ResultStatus.OK, a.get(0).getStatus(), () -> q + ": " + a.get(0).getError());
            assertEquals(version, a.get(0).getGraphVersion(), "fresh answers on the version every update published made");
            answers.add(a);
        }
        Map<Long, Double> forest = new HashMap<>();
        for (QueryResult c : answers.get(2)) {
            int[] s = PackedArrays.toIntArray(c.getMstEdges().getSources()), t = PackedArrays.toIntArray(c.getMstEdges().getTargets());
            double[] w = PackedArrays.toDoubleArray(c.getMstEdges().getWeights());
            for (int i = 0; i < s.length; i++) forest.put(SubscriptionView.key(s[i], t[i]), w[i]);
        }
        return new Fresh(version, model.current(), Answers.decode(SsspResult.class, answers.get(0)), Answers.decode(BfsResult.class, answers.get(1)), forest,
                answers.get(2).get(0), answers.get(3).get(0));
    }

    /** Why {@code view} differs from the fresh answer of its subscription; null when it does not. */
    private static String mismatch(Subscription s, SubscriptionView view, Fresh f, int s0, int s1, int s2) {
        int n = f.graph().vertexCount();
        if (view.stale()) return "stale";
        if (view.version() < 0) return "no push yet";
        if (s.getResultMode() == ResultMode.SUMMARY) {
            QueryResult h = f.summary();
            if (!java.util.Objects.equals(h.getReachedCount(), view.reachedCount())) return "reached " + view.reachedCount() + ", fresh " + h.getReachedCount();
            if (!java.util.Objects.equals(h.getMaxDistance(), view.maxDistance())) return "max distance " + view.maxDistance() + ", fresh " + h.getMaxDistance();
            return null;
        }
        if (s.getAlgorithm() != Algorithm.MST && view.vertexCount() != n) return "vertex count " + view.vertexCount() + ", graph " + n;
        switch (s.getAlgorithm()) {
            case SSSP -> {
                if (!Arrays.equals(f.sssp().distances(), view.distances())) return "distances differ at vertex " + firstDiff(f.sssp().distances(), view.distances());
                Verification v = SsspVerifier.verify(f.graph(), s0, new SsspResult(s0, view.distances(), view.parents(), Timing.NONE), f.sssp());
                if (!v.ok()) return "parents: " + v.message();
                return cycle(view.parents(), s0);
            }
            case BFS -> {
                if (!Arrays.equals(f.bfs().hops(), view.hops())) return "hops differ";
                Verification v = BfsVerifier.verify(f.graph(), s1, new BfsResult(s1, view.hops(), view.parents(), Timing.NONE), f.bfs());
                if (!v.ok()) return "parents: " + v.message();
                return cycle(view.parents(), s1);
            }
            case MST -> {
                if (!f.forest().equals(view.forest())) return "forest differs (" + view.forest().size() + " edges, fresh " + f.forest().size() + ")";
                if (!java.util.Objects.equals(f.mstHead().getTotalWeight(), view.totalWeight())) return "total weight " + view.totalWeight();
                if (!java.util.Objects.equals(f.mstHead().getComponents(), view.components())) return "components " + view.components();
                return null;
            }
            default -> throw new IllegalArgumentException(s.getAlgorithm().toString());
        }
    }

    private static int firstDiff(double[] a, double[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) if (Double.compare(a[i], b[i]) != 0) return i;
        return Math.min(a.length, b.length);
    }

    /** A vertex whose parents do not lead to the source (a cycle, which the verifiers' local rules cannot see), or null. */
    private static String cycle(int[] parents, int source) {
        for (int v = 0; v < parents.length; v++) {
            int x = v, steps = 0;
            while (x >= 0 && x != source && steps++ <= parents.length) x = parents[x];
            if (x != source && x >= 0) return "vertex " + v + " does not reach the source through its parents";
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ updates

    private EdgeList randomGraph() {
        EdgeList e = new EdgeList(N, true, ARCS);
        Set<Long> seen = new java.util.HashSet<>();
        while (e.size() < ARCS) {
            int u = rnd.nextInt(N), v = rnd.nextInt(N);
            if (u != v && seen.add(((long) u << 32) | v)) e.add(u, v, weight());
        }
        return e;
    }

    /** Zeros, quarters and small integers: many ties. */
    private double weight() {
        return rnd.nextInt(5) == 0 ? rnd.nextInt(3) * 0.25 : rnd.nextInt(20);
    }

    /**
     * One valid single-edge update on the current version, in user ids, applied to the model too: half on an arc
     * of the current SSSP or BFS tree (so that answers change), re-weights up and down, removals, additions, and
     * now and then a new vertex joined by one arc.
     */
    private GraphUpdate randomUpdate(String graph, SubscriptionFeed feed, int s0, int s1) {
        CsrGraph g = model.current();
        int n = g.vertexCount();
        int grow = 0;
        int[] rem = {}, rw = {}, add = {};
        double[] rww = {}, addw = {};
        int kind = rnd.nextInt(100);
        if (kind < 3) {
            grow = 1;
            add = new int[] {rnd.nextInt(n), n};
            addw = new double[] {weight()};
        } else if (kind < 18) {
            rem = arc(g, feed, s0, s1);
        } else if (kind < 33) {
            int u, v;
            do {
                u = rnd.nextInt(n);
                v = rnd.nextInt(n);
            } while (u == v || g.findArc(u, v) >= 0);
            add = new int[] {u, v};
            addw = new double[] {weight()};
        } else {
            rw = arc(g, feed, s0, s1);
            double w = g.weights()[g.findArc(rw[0], rw[1])];
            rww = new double[] {rnd.nextBoolean() ? Math.max(0, w - 1 - rnd.nextInt(8)) : w + 1 + rnd.nextInt(15) + (rnd.nextBoolean() ? 0.25 : 0)};
        }
        model.apply(new EdgeEdits(grow, pick(rem, 0), pick(rem, 1), pick(rw, 0), pick(rw, 1), rww, pick(add, 0), pick(add, 1), addw),
                FIRST, Long.MAX_VALUE);
        GraphUpdate u = GraphUpdate.newBuilder().setGraphId(graph).setBaseVersion(version).setAddedVertexCount(grow)
                .setRemoved(batch(rem, null)).setReweighted(batch(rw, rww)).setAdded(batch(add, addw)).build();
        version++;
        return u;
    }

    /** An arc (dense ids) of the SSSP tree (40%), the BFS tree (15%) or any (45%). */
    private int[] arc(CsrGraph g, SubscriptionFeed feed, int s0, int s1) {
        int r = rnd.nextInt(100);
        int[] parents = r < 40 ? feed.view("sssp-delta").parents() : r < 55 ? feed.view("bfs-delta").parents() : null;
        int source = r < 40 ? s0 : s1;
        if (parents != null) {
            for (int tries = 0; tries < 20; tries++) {
                int v = rnd.nextInt(Math.min(parents.length, g.vertexCount()));
                int p = parents[v];
                if (p >= 0 && v != source && p < g.vertexCount() && g.findArc(p, v) >= 0) return new int[] {p, v};
            }
        }
        int a = rnd.nextInt(g.arcCount());
        return new int[] {g.sourceOf(a), g.columns()[a]};
    }

    private static int[] pick(int[] pair, int i) {
        return pair.length == 0 ? new int[0] : new int[] {pair[i]};
    }

    private static EdgeBatch batch(int[] pair, double[] w) {
        if (pair.length == 0) return null;
        return PackedArrays.edgeBatch(new int[] {pair[0] + FIRST}, new int[] {pair[1] + FIRST}, w == null ? new double[0] : w);
    }

    // ------------------------------------------------------------------------------------------------ the CLI

    @Test
    void theSubscribeCommandPrintsPushesAndCancelsOnCtrlC() throws Exception {
        String bootstrap = kafka.bootstrapServers();
        ObjectMapper json = new ObjectMapper();
        try (FrontierClient client = new FrontierClient(bootstrap); TopicWatcher<GraphStatus> status = client.watchStatus()) {
            // 1 -> 2 (1), 2 -> 3 (1), 1 -> 3 (5)
            EdgeList e = new EdgeList(3, true);
            e.add(0, 1, 1);
            e.add(1, 2, 1);
            e.add(0, 2, 5);
            client.publishSnapshot("cli", 1, Snapshots.of(e), 1, true, null);
            Pipeline.awaitLoaded(status, "cli", 1);

            Path err = dir.resolve("subscribe-stderr.txt");
            Process cli = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                    "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "org.frontiergraph.cli.FrontierCli",
                    "subscribe", "--bootstrap", bootstrap, "--graph", "cli", "--algorithm", "sssp", "--source", "1", "--id", "cli-sub")
                    .redirectError(err.toFile()).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) lines.add(l);
                } catch (IOException ignored) {
                    // the process ended
                }
            });
            reader.start();
            try {
                JsonNode initial = json.readTree(next(lines, cli, err));
                assertEquals("INITIAL", initial.get("reason").asText(), initial.toString());
                assertEquals("cli-sub", initial.get("subscriptionId").asText());
                assertEquals(2, initial.get("distances").get("3").asInt());

                client.publishUpdate(GraphUpdate.newBuilder().setGraphId("cli")
                        .setReweighted(PackedArrays.edgeBatch(new int[] {2}, new int[] {3}, new double[] {9})).build());
                JsonNode update = json.readTree(next(lines, cli, err));
                assertEquals("UPDATE", update.get("reason").asText(), update.toString());
                assertEquals(1, update.get("sequence").asInt());
                assertEquals(2, update.get("graphVersion").asInt());
                assertTrue(update.get("delta").asBoolean());
                assertEquals(List.of("3"), fieldNames(update.get("distances")), "only vertex 3 changed");
                assertEquals(5, update.get("distances").get("3").asInt());
                assertEquals(1, update.get("parents").get("3").asInt());

                new ProcessBuilder("kill", "-INT", Long.toString(cli.pid())).start().waitFor(10, TimeUnit.SECONDS);
                JsonNode end = json.readTree(next(lines, cli, err));
                assertEquals("END", end.get("reason").asText(), end.toString());
                assertEquals("OK", end.get("status").asText());
                assertTrue(cli.waitFor(20, TimeUnit.SECONDS), "exits after the END push");
                assertEquals(0, cli.exitValue(), () -> "exit status after Ctrl-C; stderr:\n" + read(err));
                assertTrue(read(err).contains("SIGINT: cancelled cli-sub"), () -> read(err));
            } finally {
                cli.destroyForcibly();
                reader.join(5_000);
            }
        }

        // a subscription the worker refuses: the END push is printed, the reason goes to stderr, exit 1
        ByteArrayOutputStream out = new ByteArrayOutputStream(), errBytes = new ByteArrayOutputStream();
        int rc = FrontierCliAccess.run(new String[] {"subscribe", "--bootstrap", bootstrap, "--graph", "cli", "--algorithm", "bfs",
                "--source", "99", "--timeout", "60"}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        String stderr = errBytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, rc, stderr);
        JsonNode end = json.readTree(out.toString(StandardCharsets.UTF_8));
        assertEquals("END", end.get("reason").asText());
        assertEquals("INVALID_VERTEX", end.get("status").asText());
        assertTrue(stderr.contains("ended: INVALID_VERTEX: "), stderr);
    }

    private static List<String> fieldNames(JsonNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String next(BlockingQueue<String> lines, Process p, Path err) throws InterruptedException {
        String l = lines.poll(60, TimeUnit.SECONDS);
        if (l == null) throw new AssertionError("no line from ./frontier subscribe within 60 s (alive: " + p.isAlive() + "); stderr:\n" + read(err));
        return l;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }
}
