package org.frontiergraph.worker.subscription;

import static org.frontiergraph.worker.support.Fixtures.cpuConfig;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.standing.CcKind;
import org.frontiergraph.kernels.standing.Delta;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.ComponentChangeKind;
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
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Standing CC through the worker (CPU engine, records in and pushes out as Avro bytes): after every batch of random
 * removals that split components and additions that join them, each DELTA push applied to the subscriber's previous
 * answer gives the answer of a fresh CC query, and its merges and splits are those derived by brute force from the two
 * label arrays; a throttled subscription's coalesced push lists the batches' events in order with the vertices' latest
 * labels; FULL and TARGETS pushes are the complete answers; SUMMARY pushes only when the count or the largest size
 * changed; a bridge removed is a SPLIT naming both sides, an edge joining two components a MERGED.
 */
class CcSubscriptionTest {
    private static final int FIRST = 100;

    private Fixtures.Services services;
    private long offset;
    private long now = 1_000_000;
    private final Map<String, SubscriptionView> views = new HashMap<>();
    private final Map<String, List<QueryResult>> pushed = new LinkedHashMap<>();

    @AfterEach
    void close() {
        if (services != null) services.close();
    }

    private void feed(SpecificRecord r) {
        Outputs out = services.processor().process(
                new InputRecord("frontier.graphs", 0, offset++, "g", FrontierCodec.encode(r), now), false);
        assertTrue(out.errors().isEmpty(), () -> "rejected: " + out.errors());
    }

    private void flush() {
        pushed.clear();
        Outputs out = services.processor().flushSubscriptions(p -> true, now);
        assertTrue(out.errors().isEmpty(), () -> "errors: " + out.errors());
        for (QueryResult r : out.results()) {
            QueryResult decoded;
            try {
                decoded = FrontierCodec.decode(FrontierCodec.encode(r), QueryResult.class);
            } catch (FrontierCodec.MalformedMessageException e) {
                throw new AssertionError(e);
            }
            pushed.computeIfAbsent(r.getQueryId(), id -> new ArrayList<>()).add(decoded);
            assertTrue(views.computeIfAbsent(r.getQueryId(), id -> new SubscriptionView()).apply(decoded),
                    "push " + r.getReason() + " #" + r.getSequence() + " of " + r.getQueryId() + " was refused");
        }
    }

    private static Subscription.Builder cc(String id, ResultMode mode) {
        return Subscription.newBuilder().setSubscriptionId(id).setGraphId("g").setAlgorithm(Algorithm.CC).setResultMode(mode);
    }

    private CsrGraph graph() {
        return services.registry().get("g").orElseThrow().resident().mutable().current();
    }

    /** A fresh CC query's labels, by dense position, and its header. */
    private QueryResult fresh(int[] labels) {
        GraphQuery q = query("check", "g", Algorithm.CC, null).setResultMode(ResultMode.FULL).build();
        List<QueryResult> chunks = services.queries().answer(q).chunks();
        assertEquals(ResultStatus.OK, chunks.get(0).getStatus());
        for (QueryResult c : chunks) {
            int[] l = PackedArrays.toIntArray(c.getLabels());
            for (int i = 0; i < l.length; i++) labels[c.getOffset() + i] = l[i] - FIRST;
        }
        return chunks.get(0);
    }

    private void assertCurrent(String id, String when) {
        int[] labels = new int[graph().vertexCount()];
        QueryResult head = fresh(labels);
        SubscriptionView view = views.get(id);
        assertArrayEquals(labels, Arrays.copyOf(view.labels(), view.vertexCount()), id + " labels " + when);
        assertEquals(labels.length, view.vertexCount(), id + " " + when);
        assertEquals(head.getComponents(), view.components(), id + " components " + when);
        assertEquals(head.getLargestComponent(), view.largestComponent(), id + " largest " + when);
    }

    /** A removal of an existing edge or an addition between two random vertices (not yet adjacent); user ids out. */
    private GraphUpdate randomUpdate(Random rnd) {
        CsrGraph g = graph();
        if (rnd.nextInt(10) < 6 && g.arcCount() > 0) {
            int arc = rnd.nextInt(g.arcCount());
            return GraphUpdate.newBuilder().setGraphId("g")
                    .setRemoved(Fixtures.pairs(g.sourceOf(arc) + FIRST, g.columns()[arc] + FIRST)).build();
        }
        int u, v;
        do {
            u = rnd.nextInt(g.vertexCount());
            v = rnd.nextInt(g.vertexCount());
        } while (u == v || g.findArc(u, v) >= 0);
        return GraphUpdate.newBuilder().setGraphId("g").setAdded(Fixtures.weighted(u + FIRST, v + FIRST, 1)).build();
    }

    /** The merges and splits from {@code before} to {@code after} by brute force, in user ids, merges first. */
    private static List<String> events(int[] before, int[] after) {
        TreeMap<Integer, TreeSet<Integer>> from = new TreeMap<>(), into = new TreeMap<>();
        for (int x = 0; x < after.length; x++) {
            int o = x < before.length ? before[x] : x;
            from.computeIfAbsent(after[x], k -> new TreeSet<>()).add(o);
            into.computeIfAbsent(o, k -> new TreeSet<>()).add(after[x]);
        }
        List<String> out = new ArrayList<>();
        from.forEach((k, s) -> { if (s.size() > 1) out.add(text(true, k, s)); });
        into.forEach((k, s) -> { if (s.size() > 1) out.add(text(false, k, s)); });
        return out;
    }

    private static String text(boolean merged, int label, TreeSet<Integer> parts) {
        return (merged ? "MERGED " : "SPLIT ") + (label + FIRST) + " " + parts.stream().map(p -> p + FIRST).toList();
    }

    /** The component changes of a push, over its chunks in order (every chunk of a CC DELTA holds a list). */
    private static List<ComponentChange> changes(List<QueryResult> push) {
        List<ComponentChange> all = new ArrayList<>();
        for (QueryResult c : push) all.addAll(c.getComponentChanges());
        return all;
    }

    private static List<String> text(List<ComponentChange> changes) {
        List<String> out = new ArrayList<>();
        for (ComponentChange c : changes) {
            out.add(c.getKind() + " " + c.getLabel() + " " + Arrays.stream(PackedArrays.toIntArray(c.getParts())).boxed().toList());
        }
        return out;
    }

    @Test
    void deltaPushesAppliedToThePreviousAnswerGiveAFreshQuerysAnswer() {
        FrontierConfig config = cpuConfig();
        config.setResultChunkVertices(40);   // complete answers and large deltas in several chunks
        services = Fixtures.start(config);
        Random rnd = new Random(28);
        int n = 300;
        EdgeList edges = new EdgeList(n, false, 330);
        while (edges.size() < 330) {
            int u = rnd.nextInt(n), v = rnd.nextInt(n);
            if (u != v) edges.add(u, v, 1);
        }
        for (var c : Fixtures.snapshot("g", 1, edges, FIRST, 500)) feed(c);
        List<Integer> targets = List.of(FIRST, FIRST + 7, FIRST + 150, FIRST + 299);
        feed(cc("d", ResultMode.DELTA).build());
        feed(cc("slow", ResultMode.DELTA).setMinIntervalMs(1_000).build());
        feed(cc("full", ResultMode.FULL).build());
        feed(cc("t", ResultMode.TARGETS).setTargets(targets).build());
        feed(cc("sum", ResultMode.SUMMARY).build());
        flush();
        for (String id : List.of("d", "slow", "full", "t", "sum")) assertEquals(PushReason.INITIAL, pushed.get(id).get(0).getReason(), id);
        assertCurrent("d", "at first");

        List<String> slowExpected = new ArrayList<>();
        int splits = 0, merges = 0, slowPushes = 0, sumPushes = 0, coalesced = 0, sinceSlow = 0;
        long lastSlow = now;
        for (int batch = 0; batch < 60; batch++) {
            int[] before = Arrays.copyOf(views.get("d").labels(), views.get("d").vertexCount());
            Long count = views.get("sum").components(), largest = views.get("sum").largestComponent();
            for (int i = 1 + rnd.nextInt(batch % 7 == 0 ? 12 : 2); i > 0; i--) feed(randomUpdate(rnd));
            now += 100;
            flush();
            String when = "after batch " + batch;
            int[] after = new int[graph().vertexCount()];
            QueryResult head = fresh(after);
            List<String> expected = events(before, after);
            if (pushed.containsKey("d")) {
                List<QueryResult> push = pushed.get("d");
                assertTrue(push.get(0).getDelta(), when);
                assertEquals(expected, text(changes(push)), when + ": merges and splits");
                assertEquals(expected, text(views.get("d").componentChanges()), when + ": the view's");
                for (String e : expected) {
                    if (e.startsWith("SPLIT")) splits++;
                    else merges++;
                }
                assertTrue(pushed.containsKey("full"), "FULL pushes when the labels changed");
                assertFalse(pushed.get("full").get(0).getDelta());
            } else {
                assertArrayEquals(before, after, when + ": no push, no change");
            }
            slowExpected.addAll(expected);
            sinceSlow += expected.isEmpty() ? 0 : 1;
            if (pushed.containsKey("slow")) {
                assertTrue(now - lastSlow >= 1_000, "slow pushes at most once a second");
                assertEquals(slowExpected, text(changes(pushed.get("slow"))),
                        when + ": the coalesced push lists each batch's events in order");
                if (sinceSlow > 1) coalesced++;
                slowExpected.clear();
                sinceSlow = 0;
                slowPushes++;
                lastSlow = now;
                assertCurrent("slow", when);
            }
            boolean summaryChanged = !head.getComponents().equals(count) || !head.getLargestComponent().equals(largest);
            assertEquals(summaryChanged, pushed.containsKey("sum"), when + ": SUMMARY pushes when the count or largest changed");
            if (pushed.containsKey("sum")) sumPushes++;
            assertCurrent("d", when);
            assertCurrent("full", when);
            int[] held = views.get("t").labels();
            for (int t : targets) assertEquals(after[t - FIRST], held[t - FIRST], when + ": target " + t);
        }
        int s = splits, m = merges, c = coalesced;
        assertTrue(s > 5 && m > 5, () -> "splits " + s + ", merges " + m);
        assertTrue(c > 0, "some slow push coalesced several batches");
        assertTrue(slowPushes >= 3 && sumPushes > 0);
        now += 1_000;
        flush();
        assertCurrent("slow", "after its last coalesced push");
    }

    @Test
    void aBridgeRemovedIsASplitAndAnEdgeBetweenTwoComponentsAMerge() {
        services = Fixtures.start(cpuConfig());
        // 0 - 1 - 2 - 3 - 4, and 5 alone
        for (var c : Fixtures.snapshot("g", 1, Fixtures.edges(6, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1), FIRST, 500)) feed(c);
        feed(cc("d", ResultMode.DELTA).build());
        flush();
        assertEquals(2L, views.get("d").components());
        feed(GraphUpdate.newBuilder().setGraphId("g").setRemoved(Fixtures.pairs(2 + FIRST, 3 + FIRST)).build());
        now += 10;
        flush();
        QueryResult split = pushed.get("d").get(0);
        assertEquals(List.of("SPLIT 100 [100, 103]"), text(split.getComponentChanges()));
        assertArrayEquals(new int[] {103, 104}, PackedArrays.toIntArray(split.getVertices()));
        assertArrayEquals(new int[] {103, 103}, PackedArrays.toIntArray(split.getLabels()));
        assertEquals(3L, split.getComponents());
        assertEquals(3L, split.getLargestComponent());
        assertCurrent("d", "after the bridge went");
        feed(GraphUpdate.newBuilder().setGraphId("g").setAdded(Fixtures.weighted(5 + FIRST, 4 + FIRST, 1)).build());
        now += 10;
        flush();
        QueryResult merged = pushed.get("d").get(0);
        assertEquals(List.of("MERGED 103 [103, 105]"), text(merged.getComponentChanges()));
        assertEquals(ComponentChangeKind.MERGED, merged.getComponentChanges().get(0).getKind());
        assertArrayEquals(new int[] {105}, PackedArrays.toIntArray(merged.getVertices()));
        assertEquals(2L, merged.getComponents());
        assertCurrent("d", "after the merge");
        // an edge inside one component: the screen sets the answer aside, nothing is pushed
        feed(GraphUpdate.newBuilder().setGraphId("g").setAdded(Fixtures.weighted(0 + FIRST, 2 + FIRST, 1)).build());
        now += 10;
        flush();
        assertFalse(pushed.containsKey("d"), "an edge inside one component changes no label: no push");
    }

    @Test
    void manyChangesAreSpreadOverTheChunksInOrder() {
        FrontierConfig config = cpuConfig();
        config.setResultChunkVertices(4);   // two parts of changes a chunk: one change each
        services = Fixtures.start(config);
        for (var c : Fixtures.snapshot("g", 1, Fixtures.edges(6, false, 0, 1, 1, 2, 3, 1), FIRST, 500)) feed(c);
        GraphEntry entry = services.registry().get("g").orElseThrow();
        GraphQuery q = query("q", "g", Algorithm.CC, null).setResultMode(ResultMode.FULL).build();
        QueryContext c = new QueryContext(q, entry, entry.resident(), config);
        StandingForm<CcResult> form = new CcForm();
        CcResult result = form.compute(c);
        Pending pending = new Pending();
        pending.add(Delta.ofVertices(new int[] {1}, List.of(new CcKind.ComponentChange(false, 0, new int[] {0, 1}))));
        pending.add(Delta.ofVertices(new int[] {1, 3, 5}, List.of(new CcKind.ComponentChange(true, 0, new int[] {0, 1}),
                new CcKind.ComponentChange(false, 2, new int[] {2, 3}), new CcKind.ComponentChange(true, 4, new int[] {4, 5}))));
        List<QueryResult> chunks = form.delta(c, result, pending);
        assertEquals(4, chunks.size(), "one change a chunk; the three vertices fit one");
        assertEquals(SubscriptionPushesTest.compactedPlain(form, c, result, pending, config), chunks,
                "written compact, the same bytes as the plain push compacted");
        assertEquals(List.of("SPLIT 100 [100, 101]", "MERGED 100 [100, 101]", "SPLIT 102 [102, 103]", "MERGED 104 [104, 105]"),
                text(changes(chunks)), "in the order of the repairs");
        for (QueryResult chunk : chunks) assertEquals(1, CompactArrays.expand(chunk).getComponentChanges().size());
        assertArrayEquals(new int[] {101, 103, 105}, PackedArrays.toIntArray(chunks.get(0).getVertices()));
        assertEquals(0, PackedArrays.toIntArray(chunks.get(3).getVertices()).length);
    }

    @Test
    void aCcSubscriptionNamingASourceEnds() {
        services = Fixtures.start(cpuConfig());
        for (var c : Fixtures.snapshot("g", 1, Fixtures.edges(3, false, 0, 1, 1), FIRST, 500)) feed(c);
        feed(cc("s", ResultMode.DELTA).setSource(FIRST).build());
        pushed.clear();
        Outputs out = services.processor().flushSubscriptions(p -> true, now);
        assertEquals(PushReason.END, out.results().get(0).getReason());
        assertEquals(ResultStatus.INVALID_QUERY, out.results().get(0).getStatus());
    }
}
