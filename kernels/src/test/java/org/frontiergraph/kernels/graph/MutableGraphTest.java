package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random update streams (re-weights, removals, additions, new vertices, invalid edits mixed in) applied to a
 * MutableGraph give, after every batch, exactly the graph GraphEdit gives (the reference: it rebuilds the whole CSR)
 * and the graph built from scratch from the same edges; an invalid update is refused with GraphEdit's kind and
 * changes nothing; queries on the CPU engine after every batch pass the verifiers.
 */
class MutableGraphTest {
    private static final int[] NONE = {};
    private static final double[] NO_WEIGHTS = {};

    static void assertSameGraph(CsrGraph expected, CsrGraph actual, String what) {
        assertEquals(expected.vertexCount(), actual.vertexCount(), what + ": vertices");
        assertEquals(expected.edgeCount(), actual.edgeCount(), what + ": edges");
        assertEquals(expected.integralWeights(), actual.integralWeights(), what + ": integral");
        assertArrayEquals(expected.rowOffsets(), actual.rowOffsets(), what + ": rows");
        assertArrayEquals(expected.columns(), actual.columns(), what + ": columns");
        assertArrayEquals(expected.weights(), actual.weights(), what + ": weights");
        assertArrayEquals(expected.arcEdgeIds(), actual.arcEdgeIds(), what + ": edge ids");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void randomUpdateStreamsEqualTheReferenceAfterEveryBatch(boolean directed) {
        Random rnd = new Random(directed ? 81 : 82);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(60, 180, directed ? 3 : 4, 20, directed));
        CsrGraph reference = start;
        MutableGraph g = new MutableGraph(UpdateStreams.rebuilt(start, start.vertexCount()));
        int accepted = 0, refused = 0;
        try (ComputeBackend cpu = Backends.cpu()) {
            for (int batch = 0; batch < 60; batch++) {
                int updates = 1 + rnd.nextInt(6);
                for (int i = 0; i < updates; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, reference, batch % 3 != 0);
                    CsrGraph expected;
                    InvalidGraphException expectedError = null;
                    try {
                        CsrGraph base = UpdateStreams.grown(reference, e.addedVertices());
                        expected = GraphEdit.apply(base, e.removeU(), e.removeV(), e.reweightU(), e.reweightV(),
                                e.reweightW(), e.addU(), e.addV(), e.addW());
                    } catch (InvalidGraphException x) {
                        expected = null;
                        expectedError = x;
                    }
                    long edgesBefore = g.edgeCount();
                    int verticesBefore = g.vertexCount();
                    if (expectedError != null) {
                        InvalidGraphException got = assertThrows(InvalidGraphException.class, () -> g.apply(e, 0, Long.MAX_VALUE));
                        assertEquals(expectedError.kind(), got.kind(), got.getMessage());
                        assertEquals(edgesBefore, g.edgeCount(), "a refused update changes nothing");
                        assertEquals(verticesBefore, g.vertexCount(), "a refused update changes nothing");
                        refused++;
                    } else {
                        g.apply(e, 0, Long.MAX_VALUE);
                        reference = expected;
                        assertEquals(reference.edgeCount(), g.edgeCount(), "edge count without a merge");
                        assertEquals(reference.vertexCount(), g.vertexCount());
                        accepted++;
                    }
                }
                CsrGraph now = g.current();
                assertSameGraph(reference, now, "batch " + batch);
                assertSameGraph(UpdateStreams.rebuilt(reference, reference.vertexCount()), now, "batch " + batch + " from scratch");
                queriesPassTheVerifiers(cpu, now, batch);
            }
        }
        assertTrue(accepted > 100 && refused > 30, "both kinds seen: " + accepted + " accepted, " + refused + " refused");
    }

    /**
     * Bigger batches than above: updates of up to a few hundred edits (removals of distinct edges, re-weights, additions
     * of random pairs, some onto existing edges or loops, some to new vertices) and runs of up to 200 updates between
     * merges, invalid updates mixed in, on a graph large enough that a merge's edge-id shift spans many buckets. After
     * every run the merged graph equals GraphEdit's array for array, and the one built from scratch; the MST edge list
     * cached on the base follows the merges.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void bulkUpdateStreamsEqualTheReferenceAfterEveryRun(boolean directed) {
        Random rnd = new Random(directed ? 91 : 92);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(1_500, 6_000, directed ? 13 : 14, 20, directed));
        CsrGraph reference = start;
        MutableGraph g = new MutableGraph(UpdateStreams.rebuilt(start, start.vertexCount()));
        ChangeLog.Cursor cursor = g.log().cursor(ChangeLog.Detail.VERSIONS);   // arcs and merges recorded
        int[] runs = {1, 3, 200, 1, 40, 2, 120, 1, 8, 60};
        int accepted = 0, refused = 0;
        for (int run = 0; run < runs.length; run++) {
            if (!directed) g.current().undirectedEdges();   // cached: the merge moves it along
            for (int i = 0; i < runs[run]; i++) {
                EdgeEdits e = rnd.nextInt(4) == 0 ? UpdateStreams.randomUpdate(rnd, reference, rnd.nextBoolean())
                        : bulkUpdate(rnd, reference, i == 0 && run % 3 == 1 ? 10_000 + rnd.nextInt(4_000)   // keys checked on all cores
                        : 1 + rnd.nextInt(i % 7 == 0 ? 400 : 20));
                CsrGraph expected = null;
                try {
                    expected = GraphEdit.apply(UpdateStreams.grown(reference, e.addedVertices()), e.removeU(), e.removeV(),
                            e.reweightU(), e.reweightV(), e.reweightW(), e.addU(), e.addV(), e.addW());
                } catch (InvalidGraphException x) {
                    InvalidGraphException got = assertThrows(InvalidGraphException.class, () -> g.apply(e, 0, Long.MAX_VALUE));
                    assertEquals(x.kind(), got.kind(), got.getMessage());
                    assertEquals(reference.edgeCount(), g.edgeCount(), "a refused update changes nothing");
                    refused++;
                    continue;
                }
                g.apply(e, 0, Long.MAX_VALUE);
                reference = expected;
                assertEquals(reference.edgeCount(), g.edgeCount(), "edge count without a merge, run " + run);
                accepted++;
            }
            CsrGraph now = g.current();
            Changes read = cursor.read();
            assertFalse(read.restart(), "the log kept the run, run " + run);
            assertTrue(read.merges().size() <= 1, "one merge at most per run, run " + run);
            assertTrue(read.merges().isEmpty() || read.structural(), "a merge follows structural updates, run " + run);
            assertSameGraph(reference, now, "run " + run + " (seed " + (directed ? 91 : 92) + ")");
            assertSameGraph(UpdateStreams.rebuilt(reference, reference.vertexCount()), now, "run " + run + " from scratch");
            if (!directed) {
                UndirectedEdges cached = now.undirectedEdges(), fresh = UpdateStreams.rebuilt(now, now.vertexCount()).undirectedEdges();
                assertArrayEquals(fresh.u, cached.u, "cached MST edge list, run " + run);
                assertArrayEquals(fresh.v, cached.v, "cached MST edge list, run " + run);
                assertArrayEquals(fresh.w, cached.w, "cached MST edge list, run " + run);
            }
        }
        assertTrue(accepted > 200 && refused > 10, "both kinds seen: " + accepted + " accepted, " + refused + " refused");
    }

    /**
     * A bulk update large enough that its edge keys are checked on all cores: one bad weight among 12,000 edits refuses
     * the whole update and changes nothing; without it, the update applies and equals GraphEdit's.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLargeBulkUpdateIsRefusedWholeForOneBadEdit(boolean directed) {
        Random rnd = new Random(directed ? 93 : 94);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(3_000, 12_000, directed ? 15 : 16, 20, directed));
        MutableGraph g = new MutableGraph(UpdateStreams.rebuilt(start, start.vertexCount()));
        int k = 12_000;
        int[] au = new int[k], av = new int[k];
        double[] aw = new double[k];
        for (int i = 0; i < k; i++) {
            au[i] = rnd.nextInt(3_000);
            av[i] = rnd.nextInt(3_000);
            aw[i] = 1 + rnd.nextInt(50);
        }
        double[] bad = aw.clone();
        bad[k - 7] = Double.NaN;
        EdgeEdits refused = new EdgeEdits(0, new int[0], new int[0], new int[0], new int[0], new double[0], au, av, bad);
        assertThrows(InvalidGraphException.class, () -> g.apply(refused, 0, Long.MAX_VALUE));
        assertEquals(start.edgeCount(), g.edgeCount(), "a refused update changes nothing");
        assertSameGraph(start, g.current(), "after the refused update");
        EdgeEdits good = new EdgeEdits(0, new int[0], new int[0], new int[0], new int[0], new double[0], au, av, aw);
        g.apply(good, 0, Long.MAX_VALUE);
        CsrGraph expected = GraphEdit.apply(start, new int[0], new int[0], new int[0], new int[0], new double[0], au, av, aw);
        assertEquals(expected.edgeCount(), g.edgeCount());
        assertSameGraph(expected, g.current(), "after the good update");
    }

    /**
     * k edits of {@code g}: removals of distinct edges, re-weights of others (some twice), additions of random pairs
     * (existing edges and loops among them), sometimes to a few new vertices; one in eight carries a mistake.
     */
    private static EdgeEdits bulkUpdate(Random rnd, CsrGraph g, int k) {
        boolean weightsOnly = rnd.nextInt(4) == 0;   // re-weights only, some edges twice (the last one wins)
        int grow = !weightsOnly && rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(3) : 0, n = g.vertexCount() + grow;
        List<int[]> rem = new ArrayList<>(), rew = new ArrayList<>(), add = new ArrayList<>();
        List<Double> rw = new ArrayList<>(), aw = new ArrayList<>();
        Set<Long> removed = new HashSet<>();
        for (int i = 0; i < k; i++) {
            int kind = weightsOnly ? 1 : rnd.nextInt(3);
            if (kind != 2 && g.arcCount() == 0) continue;
            if (kind == 2) {
                int[] e = rnd.nextInt(8) == 0 && g.arcCount() > 0 ? UpdateStreams.randomArc(rnd, g)
                        : new int[] {rnd.nextInt(n), rnd.nextInt(n)};
                add.add(e);
                aw.add(rnd.nextInt(5) == 0 ? rnd.nextDouble() * 30 : (double) rnd.nextInt(30));
                continue;
            }
            int[] e = UpdateStreams.flip(rnd, UpdateStreams.randomArc(rnd, g), g);
            long key = g.directed() || e[0] < e[1] ? ((long) e[0] << 32) | e[1] : ((long) e[1] << 32) | e[0];
            if (removed.contains(key)) continue;
            if (kind == 0 && rnd.nextInt(4) != 0) {
                removed.add(key);
                rem.add(e);
            } else {
                rew.add(e);
                rw.add((double) rnd.nextInt(40));
            }
        }
        if (rnd.nextInt(8) == 0) {
            switch (weightsOnly ? 2 + rnd.nextInt(2) : rnd.nextInt(4)) {
                case 0 -> { add.add(new int[] {0, n + 3}); aw.add(1.0); }                         // INVALID_VERTEX
                case 1 -> { if (!rem.isEmpty()) { rew.add(rem.get(0)); rw.add(1.0); } }          // removed and re-weighted
                case 2 -> { rew.add(new int[] {1, 1}); rw.add(2.0); }                             // INVALID_EDGE
                default -> { if (!rw.isEmpty()) rw.set(rw.size() / 2, -1.0); }                    // INVALID_WEIGHT
            }
        }
        return new EdgeEdits(grow, UpdateStreams.us(rem), UpdateStreams.vs(rem), UpdateStreams.us(rew), UpdateStreams.vs(rew),
                rw.stream().mapToDouble(d -> d).toArray(), UpdateStreams.us(add), UpdateStreams.vs(add),
                aw.stream().mapToDouble(d -> d).toArray());
    }

    private static void queriesPassTheVerifiers(ComputeBackend cpu, CsrGraph now, int batch) {
        CsrGraph copy = UpdateStreams.rebuilt(now, now.vertexCount());   // the resident graph takes its graph over
        try (ResidentGraph r = cpu.load(copy)) {
            int s = batch % now.vertexCount();
            SsspResult sssp = Sssp.run(r, s, null);
            assertTrue(SsspVerifier.verify(now, s, sssp, DijkstraReference.run(now, s)).ok(), "sssp after batch " + batch);
            BfsResult bfs = Bfs.run(r, s, null);
            assertTrue(BfsVerifier.verify(now, s, bfs, BfsReference.run(now, s)).ok(), "bfs after batch " + batch);
            MstResult mst = Mst.run(r, null);
            assertTrue(MstVerifier.verify(now, mst, KruskalReference.run(now)).ok(), "mst after batch " + batch);
        }
    }

    @Test
    void reweightsChangeTheBaseInPlaceAndAreListedForTheDevice() {
        CsrGraph g0 = GraphBuilder.build(UniformRandomGraph.generate(200, 1_000, 5, 9, false));
        MutableGraph g = new MutableGraph(g0);
        ChangeLog.Cursor cursor = g.log().cursor(ChangeLog.Detail.VERSIONS);
        UndirectedEdges edges = g0.undirectedEdges();
        int u = 0;
        while (g0.degree(u) == 0) u++;
        int v = g0.columns()[g0.rowStart(u)];
        g.apply(EdgeEdits.reweight(v, u, 123), 0, Long.MAX_VALUE);
        assertSame(g0, g.current(), "no merge for a re-weight");
        assertEquals(123, g0.weights()[g0.findArc(u, v)]);
        assertEquals(123, g0.weights()[g0.findArc(v, u)]);
        assertEquals(123, edges.w[g0.arcEdgeIds()[g0.findArc(u, v)]], "the cached MST edge list follows");
        ChangeLog.WeightChanges c = cursor.read().reweighted();
        assertFalse(c.all());
        Set<Integer> arcs = new HashSet<>();
        for (int a : c.arcs()) arcs.add(a);
        assertEquals(Set.of(g0.findArc(u, v), g0.findArc(v, u)), arcs);
        assertTrue(cursor.read().reweighted().isEmpty(), "read");
        double sum = 0;
        for (double w : g0.weights()) sum += w;
        assertEquals(sum, g0.weightSum(), 1e-9);
        g.apply(EdgeEdits.reweight(u, v, 0.5), 0, Long.MAX_VALUE);
        assertFalse(g0.integralWeights(), "a fractional weight is noticed");
        g.apply(EdgeEdits.reweight(u, v, 2), 0, Long.MAX_VALUE);
        assertTrue(g0.integralWeights(), "and its end too");
    }

    @Test
    void directedReweightsPatchTheCachedTranspose() {
        CsrGraph g0 = GraphBuilder.build(UniformRandomGraph.generate(100, 600, 6, 9, true));
        CsrGraph t = g0.transpose();
        MutableGraph g = new MutableGraph(g0);
        int u = 0;
        while (g0.degree(u) == 0) u++;
        int v = g0.columns()[g0.rowStart(u)];
        g.apply(EdgeEdits.reweight(u, v, 77), 0, Long.MAX_VALUE);
        assertSame(t, g0.transpose());
        assertEquals(77, t.weights()[t.findArc(v, u)]);
        assertArrayEquals(GraphBuilder.transpose(g0).weights(), t.weights());
    }

    @Test
    void structuralChangesMergeOnceForARunOfUpdates() {
        CsrGraph g0 = GraphBuilder.build(UniformRandomGraph.generate(50, 100, 7, 9, false));
        MutableGraph g = new MutableGraph(g0);
        for (int i = 0; i < 10; i++) g.apply(EdgeEdits.add(new int[] {i}, new int[] {49 - i}, new double[] {1}), 0, Long.MAX_VALUE);
        assertTrue(g.pendingStructure());
        CsrGraph merged = g.current();
        assertNotSame(g0, merged);
        assertSame(merged, g.current(), "merged once");
        assertFalse(g.pendingStructure());
    }

    @Test
    void growingGraphsTakeNewVerticesAndEdgesToThem() {
        CsrGraph g0 = GraphBuilder.build(UniformRandomGraph.generate(10, 20, 8, 9, false));
        MutableGraph g = new MutableGraph(g0);
        g.apply(new EdgeEdits(2, NONE, NONE, NONE, NONE, NO_WEIGHTS, new int[] {3, 10}, new int[] {10, 11},
                new double[] {4, 5}), 100, Long.MAX_VALUE);
        CsrGraph now = g.current();
        assertEquals(12, now.vertexCount());
        assertEquals(4, now.weights()[now.findArc(10, 3)]);
        assertEquals(5, now.weights()[now.findArc(11, 10)]);
        InvalidGraphException e = assertThrows(InvalidGraphException.class, () -> g.apply(
                EdgeEdits.add(new int[] {0}, new int[] {12}, new double[] {1}), 100, Long.MAX_VALUE));
        assertEquals(InvalidGraphException.Kind.INVALID_VERTEX, e.kind());
        assertTrue(e.getMessage().contains("(100, 112)") && e.getMessage().contains("100..111"), e.getMessage());
    }

    @Test
    void theEdgeLimitRefusesAnUpdateWhole() {
        CsrGraph g0 = GraphBuilder.build(UniformRandomGraph.generate(10, 20, 9, 9, false));
        MutableGraph g = new MutableGraph(g0);
        long m = g.edgeCount();
        InvalidGraphException e = assertThrows(InvalidGraphException.class, () -> g.apply(
                EdgeEdits.add(new int[] {0, 1}, new int[] {9, 8}, new double[] {1, 1}), 0, m));
        assertEquals(InvalidGraphException.Kind.TOO_LARGE, e.kind());
        assertEquals(m, g.edgeCount());
        assertFalse(g.pendingStructure());
    }

    @Test
    void aSnapshotIsNotTouchedByLaterReweights() {
        CsrGraph g0 = GraphBuilder.build(UniformRandomGraph.generate(20, 60, 10, 9, true));
        MutableGraph g = new MutableGraph(g0);
        CsrGraph snap = g.snapshot();
        double[] before = snap.weights().clone();
        int u = 0;
        while (g0.degree(u) == 0) u++;
        g.apply(EdgeEdits.reweight(u, g0.columns()[g0.rowStart(u)], 1234), 0, Long.MAX_VALUE);
        assertArrayEquals(before, snap.weights());
    }

    @Test
    void sourceOfFindsTheRowOfEveryArcPastEmptyRows() {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(300, 200, 11, 9, true));   // many empty rows
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) assertEquals(u, g.sourceOf(a));
        }
    }
}
