package org.frontiergraph.worker.subscription;

import static org.frontiergraph.worker.support.Fixtures.cpuConfig;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.query.Answers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Standing queries through the processor with real Avro records and the CPU engine: random update streams
 * (decreases, increases, removals, insertions, a vertex cut off and joined again, new vertices, invalid updates) in
 * batches; after every batch each subscriber's view, assembled from its pushes alone (every mode), equals a fresh
 * query's answer, checked by the verifiers; every repair is also checked against a recompute
 * ({@code verify-incremental} = 1) and none may differ. Then the lifecycle: cancel, limits, unknown graphs and
 * subscriptions, a new snapshot (RESYNC, END when the source is gone), a rebuilt partition, throttling.
 */
class SubscriptionsTest {
    private static final String TOPIC = "frontier.graphs";
    private static final int PARTITION = 0;
    private static final int FIRST = 100;

    private Fixtures.Services services;
    private long offset;
    private long now = 1_000_000;
    private final Map<String, SubscriptionView> views = new HashMap<>();
    private final List<ErrorEvent> errors = new ArrayList<>();
    private final Map<String, List<QueryResult>> lastPush = new HashMap<>();

    private void start(FrontierConfig config) {
        services = Fixtures.start(config);
    }

    @AfterEach
    void close() {
        if (services != null) services.close();
    }

    /** The graphs topic as this test wrote it: its records, and the end records the worker published to it. */
    private final List<InputRecord> log = new ArrayList<>();

    private Outputs feed(String key, SpecificRecord r) {
        InputRecord in = new InputRecord(TOPIC, PARTITION, offset++, key, FrontierCodec.encode(r), now);
        log.add(in);
        Outputs out = services.processor().process(in, false);
        deliver(out);
        return out;
    }

    private Outputs flush() {
        Outputs out = services.processor().flushSubscriptions(p -> true, now);
        deliver(out);
        return out;
    }

    /** What a consumer of the results topic does: each push goes to its subscription's view, in order. */
    private void deliver(Outputs out) {
        errors.addAll(out.errors());
        for (Subscription ended : out.ended()) {   // the worker's end records land in the graphs topic
            InputRecord in = new InputRecord(TOPIC, PARTITION, offset++, ended.getGraphId(), FrontierCodec.encode(ended), now);
            log.add(in);
            assertTrue(services.processor().process(in, false).isEmpty(), "an end record is not answered");
        }
        Map<String, List<QueryResult>> pushes = new LinkedHashMap<>();
        for (QueryResult r : out.results()) {
            if (r.getReason() == null) continue;   // a query's answer
            // the wire: each push decodes from its own Avro bytes
            QueryResult decoded;
            try {
                decoded = FrontierCodec.decode(FrontierCodec.encode(r), QueryResult.class);
            } catch (FrontierCodec.MalformedMessageException e) {
                throw new AssertionError(e);
            }
            assertTrue(views.computeIfAbsent(r.getQueryId(), id -> new SubscriptionView()).apply(decoded),
                    "push " + r.getReason() + " #" + r.getSequence() + " of " + r.getQueryId() + " was refused (a gap or a repeat)");
            pushes.computeIfAbsent(r.getQueryId(), id -> new ArrayList<>()).add(r);
        }
        lastPush.putAll(pushes);
    }

    private static Subscription.Builder sub(String id, String graph, Algorithm a, Integer source, ResultMode mode) {
        return Subscription.newBuilder().setSubscriptionId(id).setGraphId(graph).setAlgorithm(a)
                .setSource(source == null ? null : source + FIRST).setResultMode(mode);
    }

    private void load(String graph, long version, EdgeList edges) {
        for (var c : Fixtures.snapshot(graph, version, edges, FIRST, 500)) feed(graph, c);
    }

    private static EdgeList randomGraph(Random rnd, int n, int m, boolean directed) {
        EdgeList e = new EdgeList(n, directed, m);
        for (int i = 0; i < m; i++) {
            int u = rnd.nextInt(n), v = rnd.nextInt(n);
            if (u != v) e.add(u, v, weight(rnd));
        }
        return e;
    }

    private static double weight(Random rnd) {
        return rnd.nextInt(5) == 0 ? rnd.nextInt(3) * 0.25 : rnd.nextInt(20);   // zeros, fractions, ties
    }

    private CsrGraph current(String graph) {
        return services.registry().get(graph).orElseThrow().resident().graph();
    }

    /** A random update in user ids: mostly valid; some cut a vertex off, grow the graph, or are invalid. */
    private GraphUpdate randomUpdate(Random rnd, String graph) {
        CsrGraph g = current(graph);
        int n = g.vertexCount();
        List<int[]> rem = new ArrayList<>(), rew = new ArrayList<>(), add = new ArrayList<>();
        List<Double> rw = new ArrayList<>(), aw = new ArrayList<>();
        int grow = 0;
        switch (rnd.nextInt(16)) {
            case 0 -> {   // cut a vertex off: every arc out of it (undirected: every edge)
                int v = rnd.nextInt(n);
                for (int a = g.rowStart(v); a < g.rowEnd(v); a++) rem.add(new int[] {v, g.columns()[a]});
            }
            case 1 -> {   // a new vertex joined to two others
                grow = 1;
                add.add(new int[] {rnd.nextInt(n), n});
                aw.add(weight(rnd));
                add.add(new int[] {n, rnd.nextInt(n)});
                aw.add(weight(rnd));
            }
            case 2 -> rem.add(new int[] {0, 0});   // invalid: no such edge
            default -> {
                for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                    int kind = rnd.nextInt(4);
                    int arc = g.arcCount() == 0 ? -1 : rnd.nextInt(g.arcCount());
                    if (kind == 0 && arc >= 0) rem.add(new int[] {g.sourceOf(arc), g.columns()[arc]});
                    else if (kind <= 2 && arc >= 0) {   // decreases and increases
                        rew.add(new int[] {g.sourceOf(arc), g.columns()[arc]});
                        rw.add(weight(rnd));
                    } else {
                        add.add(new int[] {rnd.nextInt(n), rnd.nextInt(n)});
                        aw.add(weight(rnd));
                    }
                }
            }
        }
        dedupe(rem, rew, rw, g);
        return GraphUpdate.newBuilder().setGraphId(graph).setAddedVertexCount(grow)
                .setRemoved(batch(rem, null)).setReweighted(batch(rew, rw)).setAdded(batch(add, aw)).build();
    }

    /** An edge both removed and re-weighted is invalid: keep such updates rare and intended. */
    private static void dedupe(List<int[]> rem, List<int[]> rew, List<Double> rw, CsrGraph g) {
        for (int i = rew.size() - 1; i >= 0; i--) {
            int[] e = rew.get(i);
            boolean removed = rem.stream().anyMatch(r -> (r[0] == e[0] && r[1] == e[1]) || (!g.directed() && r[0] == e[1] && r[1] == e[0]));
            if (removed) {
                rew.remove(i);
                rw.remove(i);
            }
        }
        List<int[]> unique = new ArrayList<>();
        for (int[] r : rem) {
            boolean seen = unique.stream().anyMatch(x -> (x[0] == r[0] && x[1] == r[1]) || (!g.directed() && x[0] == r[1] && x[1] == r[0]));
            if (!seen) unique.add(r);
        }
        rem.clear();
        rem.addAll(unique);
    }

    private static org.frontiergraph.schema.EdgeBatch batch(List<int[]> edges, List<Double> w) {
        int[] s = new int[edges.size()], t = new int[edges.size()];
        double[] ws = new double[w == null ? 0 : edges.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = edges.get(i)[0] + FIRST;
            t[i] = edges.get(i)[1] + FIRST;
            if (w != null) ws[i] = w.get(i);
        }
        return PackedArrays.edgeBatch(s, t, ws);
    }

    private List<QueryResult> fresh(String graph, Algorithm a, Integer source) {
        GraphQuery q = query("check", graph, a, source == null ? null : source + FIRST).setResultMode(ResultMode.FULL).build();
        List<QueryResult> chunks = services.queries().answer(q).chunks();
        assertEquals(ResultStatus.OK, chunks.get(0).getStatus(), chunks.get(0).getError());
        return chunks;
    }

    /** The subscriber's view equals a fresh query's answer, and its parents pass the verifier on the current graph. */
    private void assertCurrent(String id, String graph, Algorithm a, Integer source, ResultMode mode, int[] targets, String when) {
        SubscriptionView view = views.get(id);
        CsrGraph g = current(graph);
        long version = services.registry().get(graph).orElseThrow().version();
        if (lastPush.containsKey(id)) assertEquals(version, view.version(), id + " was pushed the current version " + when);
        assertTrue(view.version() <= version && !view.stale() && !view.ended(), id + " " + when);
        List<QueryResult> chunks = fresh(graph, a, source);
        // vertices added since the last push are unreachable until a push lists them (the contract): pad the view
        int n = g.vertexCount();
        double[] distances = java.util.Arrays.copyOf(view.distances(), n);
        int[] hops = java.util.Arrays.copyOf(view.hops(), n), parents = java.util.Arrays.copyOf(view.parents(), n);
        for (int v = view.vertexCount(); v < n; v++) {
            distances[v] = Double.POSITIVE_INFINITY;
            hops[v] = -1;
            parents[v] = -1;
        }
        switch (a) {
            case SSSP -> {
                SsspResult f = Answers.decode(SsspResult.class, chunks);
                if (mode == ResultMode.SUMMARY) {
                    QueryResult s = fresh(graph, a, source).get(0);
                    long reached = java.util.Arrays.stream(f.distances()).filter(d -> d != Double.POSITIVE_INFINITY).count();
                    assertEquals(reached, view.reachedCount(), id + " reached " + when);
                    assertEquals(java.util.Arrays.stream(f.distances()).filter(d -> d != Double.POSITIVE_INFINITY).max().orElse(0),
                            view.maxDistance(), id + " max distance " + when);
                } else if (mode == ResultMode.TARGETS) {
                    for (int t : targets) assertEquals(f.distances()[t], distances[t], id + " target " + t + " " + when);
                } else {
                    assertArrayEquals(f.distances(), distances, id + " distances " + when);
                    var v = SsspVerifier.verify(g, source, new SsspResult(source, distances, parents, Timing.NONE), f);
                    assertTrue(v.ok(), id + " " + when + ": " + v.message());
                    assertAcyclic(parents, source, id + " " + when);
                }
            }
            case BFS -> {
                BfsResult f = Answers.decode(BfsResult.class, chunks);
                assertArrayEquals(f.hops(), hops, id + " hops " + when);
                var v = BfsVerifier.verify(g, source, new BfsResult(source, hops, parents, Timing.NONE), f);
                assertTrue(v.ok(), id + " " + when + ": " + v.message());
            }
            case MST -> {
                MstResult f = Answers.decode(MstResult.class, g, chunks);
                assertEquals(f.totalWeight(), view.totalWeight(), id + " total weight " + when);
                assertEquals((long) f.components(), view.components(), id + " components " + when);
                if (mode != ResultMode.SUMMARY) {
                    UndirectedEdges ue = g.undirectedEdges();
                    Map<Long, Double> expected = new HashMap<>();
                    for (int e : f.edgeIds()) expected.put(SubscriptionView.key(ue.u[e] + FIRST, ue.v[e] + FIRST), ue.w[e]);
                    assertEquals(expected, view.forest(), id + " forest " + when);
                }
            }
            default -> throw new IllegalArgumentException(a.toString());
        }
    }

    private static void assertAcyclic(int[] parents, int source, String what) {
        for (int v = 0; v < parents.length; v++) {
            int x = v, steps = 0;
            while (x >= 0 && x != source && steps++ <= parents.length) x = parents[x];
            assertTrue(x == source || x < 0, what + ": vertex " + v + " does not reach the source through its parents");
        }
    }

    private record Watched(String id, Algorithm a, Integer source, ResultMode mode, int[] targets) {}

    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {true, false})
    void everyPushedStateEqualsAFreshQueryAfterEveryBatch(boolean directed) {
        FrontierConfig config = cpuConfig();
        config.setVerifyIncremental(1.0);
        config.setResultChunkVertices(150);   // complete answers in several chunks
        config.setResultChunkEdges(120);
        start(config);
        Random rnd = new Random(directed ? 11 : 12);
        String graph = "net";
        load(graph, 1, randomGraph(rnd, 400, directed ? 1_400 : 800, directed));
        List<Watched> watched = List.of(
                new Watched("sssp-delta", Algorithm.SSSP, 0, ResultMode.DELTA, null),
                new Watched("sssp-delta-2", Algorithm.SSSP, 0, ResultMode.DELTA, null),   // shares the answer
                new Watched("sssp-full", Algorithm.SSSP, 7, ResultMode.FULL, null),
                new Watched("sssp-targets", Algorithm.SSSP, 7, ResultMode.TARGETS, new int[] {1, 2, 3, 50, 399}),
                new Watched("sssp-summary", Algorithm.SSSP, 9, ResultMode.SUMMARY, null),
                new Watched("bfs-delta", Algorithm.BFS, 3, ResultMode.DELTA, null),
                new Watched("mst-delta", Algorithm.MST, null, ResultMode.DELTA, null),
                new Watched("mst-summary", Algorithm.MST, null, ResultMode.SUMMARY, null));
        for (Watched w : watched) {
            Subscription.Builder s = sub(w.id(), graph, w.a(), w.source(), w.mode());
            if (w.targets() != null) s.setTargets(java.util.Arrays.stream(w.targets()).map(t -> t + FIRST).boxed().toList());
            feed(graph, s.build());
        }
        flush();
        for (Watched w : watched) {
            assertEquals(PushReason.INITIAL, lastPush.get(w.id()).get(0).getReason(), w.id());
            assertCurrent(w.id(), graph, w.a(), w.source(), w.mode(), w.targets(), "after INITIAL");
        }
        int[] sizes = {1, 1, 1, 5, 1, 30, 1, 5, 1, 600};   // 600: past the repairs' budgets, recomputed and compared
        int deltas = 0;
        for (int batch = 0; batch < 50; batch++) {
            lastPush.clear();
            for (int i = 0; i < sizes[batch % sizes.length]; i++) feed(graph, randomUpdate(rnd, graph));
            now += 100;
            flush();
            for (Watched w : watched) {
                assertCurrent(w.id(), graph, w.a(), w.source(), w.mode(), w.targets(), "after batch " + batch);
                List<QueryResult> p = lastPush.get(w.id());
                if (p != null) {
                    assertEquals(PushReason.UPDATE, p.get(0).getReason(), w.id() + " batch " + batch);
                    if (p.get(0).getDelta()) deltas++;
                }
            }
        }
        assertTrue(deltas > 40, "DELTA pushes were made (" + deltas + ")");
        assertTrue(services.meters().get("frontier.subscriptions.updates").tag("how", "recomputed").counter().count() > 0,
                "some batches were too large to repair: recomputed, and their changes found by comparison");
        assertEquals(0.0, services.meters().get("frontier.subscriptions.mismatches").counter().count(),
                "no repair differed from a recompute");
        assertTrue(services.meters().get("frontier.subscriptions.updates").tag("how", "repaired").counter().count() > 100,
                "answers were repaired, not recomputed");
        assertEquals(watched.size(), services.subscriptions().size());
        // the flush's steps are timed in the flushes that ran them; no step takes longer than the flushes together
        Timer flushes = services.meters().get("frontier.subscriptions.flush").timer();
        java.util.function.Function<String, Timer> step = name -> services.meters().get("frontier.subscriptions.flush.step").tag("step", name).timer();
        assertTrue(step.apply("host-repairs").count() >= 40 && step.apply("screen").count() >= 40, "the batches' repairs were timed");
        assertTrue(step.apply("recomputes").count() > 0, "recomputes were timed (those past the budgets, and verify-incremental's checks)");
        assertEquals(0, step.apply("device-repairs").count(), "no device on the CPU engine");
        assertTrue(step.apply("pushes").count() > 40);
        for (String name : List.of("screen", "host-repairs", "recomputes", "pushes")) {
            assertTrue(step.apply(name).count() <= flushes.count(), name + ": at most once a flush");
            assertTrue(step.apply(name).totalTime(TimeUnit.NANOSECONDS) <= flushes.totalTime(TimeUnit.NANOSECONDS), name + " within the flushes");
        }
    }

    /**
     * Many trees of one graph (30 SSSP and 10 BFS sources, DELTA): after each batch the screen sets aside the trees a
     * batch cannot touch and the others are repaired side by side; after every batch every subscriber's state equals
     * a fresh query (verify-incremental checks every answer, the ones set aside too).
     */
    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {true, false})
    void manySubscriptionsOfOneGraphStayExactBatchAfterBatch(boolean directed) {
        FrontierConfig config = cpuConfig();
        config.setVerifyIncremental(1.0);
        start(config);
        Random rnd = new Random(directed ? 13 : 14);
        String graph = "many";
        load(graph, 1, randomGraph(rnd, 300, directed ? 1_200 : 700, directed));
        List<Watched> watched = new ArrayList<>();
        for (int s = 0; s < 30; s++) watched.add(new Watched("sssp-" + s, Algorithm.SSSP, 10 * s, ResultMode.DELTA, null));
        for (int s = 0; s < 10; s++) watched.add(new Watched("bfs-" + s, Algorithm.BFS, 1 + 29 * s, ResultMode.DELTA, null));
        for (Watched w : watched) feed(graph, sub(w.id(), graph, w.a(), w.source(), w.mode()).build());
        flush();
        int pushed = 0;
        for (int batch = 0; batch < 40; batch++) {
            lastPush.clear();
            for (int i = 0; i < (batch % 10 == 9 ? 8 : 1); i++) feed(graph, randomUpdate(rnd, graph));
            now += 100;
            flush();
            pushed += lastPush.size();
            for (Watched w : watched) assertCurrent(w.id(), graph, w.a(), w.source(), w.mode(), null, "after batch " + batch);
        }
        assertTrue(pushed > 0 && pushed < 40 * watched.size(), "some trees changed, not all of them every time: " + pushed);
        assertEquals(0.0, services.meters().get("frontier.subscriptions.mismatches").counter().count(),
                "no repaired or set-aside answer differed from a recompute");
    }

    /**
     * A batch whose repairs settle some answers on the host and give up on others (recomputed): with settled-first
     * (the default) the settled answers' pushes are handed over before the flush returns the rest, each subscription
     * still pushes at most once a batch and in sequence, and every view equals a fresh query after every batch;
     * with it off, nothing is handed over early.
     */
    @ParameterizedTest(name = "settledFirst={0}")
    @ValueSource(booleans = {true, false})
    void theSettledAnswersPushBeforeTheHeavyOnesAreRecomputed(boolean settledFirst) {
        FrontierConfig config = cpuConfig();
        config.getSubscriptions().setSettledFirst(settledFirst);
        start(config);
        Random rnd = new Random(settledFirst ? 15 : 16);
        String graph = "split";
        // sparse, so that trees are deep and a removal near one's root is past its budget while the others repair
        load(graph, 1, randomGraph(rnd, 3_000, 4_500, false));
        List<Watched> watched = new ArrayList<>();
        for (int s = 0; s < 24; s++) watched.add(new Watched("sssp-" + s, Algorithm.SSSP, 120 * s, ResultMode.DELTA, null));
        for (int s = 0; s < 8; s++) watched.add(new Watched("bfs-" + s, Algorithm.BFS, 5 + 370 * s, ResultMode.DELTA, null));
        for (Watched w : watched) feed(graph, sub(w.id(), graph, w.a(), w.source(), w.mode()).build());
        flush();
        int split = 0, early = 0;
        for (int batch = 0; batch < 40; batch++) {
            lastPush.clear();
            for (int i = 0; i < 1 + batch % 12; i++) feed(graph, randomUpdate(rnd, graph));
            now += 100;
            List<Outputs> first = new ArrayList<>();
            Outputs rest = services.processor().flushSubscriptions(p -> true, now, first::add);
            Set<String> pushedFirst = new HashSet<>();
            for (Outputs o : first) {
                deliver(o);
                for (QueryResult r : o.results()) {
                    assertEquals(PushReason.UPDATE, r.getReason(), "only UPDATE pushes go first");
                    pushedFirst.add(r.getQueryId());
                }
            }
            Map<String, List<QueryResult>> firstPushes = new HashMap<>(lastPush);
            lastPush.clear();
            deliver(rest);
            for (QueryResult r : rest.results()) {
                assertFalse(pushedFirst.contains(r.getQueryId()), r.getQueryId() + " pushed twice in batch " + batch);
            }
            early += pushedFirst.size();
            if (!pushedFirst.isEmpty() && rest.results().stream().anyMatch(r -> r.getReason() != null)) split++;
            lastPush.putAll(firstPushes);
            for (Watched w : watched) assertCurrent(w.id(), graph, w.a(), w.source(), w.mode(), null, "after batch " + batch);
        }
        if (settledFirst) {
            assertTrue(split > 0, "some batch pushed settled answers first and heavy ones after (" + early + " pushed first)");
            assertTrue(services.meters().get("frontier.subscriptions.updates").tag("how", "recomputed").counter().count() > 0,
                    "some answers were given up on and recomputed");
        } else {
            assertEquals(0, early, "nothing is handed over early with settled-first off");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFlushHandsItsPushesToTheProducerSmallestFirst(boolean smallFirst) {
        FrontierConfig config = cpuConfig();
        config.getSubscriptions().setSmallFirst(smallFirst);
        config.setResultChunkVertices(40);   // the large DELTA in several chunks, which must stay together and in order
        start(config);
        // an undirected path 0 - 1 - ... - 199: re-weighting its first edge moves every distance from 0, and only
        // vertex 0's distance from 198
        int n = 200;
        EdgeList path = new EdgeList(n, false, n - 1);
        for (int v = 0; v + 1 < n; v++) path.add(v, v + 1, 1);
        load("p", 1, path);
        feed("p", sub("big", "p", Algorithm.SSSP, 0, ResultMode.DELTA).build());
        feed("p", sub("small", "p", Algorithm.SSSP, 198, ResultMode.DELTA).build());
        flush();
        feed("p", GraphUpdate.newBuilder().setGraphId("p").setReweighted(Fixtures.weighted(FIRST, FIRST + 1, 3)).build());
        now += 100;
        Outputs out = flush();
        List<String> order = new ArrayList<>();
        for (QueryResult r : out.results()) if (order.isEmpty() || !order.get(order.size() - 1).equals(r.getQueryId())) order.add(r.getQueryId());
        // "big" subscribed first: by size, "small" leaves before it; in the subscriptions' order, after it
        assertEquals(smallFirst ? List.of("small", "big") : List.of("big", "small"), order, "pushes by subscription, in order");
        assertTrue(out.results().stream().filter(r -> r.getQueryId().equals("big")).count() > 1, "the large DELTA in chunks");
        assertCurrent("big", "p", Algorithm.SSSP, 0, ResultMode.DELTA, null, "after the re-weight");
        assertCurrent("small", "p", Algorithm.SSSP, 198, ResultMode.DELTA, null, "after the re-weight");
    }

    @Test
    void aThrottledSubscriptionCoalescesChangesIntoItsNextPush() {
        start(cpuConfig());
        Random rnd = new Random(5);
        load("g", 1, randomGraph(rnd, 200, 700, true));
        feed("g", sub("slow", "g", Algorithm.SSSP, 0, ResultMode.DELTA).setMinIntervalMs(1_000).build());
        flush();
        assertEquals(PushReason.INITIAL, lastPush.get("slow").get(0).getReason());
        int pushes = 0;
        for (int i = 0; i < 30; i++) {
            lastPush.clear();
            feed("g", randomUpdate(rnd, "g"));
            now += 100;
            flush();
            if (lastPush.containsKey("slow")) pushes++;
        }
        now += 1_000;
        lastPush.clear();
        flush();
        assertTrue(pushes <= 3, "at most one push a second over 3 s: " + pushes);
        assertCurrent("slow", "g", Algorithm.SSSP, 0, ResultMode.DELTA, null, "after the coalesced push");
    }

    @Test
    void lifecycleCancelLimitsUnknownsSnapshotsAndRebuilds() {
        FrontierConfig config = cpuConfig();
        config.setMaxSubscriptionsPerGraph(2);
        start(config);
        load("g", 1, Fixtures.edges(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1));
        feed("g", sub("a", "g", Algorithm.SSSP, 0, ResultMode.FULL).build());
        feed("g", sub("b", "g", Algorithm.BFS, 3, ResultMode.DELTA).build());
        Outputs over = feed("g", sub("c", "g", Algorithm.SSSP, 1, ResultMode.FULL).build());
        assertEquals(PushReason.END, over.results().get(0).getReason());
        assertEquals(ResultStatus.TOO_MANY_SUBSCRIPTIONS, over.results().get(0).getStatus());
        assertEquals("TOO_MANY_SUBSCRIPTIONS", over.errors().get(0).getCode());
        flush();
        assertEquals(2, services.subscriptions().size());

        Outputs unknown = feed("g", sub("zz", "g", Algorithm.SSSP, 0, ResultMode.FULL).setCancel(true).build());
        assertEquals("UNKNOWN_SUBSCRIPTION", unknown.errors().get(0).getCode());
        Outputs apsp = feed("g", sub("p", "g", Algorithm.APSP, null, ResultMode.FULL).build());
        assertEquals("INVALID_QUERY", apsp.errors().get(0).getCode());
        Outputs mstTargets = feed("g", sub("m", "g", Algorithm.MST, null, ResultMode.TARGETS).build());
        assertEquals("INVALID_QUERY", mstTargets.errors().get(0).getCode());
        feed("nope", sub("x", "nope", Algorithm.BFS, 0, ResultMode.FULL).build());
        Outputs none = flush();
        assertEquals(ResultStatus.UNKNOWN_GRAPH, views.get("x").status());
        assertTrue(views.get("x").ended());
        assertTrue(none.errors().stream().anyMatch(e -> e.getCode().equals("UNKNOWN_GRAPH")));

        // a rebuilt partition pushes every answer complete
        services.processor().rebuilt(PARTITION);
        lastPush.clear();
        flush();
        assertEquals(PushReason.RESYNC, lastPush.get("a").get(0).getReason());
        assertEquals(0L, lastPush.get("a").get(0).getSequence());
        assertEquals(PushReason.RESYNC, lastPush.get("b").get(0).getReason());

        // a new snapshot: RESYNC where the source still exists, END (and an error) where it does not
        lastPush.clear();
        load("g", 2, Fixtures.edges(2, false, 0, 1, 5));
        Outputs after = flush();
        assertEquals(PushReason.RESYNC, lastPush.get("a").get(0).getReason());
        assertCurrent("a", "g", Algorithm.SSSP, 0, ResultMode.FULL, null, "after a new snapshot");
        assertTrue(views.get("b").ended());
        assertEquals(ResultStatus.INVALID_VERTEX, views.get("b").status());
        assertTrue(after.errors().stream().anyMatch(e -> e.getCode().equals("INVALID_VERTEX") && "b".equals(e.getQueryId())));

        // cancel: a last push, then nothing
        feed("g", sub("a", "g", Algorithm.SSSP, 0, ResultMode.FULL).setCancel(true).build());
        flush();
        assertTrue(views.get("a").ended());
        assertEquals(ResultStatus.OK, views.get("a").status());
        assertEquals(0, services.subscriptions().size());
        lastPush.clear();
        feed("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(Fixtures.weighted(FIRST, FIRST + 1, 1)).build());
        flush();
        assertFalse(lastPush.containsKey("a"), "a cancelled subscription pushes nothing");
    }

    @Test
    void replayRegistersWithoutPushingAndHoldsTheRebuildStart() {
        start(cpuConfig());
        load("g", 1, Fixtures.edges(3, true, 0, 1, 1, 1, 2, 1));
        long subscribedAt = offset;
        Outputs replayed = services.processor().process(new InputRecord(TOPIC, PARTITION, offset++, "g",
                FrontierCodec.encode(sub("s", "g", Algorithm.SSSP, 0, ResultMode.DELTA).build()), now), true);
        assertTrue(replayed.isEmpty(), "nothing is published in replay");
        assertEquals(1, services.subscriptions().size());
        load("g", 2, Fixtures.edges(3, true, 0, 2, 1));   // a newer snapshot after the subscription
        assertTrue(services.registry().rebuildFrom(PARTITION, offset) <= subscribedAt,
                "a rebuild replays the subscription's record too");
        services.processor().rebuilt(PARTITION);
        flush();
        assertEquals(PushReason.RESYNC, lastPush.get("s").get(0).getReason());
        assertCurrent("s", "g", Algorithm.SSSP, 0, ResultMode.DELTA, null, "after the rebuild");
    }

    @Test
    void aSubscriptionEndedForAnErrorStaysEndedWhenAnotherWorkerReplaysTheLog() {
        start(cpuConfig());
        load("g", 1, Fixtures.edges(3, true, 0, 1, 1, 1, 2, 1));
        feed("g", sub("s", "g", Algorithm.SSSP, 2, ResultMode.DELTA).build());
        feed("g", sub("t", "g", Algorithm.SSSP, 0, ResultMode.DELTA).build());
        flush();
        load("g", 2, Fixtures.edges(2, true, 0, 1, 1));   // vertex 2 is gone: s ends
        Outputs out = flush();
        assertTrue(views.get("s").ended());
        assertEquals(1, out.ended().size(), "the worker records the end in the log");
        load("g", 3, Fixtures.edges(3, true, 0, 1, 1, 1, 2, 1));   // vertex 2 is back; s stays ended
        flush();
        services.close();
        services = Fixtures.start(cpuConfig());   // the partition's next owner replays the whole log
        for (InputRecord in : log) assertTrue(services.processor().process(in, true).isEmpty());
        services.processor().rebuilt(PARTITION);
        lastPush.clear();
        flush();
        assertFalse(lastPush.containsKey("s"), "an ended subscription is not brought back: " + lastPush.keySet());
        assertEquals(PushReason.RESYNC, lastPush.get("t").get(0).getReason());
        assertEquals(1, services.subscriptions().size());
    }

    @Test
    void aQueryCannotAskForDeltaMode() {
        start(cpuConfig());
        load("g", 1, Fixtures.edges(2, true, 0, 1, 1));
        Outputs out = feed("g", query("q", "g", Algorithm.BFS, FIRST).setResultMode(ResultMode.DELTA).build());
        assertEquals(ResultStatus.INVALID_QUERY, out.results().get(0).getStatus());
    }
}
