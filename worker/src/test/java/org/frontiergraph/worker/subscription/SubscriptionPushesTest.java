package org.frontiergraph.worker.subscription;

import static org.frontiergraph.worker.support.Fixtures.cpuConfig;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.standing.Delta;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.query.QueryContext;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.query.Answers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How pushes are made: each content is encoded once per standing answer and shared by the subscriptions that push
 * it (across modes: a DELTA subscription's INITIAL is the FULL answer), each subscription's copy with its own id,
 * sequence and buffers; a poll batch of many updates gives one push per subscription carrying the net change; a
 * DELTA push is exactly the TARGETS answer over the changed vertices; and the pending changes that make this sharing
 * possible.
 */
class SubscriptionPushesTest {
    private static final int FIRST = 100;

    private Fixtures.Services services;
    private long offset;
    private long now = 1_000_000;
    private final Map<String, SubscriptionView> views = new HashMap<>();
    /** The pushes of the last flush, by subscription, as published (not decoded). */
    private final Map<String, List<QueryResult>> pushed = new LinkedHashMap<>();

    @AfterEach
    void close() {
        if (services != null) services.close();
    }

    private void feed(String key, SpecificRecord r) {
        Outputs out = services.processor().process(
                new InputRecord("frontier.graphs", 0, offset++, key, FrontierCodec.encode(r), now), false);
        assertTrue(out.errors().isEmpty(), () -> "rejected: " + out.errors());
    }

    /** A poll batch ends: the pushes it caused, each applied to its subscription's view from its own Avro bytes. */
    private Outputs flush() {
        pushed.clear();
        Outputs out = services.processor().flushSubscriptions(p -> true, now);
        assertTrue(out.errors().isEmpty(), () -> "errors: " + out.errors());
        for (QueryResult r : out.results()) {
            pushed.computeIfAbsent(r.getQueryId(), id -> new ArrayList<>()).add(r);
            QueryResult decoded;
            try {
                decoded = FrontierCodec.decode(FrontierCodec.encode(r), QueryResult.class);
            } catch (FrontierCodec.MalformedMessageException e) {
                throw new AssertionError(e);
            }
            assertTrue(views.computeIfAbsent(r.getQueryId(), id -> new SubscriptionView()).apply(decoded),
                    "push " + r.getReason() + " #" + r.getSequence() + " of " + r.getQueryId() + " was refused");
        }
        return out;
    }

    private static Subscription.Builder sssp(String id, int source, ResultMode mode) {
        return Subscription.newBuilder().setSubscriptionId(id).setGraphId("g").setAlgorithm(Algorithm.SSSP)
                .setSource(source + FIRST).setResultMode(mode);
    }

    private void load(EdgeList edges) {
        for (var c : Fixtures.snapshot("g", 1, edges, FIRST, 500)) feed("g", c);
    }

    private CsrGraph graph() {
        return services.registry().get("g").orElseThrow().resident().graph();
    }

    private static EdgeList randomGraph(Random rnd, int n, int m) {
        EdgeList e = new EdgeList(n, false, m);
        for (int i = 0; i < m; i++) {
            int u = rnd.nextInt(n), v = rnd.nextInt(n);
            if (u != v) e.add(u, v, 1 + rnd.nextInt(9));
        }
        return e;
    }

    /** A re-weight of a random edge (engine ids in, user ids out). */
    private GraphUpdate reweight(Random rnd) {
        CsrGraph g = graph();
        int arc = rnd.nextInt(g.arcCount());
        return reweight(g.sourceOf(arc), g.columns()[arc], 1 + rnd.nextInt(12));
    }

    private static GraphUpdate reweight(int u, int v, double w) {
        return GraphUpdate.newBuilder().setGraphId("g").setReweighted(Fixtures.weighted(u + FIRST, v + FIRST, w)).build();
    }

    /** The subscriber's distances equal a fresh query's, and its parents form a valid shortest-path tree. */
    private void assertCurrent(String id, int source, String when) {
        GraphQuery q = query("check-" + id, "g", Algorithm.SSSP, source + FIRST).setResultMode(ResultMode.FULL).build();
        List<QueryResult> chunks = services.queries().answer(q).chunks();
        assertEquals(ResultStatus.OK, chunks.get(0).getStatus());
        SsspResult fresh = Answers.decode(SsspResult.class, chunks);
        SubscriptionView view = views.get(id);
        assertArrayEquals(fresh.distances(), view.distances(), id + " distances " + when);
        var v = SsspVerifier.verify(graph(), source, new SsspResult(source, view.distances(), view.parents(), Timing.NONE), fresh);
        assertTrue(v.ok(), id + " " + when + ": " + v.message());
    }

    private static void assertSamePayload(List<QueryResult> a, List<QueryResult> b, String what) {
        assertEquals(a.size(), b.size(), what);
        for (int i = 0; i < a.size(); i++) {
            QueryResult x = a.get(i), y = b.get(i);
            for (String field : List.of("vertices", "distances", "parents")) {
                ByteBuffer bx = (ByteBuffer) x.get(field), by = (ByteBuffer) y.get(field);
                assertEquals(bx, by, what + ": " + field + " of chunk " + i);
                if (bx != null) assertNotSame(bx, by, what + ": each push has buffers of its own");
            }
            assertEquals(x.getGraphVersion(), y.getGraphVersion(), what);
            assertEquals(x.getChunkCount(), y.getChunkCount(), what);
            assertEquals(x.getOffset(), y.getOffset(), what);
        }
    }

    private static void assertPush(List<QueryResult> push, String id, PushReason reason, long sequence, boolean delta) {
        assertTrue(push != null && !push.isEmpty(), id + " pushed");
        for (QueryResult r : push) {
            assertEquals(id, r.getQueryId(), "each push carries its own subscription's id");
            assertEquals(reason, r.getReason(), id);
            assertEquals(sequence, r.getSequence(), id);
            assertEquals(delta, r.getDelta(), id);
        }
    }

    @Test
    void subscriptionsOfOneAnswerShareEachContentWithTheirOwnIdsAndSequences() {
        FrontierConfig config = cpuConfig();
        config.setResultChunkVertices(70);   // complete answers in several chunks
        services = Fixtures.start(config);
        Random rnd = new Random(21);
        load(randomGraph(rnd, 300, 700));
        List<Integer> targets = List.of(FIRST + 1, FIRST + 2, FIRST + 50, FIRST + 299);
        feed("g", sssp("d1", 0, ResultMode.DELTA).build());
        feed("g", sssp("d2", 0, ResultMode.DELTA).build());
        feed("g", sssp("full", 0, ResultMode.FULL).build());
        feed("g", sssp("t1", 0, ResultMode.TARGETS).setTargets(targets).build());
        feed("g", sssp("t2", 0, ResultMode.TARGETS).setTargets(targets).build());
        feed("g", sssp("sum", 0, ResultMode.SUMMARY).build());
        feed("g", sssp("slow", 0, ResultMode.DELTA).setMinIntervalMs(1_000).build());
        feed("g", sssp("other", 5, ResultMode.DELTA).build());
        flush();
        for (String id : List.of("d1", "d2", "full", "t1", "t2", "sum", "slow", "other")) assertPush(pushed.get(id), id, PushReason.INITIAL, 0, false);
        assertSamePayload(pushed.get("d1"), pushed.get("full"), "a DELTA subscription's INITIAL is the FULL answer");
        assertSamePayload(pushed.get("d1"), pushed.get("d2"), "INITIAL of d1 and d2");
        assertSamePayload(pushed.get("t1"), pushed.get("t2"), "TARGETS with the same targets");
        // reading one push's buffers moves no other push's
        pushed.get("d1").get(0).getDistances().getDouble();
        assertEquals(pushed.get("d2").get(0).getDistances().remaining(), pushed.get("d1").get(0).getDistances().remaining() + Double.BYTES);

        long d1 = 0, full = 0, targetPushes = 0, slow = 0, lastSlow = now;
        for (int batch = 0; batch < 40; batch++) {
            for (int i = 1 + rnd.nextInt(3); i > 0; i--) feed("g", reweight(rnd));
            if (batch == 20) feed("g", sssp("late", 0, ResultMode.DELTA).build());
            now += 100;
            flush();
            if (batch == 20) {
                assertPush(pushed.get("late"), "late", PushReason.INITIAL, 0, false);
                if (pushed.containsKey("full")) assertSamePayload(pushed.get("late"), pushed.get("full"), "INITIAL beside a FULL UPDATE");
            }
            if (pushed.containsKey("d1")) {
                assertPush(pushed.get("d1"), "d1", PushReason.UPDATE, ++d1, true);
                assertPush(pushed.get("d2"), "d2", PushReason.UPDATE, d1, true);
                assertSamePayload(pushed.get("d1"), pushed.get("d2"), "DELTA of d1 and d2 after batch " + batch);
                assertPush(pushed.get("full"), "full", PushReason.UPDATE, ++full, false);
                if (batch > 20) assertSamePayload(pushed.get("d1"), pushed.get("late"), "DELTA of d1 and late after batch " + batch);
            } else {
                assertFalse(pushed.containsKey("d2") || pushed.containsKey("full"), "nothing changed, nothing pushed: " + pushed.keySet());
            }
            assertEquals(pushed.containsKey("t1"), pushed.containsKey("t2"));
            if (pushed.containsKey("t1")) {
                targetPushes++;
                assertSamePayload(pushed.get("t1"), pushed.get("t2"), "TARGETS after batch " + batch);
            }
            if (pushed.containsKey("slow")) {
                assertTrue(now - lastSlow >= 1_000, "slow pushes at most once a second");
                assertPush(pushed.get("slow"), "slow", PushReason.UPDATE, ++slow, true);
                lastSlow = now;
            }
            for (String id : List.of("d1", "d2", "full", "late")) if (views.containsKey(id)) assertCurrent(id, 0, "after batch " + batch);
            assertCurrent("other", 5, "after batch " + batch);
        }
        assertTrue(d1 > 20, "the answer changed in most batches: " + d1);
        assertTrue(targetPushes < d1, "TARGETS pushes only when a target changed");
        assertTrue(slow >= 2, "slow pushed its coalesced changes: " + slow);
        now += 1_000;
        flush();
        assertCurrent("slow", 0, "after its coalesced push");
    }

    @Test
    void underLagTheChangesOfSeveralBatchesLeaveAsOnePushOnceThePreviousIsAcknowledged() {
        Set<String> unacknowledged = new HashSet<>();
        FrontierConfig config = cpuConfig();
        services = Fixtures.start(config, new EngineService(config), unacknowledged::contains);
        load(Fixtures.edges(6, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1, 0, 5, 5, 5, 4, 5));
        feed("g", sssp("a", 0, ResultMode.DELTA).build());
        feed("g", sssp("b", 0, ResultMode.DELTA).build());
        unacknowledged.add("a");
        flush();
        assertPush(pushed.get("a"), "a", PushReason.INITIAL, 0, false);   // a complete push is never held back
        feed("g", reweight(1, 2, 3));   // 2, 3, 4 further
        now += 10;
        flush();
        assertFalse(pushed.containsKey("a"), "a's INITIAL is not acknowledged: its UPDATE waits");
        assertPush(pushed.get("b"), "b", PushReason.UPDATE, 1, true);
        feed("g", reweight(3, 4, 20));  // 4 now reached through 5
        now += 10;
        assertTrue(services.subscriptions().due(p -> true, now), "a's changes are due");
        flush();
        assertFalse(pushed.containsKey("a"));
        assertPush(pushed.get("b"), "b", PushReason.UPDATE, 2, true);
        unacknowledged.clear();
        now += 10;
        flush();
        assertPush(pushed.get("a"), "a", PushReason.UPDATE, 1, true);   // one push, the next number, both batches' changes
        assertEquals(services.registry().get("g").orElseThrow().version(), pushed.get("a").get(0).getGraphVersion());
        assertArrayEquals(new int[] {2 + FIRST, 3 + FIRST, 4 + FIRST}, PackedArrays.toIntArray(CompactArrays.expand(pushed.get("a").get(0)).getVertices()));
        assertCurrent("a", 0, "after the coalesced push");
        assertCurrent("b", 0, "after its two pushes");
    }

    @Test
    void aPollBatchOfManyUpdatesGivesOnePushPerSubscriptionCarryingTheNetChange() {
        services = Fixtures.start(cpuConfig());
        // a path 0 - 1 - 2 - 3 - 4 with a detour 0 - 5 - 4 of length 10
        load(Fixtures.edges(6, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1, 0, 5, 5, 5, 4, 5));
        feed("g", sssp("a", 0, ResultMode.DELTA).build());
        feed("g", sssp("b", 0, ResultMode.DELTA).build());
        feed("g", sssp("c", 4, ResultMode.FULL).build());
        flush();

        // a batch that undoes itself: nothing changed, nothing pushed
        feed("g", reweight(1, 2, 7));
        feed("g", reweight(1, 2, 1));
        now += 10;
        assertTrue(flush().results().isEmpty(), "a batch whose changes cancel out pushes nothing: " + pushed.keySet());

        // one poll batch of many updates: one push each, on the last version, with the net change only
        Random rnd = new Random(3);
        for (int i = 0; i < 60; i++) feed("g", i % 2 == 0 ? reweight(2, 3, 1 + rnd.nextInt(12)) : reweight(0, 1, 1 + rnd.nextInt(3)));
        feed("g", reweight(2, 3, 1));   // ... and back where they started
        feed("g", reweight(0, 1, 1));
        feed("g", reweight(3, 4, 20));  // the one net change: 4 is now reached through 5
        now += 10;
        flush();
        long version = services.registry().get("g").orElseThrow().version();
        for (String id : List.of("a", "b", "c")) {
            assertPush(pushed.get(id), id, PushReason.UPDATE, 1, !id.equals("c"));
            assertEquals(version, pushed.get(id).get(0).getGraphVersion(), id + " describes the batch's last version");
        }
        assertTrue(CompactArrays.isCompact(pushed.get("a").get(0)), "DELTA pushes are compact by default");
        CompactArrays.expand(pushed.get("a").get(0));
        assertArrayEquals(new int[] {4 + FIRST}, PackedArrays.toIntArray(pushed.get("a").get(0).getVertices()),
                "only vertex 4 changed in the end");
        assertArrayEquals(new double[] {10}, PackedArrays.toDoubleArray(pushed.get("a").get(0).getDistances()));
        assertArrayEquals(new int[] {5 + FIRST}, PackedArrays.toIntArray(pushed.get("a").get(0).getParents()));
        assertCurrent("a", 0, "after the batch");
        assertCurrent("c", 4, "after the batch");
    }

    @Test
    void verifyIncrementalReplacesARepairThatDiffersFromARecompute() {
        FrontierConfig config = cpuConfig();
        config.setVerifyIncremental(1.0);
        services = Fixtures.start(config);
        load(Fixtures.edges(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1));
        feed("g", sssp("a", 0, ResultMode.DELTA).build());
        feed("g", sssp("b", 0, ResultMode.FULL).build());
        flush();
        // a change the repairs never see, as a faulty repair would miss it (written into the graph's arrays, not through
        // an update, so the change log has no entry for it): the next repair differs from a recompute
        CsrGraph held = services.registry().get("g").orElseThrow().resident().mutable().current();
        held.weights()[held.findArc(1, 2)] = 5;
        held.weights()[held.findArc(2, 1)] = 5;
        feed("g", reweight(2, 3, 2));
        now += 10;
        flush();
        assertEquals(1.0, services.meters().get("frontier.subscriptions.mismatches").counter().count());
        assertPush(pushed.get("a"), "a", PushReason.RESYNC, 0, false);
        assertPush(pushed.get("b"), "b", PushReason.RESYNC, 0, false);
        assertArrayEquals(new double[] {0, 1, 6, 8}, views.get("a").distances());
        assertCurrent("a", 0, "after the RESYNC");
        feed("g", reweight(0, 1, 2));   // and on from the recomputed answer
        now += 10;
        flush();
        assertPush(pushed.get("a"), "a", PushReason.UPDATE, 1, true);
        assertCurrent("a", 0, "after the next update");
        assertEquals(1.0, services.meters().get("frontier.subscriptions.mismatches").counter().count());
    }

    @Test
    void aDeltaPushIsTheTargetsAnswerOverTheChangedVertices() {
        FrontierConfig config = cpuConfig();
        config.setResultChunkVertices(7);
        services = Fixtures.start(config);
        Random rnd = new Random(8);
        EdgeList edges = randomGraph(rnd, 120, 100);   // sparse: many vertices unreachable (parent -1)
        edges.add(0, 119, 3);
        load(edges);
        GraphEntry entry = services.registry().get("g").orElseThrow();
        for (StandingForm<?> standing : List.of(StandingForm.ALL.get(Algorithm.SSSP), StandingForm.ALL.get(Algorithm.BFS))) {
            assertDeltaIsTargets(standing, entry, config, rnd);
        }
    }

    private static <R> void assertDeltaIsTargets(StandingForm<R> standing, GraphEntry entry, FrontierConfig config, Random rnd) {
        GraphQuery q = query("q", "g", standing.algorithm(), FIRST).setResultMode(ResultMode.FULL).build();
        QueryContext c = new QueryContext(q, entry, entry.resident(), config);
        R result = standing.compute(c);
        for (int size : new int[] {1, 7, 20, 120}) {
            TreeSet<Integer> picked = new TreeSet<>();
            while (picked.size() < size) picked.add(rnd.nextInt(120));
            int[] vertices = picked.stream().mapToInt(Integer::intValue).toArray();
            Pending pending = new Pending();
            pending.add(Delta.ofVertices(vertices));
            List<QueryResult> delta = standing.delta(c, result, pending);
            assertEquals(compactedPlain(standing, c, result, pending, config), delta,
                    standing.algorithm() + ": written compact, the same bytes as the plain push compacted");
            for (QueryResult chunk : delta) {   // compact on the wire, the TARGETS answer once expanded
                assertTrue(CompactArrays.isCompact(chunk));
                CompactArrays.expand(chunk);
            }
            List<QueryResult> targets = standing.complete(c.over(vertices), result);
            assertEquals(targets, delta, standing.algorithm() + ": DELTA over " + size + " vertices");
        }
    }

    /** {@code standing}'s DELTA with plain arrays ({@code compact-delta: false}), each chunk then compacted. */
    static <R> List<QueryResult> compactedPlain(StandingForm<R> standing, QueryContext c, R result, Pending pending, FrontierConfig config) {
        config.getSubscriptions().setCompactDelta(false);
        try {
            List<QueryResult> plain = standing.delta(c, result, pending);
            for (QueryResult chunk : plain) {
                assertFalse(CompactArrays.isCompact(chunk));
                CompactArrays.compact(chunk);
            }
            return plain;
        } finally {
            config.getSubscriptions().setCompactDelta(true);
        }
    }

    @Test
    void oneRepairsChangesAreSharedUntilASecondArrives() {
        Pending p = new Pending();
        assertTrue(p.isEmpty());
        p.add(Delta.NONE);
        assertTrue(p.isEmpty(), "no change is nothing to push");
        Delta first = Delta.ofVertices(new int[] {2, 5, 9});
        p.add(first);
        assertSame(first, p.only(), "one repair's changes are held as they are");
        assertSame(first.vertices(), p.vertices());
        assertTrue(p.anyOf(new int[] {1, 9}));
        assertFalse(p.anyOf(new int[] {1, 3, 10}));
        p.add(Delta.ofVertices(new int[] {1, 5}));
        assertNull(p.only(), "two repairs' changes are merged");
        assertArrayEquals(new int[] {1, 2, 5, 9}, p.vertices());
        assertArrayEquals(new int[] {2, 5, 9}, first.vertices(), "merging leaves the shared changes alone");
        assertTrue(p.anyOf(new int[] {1}));
        p.markAll();
        assertTrue(p.all());
        assertNull(p.only());
        p.clear();
        assertTrue(p.isEmpty());

        long e = Delta.pair(3, 1);
        Pending m = new Pending();
        Delta joined = Delta.ofEdges(new long[] {e}, new double[] {4});
        m.add(joined);
        assertSame(joined, m.only());
        assertEquals(Map.of(e, 4.0), m.edges());
        m.add(Delta.ofEdges(new long[] {e, Delta.pair(7, 8)}, new double[] {Double.NaN, 2}));
        assertTrue(m.edges().get(e).isNaN(), "the last operation on an edge counts");
        assertEquals(2, m.edges().size());
        assertEquals(Arrays.toString(new int[0]), Arrays.toString(m.vertices()));
    }
}
