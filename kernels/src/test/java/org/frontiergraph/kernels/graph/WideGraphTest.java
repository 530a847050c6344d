package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The wide form of a graph (64-bit row offsets, arcs in pages: what a graph of more than 2^31 - 8 arcs is held as)
 * answers every host method exactly as the same graph indexed by int does: the graphs made with {@link CsrGraph#widen}
 * at page sizes 1, 7, 64 and larger than the graph, on random graphs with parallel arcs, self-loops and isolated
 * vertices, directed and undirected, and on a shipped dataset; re-weights and structural updates of a wide
 * {@link MutableGraph} give the same versions, transposes, undirected edge lists and change logs as the narrow one's,
 * and so do those of a graph that updates grow past the int limit (lowered for the test) into the wide form.
 */
class WideGraphTest {
    static final int[] PAGES = {1, 7, 64, 1 << 20};

    static Stream<Arguments> forms() {
        return Stream.of(false, true).flatMap(d -> Arrays.stream(PAGES).mapToObj(p -> Arguments.of(d, p)));
    }

    /** A random graph: n vertices (some isolated), m edges drawn with repeats (parallel arcs) and self-loops. */
    static CsrGraph random(Random rnd, int n, int m, boolean directed) {
        EdgeList e = new EdgeList(n, directed, m);
        int used = Math.max(2, n - n / 5);   // the last fifth of the vertices stay isolated
        for (int i = 0; i < m; i++) {
            int u = rnd.nextInt(used), v = rnd.nextInt(8) == 0 ? u : rnd.nextInt(used);
            double w = rnd.nextInt(6) == 0 ? rnd.nextDouble() * 9 : rnd.nextInt(12);
            e.add(u, v, w);
            if (rnd.nextInt(5) == 0) e.add(u, v, w + rnd.nextInt(3));   // a parallel arc
        }
        return GraphBuilder.build(e);
    }

    /** The arrays of a graph of either form, int-indexed: rows, columns, weights, edge ids. */
    record Flat(long[] rows, int[] columns, double[] weights, int[] ids) {}

    static Flat flat(CsrGraph g) {
        ArcPages p = g.pages();
        long m = g.arcs();
        int[] c = new int[(int) m], ids = new int[(int) m];
        double[] w = new double[(int) m];
        for (int q = 0, at = 0; q < p.pageCount(); q++) {
            System.arraycopy(p.columns()[q], 0, c, at, p.arcsIn(q));
            System.arraycopy(p.weights()[q], 0, w, at, p.arcsIn(q));
            System.arraycopy(p.edgeIds()[q], 0, ids, at, p.arcsIn(q));
            at += p.arcsIn(q);
        }
        return new Flat(g.rowOffsetsLong(), c, w, ids);
    }

    static void assertSameArrays(CsrGraph expected, CsrGraph actual, String what) {
        assertEquals(expected.vertexCount(), actual.vertexCount(), what + ": vertices");
        assertEquals(expected.edgeCount(), actual.edgeCount(), what + ": edges");
        assertEquals(expected.directed(), actual.directed(), what + ": directed");
        assertEquals(expected.integralWeights(), actual.integralWeights(), what + ": integral");
        assertEquals(expected.arcs(), actual.arcs(), what + ": arcs");
        Flat a = flat(expected), b = flat(actual);
        assertArrayEquals(a.rows(), b.rows(), what + ": rows");
        assertArrayEquals(a.columns(), b.columns(), what + ": columns");
        assertArrayEquals(a.weights(), b.weights(), what + ": weights");
        assertArrayEquals(a.ids(), b.ids(), what + ": edge ids");
    }

    static void assertSameEdges(UndirectedEdges expected, UndirectedEdges actual, String what) {
        assertEquals(expected.vertexCount, actual.vertexCount, what + ": list vertices");
        assertArrayEquals(expected.u, actual.u, what + ": list u");
        assertArrayEquals(expected.v, actual.v, what + ": list v");
        assertArrayEquals(expected.w, actual.w, what + ": list w");
    }

    static void assertWideRefused(long arcs, String operation, Executable call) {
        WideGraphException x = assertThrows(WideGraphException.class, call::run, operation);
        assertTrue(x.getMessage().startsWith(operation + " needs int32 arc indexes, but the graph has " + arcs + " arcs"),
                x.getMessage());
        assertEquals(arcs, x.arcs());
    }

    @FunctionalInterface
    interface Executable {
        void run() throws Throwable;
    }

    /** Every method of {@code wide} against {@code narrow}, the same graph indexed by int. */
    static void assertSameGraph(CsrGraph narrow, CsrGraph wide, int pageArcs, Random rnd) {
        String what = wide.toString();
        assertTrue(wide.wide(), what);
        assertFalse(narrow.wide(), what);
        assertSameArrays(narrow, wide, what);
        assertEquals(narrow.arcCount(), wide.arcs(), what);
        assertEquals(pageArcs, wide.pages().pageArcs(), what);
        for (int q = 0; q < wide.pages().pageCount(); q++) {
            assertEquals(Math.min(pageArcs, wide.arcs() - wide.pages().firstArc(q)), wide.pages().arcsIn(q), what + ": page " + q);
        }
        int n = narrow.vertexCount();
        for (int v = 0; v < n; v++) {
            assertEquals(narrow.degree(v), wide.degree(v), what + ": degree " + v);
            assertEquals(narrow.rowStart(v), wide.rowStartLong(v), what + ": row start " + v);
            assertEquals(narrow.rowEnd(v), wide.rowEndLong(v), what + ": row end " + v);
        }
        assertEquals(narrow.maxDegree(), wide.maxDegree(), what);
        for (int a = 0; a < narrow.arcCount(); a++) {
            int u = narrow.sourceOf(a), v = narrow.columns()[a];
            assertEquals(u, wide.sourceOf((long) a), what + ": source of " + a);
            assertEquals(u, wide.sourceOf(a), what + ": source of int " + a);
            assertEquals(v, wide.targetAt(a), what);
            assertEquals(narrow.weights()[a], wide.weightAt(a), what);
            assertEquals(narrow.arcEdgeIds()[a], wide.edgeIdAt(a), what);
            assertEquals(a, wide.findArcLong(u, v), what + ": arc " + u + " -> " + v);
            assertEquals(a, narrow.findArcLong(u, v), what);
        }
        for (int i = 0; i < 200 && n > 0; i++) {
            int u = rnd.nextInt(n), v = rnd.nextInt(n);
            assertEquals(narrow.findArc(u, v), wide.findArcLong(u, v), what + ": find " + u + " -> " + v);
            assertEquals(narrow.findArc(u, v) >= 0, wide.hasArc(u, v), what);
        }
        assertEquals(narrow.weightSum(), wide.weightSum(), 0.0, what + ": weight sum (the same order)");
        assertEquals(narrow.weightBound(), wide.weightBound(), 0.0, what);
        assertEquals(8L * (n + 1) + 16L * narrow.arcCount(), wide.bytes(), what + ": bytes");
        assertTrue(wide.sameStructure(wide), what);
        assertFalse(wide.sameStructure(narrow), what);
        assertFalse(narrow.sameStructure(wide), what);
        assertFalse(wide.sameStructure(narrow.widen(pageArcs)), what + ": equal arrays, not the same ones");
        CsrGraph copy = wide.withWeightsCopied();
        assertTrue(copy.sameStructure(wide) && copy.wide(), what);
        assertSameArrays(wide, copy, what + ": weights copied");
        assertTrue(wide.toString().contains("arcs=" + narrow.arcCount() + ", ") && wide.toString().contains("wide"), what);
        CsrGraph t = wide.transpose();
        if (narrow.directed()) {
            assertTrue(t.wide(), what + ": transpose wide");
            assertSameArrays(narrow.transpose(), t, what + ": transpose");
            assertSame(t, wide.transpose(), what + ": cached");
        } else {
            assertSame(wide, t, what);
        }
        assertSameEdges(narrow.undirectedEdges(), wide.undirectedEdges(), what);
        long m = narrow.arcCount();
        assertWideRefused(m, "CsrGraph.rowOffsets()", wide::rowOffsets);
        assertWideRefused(m, "CsrGraph.columns()", wide::columns);
        assertWideRefused(m, "CsrGraph.weights()", wide::weights);
        assertWideRefused(m, "CsrGraph.arcEdgeIds()", wide::arcEdgeIds);
        assertWideRefused(m, "CsrGraph.arcCount()", wide::arcCount);
        assertWideRefused(m, "CsrGraph.rowStart(int)", () -> wide.rowStart(0));
        assertWideRefused(m, "CsrGraph.rowEnd(int)", () -> wide.rowEnd(0));
        assertWideRefused(m, "CsrGraph.findArc(int, int)", () -> wide.findArc(0, 0));
        assertSameArrays(narrow, wide.widen(3), what + ": re-widened");
    }

    @ParameterizedTest(name = "directed={0} pageArcs={1}")
    @MethodSource("forms")
    void everyMethodOfAWideGraphEqualsTheNarrowOnes(boolean directed, int pageArcs) {
        Random rnd = new Random(pageArcs * 31L + (directed ? 1 : 0));
        for (int[] size : new int[][] {{0, 0}, {1, 0}, {5, 3}, {40, 90}, {300, 1200}}) {
            CsrGraph narrow = random(rnd, size[0], size[1], directed);
            assertSameGraph(narrow, narrow.widen(pageArcs), pageArcs, rnd);
        }
    }

    @Test
    void aShippedDatasetWidenedEqualsItself() throws IOException {
        Optional<Path> file = Datasets.file(Datasets.ROME);
        assumeTrue(file.isPresent(), "the shared datasets are not here (../shared/datasets)");
        EdgeList edges = GraphFiles.read(file.get()).edges();
        for (boolean directed : new boolean[] {true, false}) {
            EdgeList e = new EdgeList(edges.vertexCount(), directed, edges.size());
            for (int i = 0; i < edges.size(); i++) e.add(edges.source(i), edges.target(i), edges.weight(i));
            CsrGraph narrow = GraphBuilder.build(e);
            for (int page : new int[] {7, 4096}) assertSameGraph(narrow, narrow.widen(page), page, new Random(page));
        }
    }

    /** Re-weights only, then mixed structural streams: narrow and wide accept or refuse alike and stay equal. */
    @ParameterizedTest(name = "directed={0} pageArcs={1}")
    @MethodSource("forms")
    void updatesOfAWideMutableGraphEqualTheNarrowOnes(boolean directed, int pageArcs) {
        Random rnd = new Random(7 + pageArcs + (directed ? 100 : 0));
        CsrGraph start = random(rnd, 80, 260, directed);
        MutableGraph wide = new MutableGraph(start.widen(pageArcs));
        assertTrue(wide.current().wide());
        follow(rnd, start, wide);
        assertTrue(wide.current().wide());
    }

    /** A graph that updates grow past the int limit (lowered here) is merged into the wide form, and stays equal. */
    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {false, true})
    void aGraphGrownPastTheIntLimitIsMergedWide(boolean directed) {
        Random rnd = new Random(directed ? 17 : 18);
        CsrGraph start = random(rnd, 80, 260, directed);
        MutableGraph grown = new MutableGraph(start.withWeightsCopied(), start.arcCount() - 6, 7);   // its own weights
        assertFalse(grown.current().wide());
        follow(rnd, start, grown);
        assertTrue(grown.current().wide(), "merged past the limit");
        assertEquals(7, grown.current().pages().pageArcs());
    }

    /**
     * Applies one random stream (re-weights only, then structural updates) to a narrow MutableGraph of {@code start} and
     * to {@code other} (the same graph, wide or to be), checking after every few updates that the versions, their
     * transposes, undirected edge lists, snapshots and change logs are the same.
     */
    private static void follow(Random rnd, CsrGraph start, MutableGraph other) {
        MutableGraph narrow = new MutableGraph(start);
        // caches that re-weights patch and merges carry over
        narrow.current().undirectedEdges();
        other.current().undirectedEdges();
        narrow.current().transpose();
        other.current().transpose();
        ChangeLog.Cursor nc = narrow.log().cursor(ChangeLog.Detail.VERSIONS), wc = other.log().cursor(ChangeLog.Detail.VERSIONS);
        CsrGraph reference = start;
        for (int batch = 0; batch < 120; batch++) {
            boolean structural = batch >= 40;
            EdgeEdits e = batch % 17 == 5 ? bulkReweights(rnd, reference) : UpdateStreams.randomUpdate(rnd, reference, structural);
            String what = "batch " + batch + " (" + (structural ? "structural" : "re-weights") + ")";
            boolean accepted = applyBoth(narrow, other, e, what);
            if (accepted) {   // the next update is drawn from the current version: both merge here
                reference = narrow.current();
                other.current();
            }
            if (batch % 3 != 0) continue;   // several updates between reads, as between queries
            CsrGraph n = narrow.current(), w = other.current();
            assertSameArrays(n, w, what);
            assertEquals(n.weightSum(), w.weightSum(), 1e-9, what);
            assertEquals(n.weightBound() >= maxWeight(n), w.weightBound() >= maxWeight(n), what);
            assertSameArrays(n.transpose(), w.transpose(), what + ": transpose");
            assertSameEdges(n.undirectedEdges(), w.undirectedEdges(), what);
            assertSameArrays(narrow.snapshot(), other.snapshot(), what + ": snapshot");
            Changes a = nc.read(), b = wc.read();
            assertEquals(a.structural(), b.structural(), what);
            assertEquals(a.edges().vertexCountBefore(), b.edges().vertexCountBefore(), what);
            assertArrayEquals(a.edges().u(), b.edges().u(), what);
            assertEquals(a.merges().size(), b.merges().size(), what);
            for (int i = 0; i < a.merges().size(); i++) {
                ChangeLog.Merge x = a.merges().get(i), y = b.merges().get(i);
                assertArrayEquals(x.touchedRows(), y.touchedRows(), what + ": touched rows");
                assertEquals(x.edges() == null, y.edges() == null, what);
                if (x.edges() != null) {
                    assertArrayEquals(x.edges().runs(), y.edges().runs(), what + ": edge runs");
                    assertArrayEquals(x.edges().addedIds(), y.edges().addedIds(), what + ": added ids");
                    assertArrayEquals(x.edges().addedKeys(), y.edges().addedKeys(), what);
                    assertArrayEquals(x.edges().addedWeights(), y.edges().addedWeights(), what);
                }
            }
            ChangeLog.WeightChanges rn = a.reweighted(), rw = b.reweighted();
            assertEquals(rn.all(), rw.all(), what);
            assertArrayEquals(rn.arcsLong(), rw.arcsLong(), what + ": re-weighted arcs");
            if (!rw.all() && rw.count() > 0 && w.wide()) {
                assertArrayEquals(rn.arcsLong(), rw.wideArcs(), what);
                assertThrows(WideGraphException.class, rw::arcs, what);
            }
        }
        assertTrue(reference.vertexCount() > start.vertexCount() || reference.edgeCount() != start.edgeCount(),
                "the stream changed the structure");
    }

    /** Applies {@code e} to both graphs; both accept it or both refuse it with the same kind. Returns whether accepted. */
    private static boolean applyBoth(MutableGraph narrow, MutableGraph wide, EdgeEdits e, String what) {
        InvalidGraphException refused = null;
        try {
            narrow.apply(e, 0, Long.MAX_VALUE);
        } catch (InvalidGraphException x) {
            refused = x;
        }
        try {
            wide.apply(e, 0, Long.MAX_VALUE);
        } catch (InvalidGraphException x) {
            if (refused == null) throw new AssertionError("wide refused what narrow accepts, " + what + ": " + x.getMessage());
            assertEquals(refused.kind(), x.kind(), what);
            assertEquals(refused.getMessage(), x.getMessage(), what);
            return false;
        }
        if (refused != null) throw new AssertionError("wide accepted what narrow refuses, " + what);
        return true;
    }

    /** A re-weight of at least {@link MutableGraph#SORTED_MIN} edges (the sorted path), repeats included. */
    private static EdgeEdits bulkReweights(Random rnd, CsrGraph g) {
        int k = MutableGraph.SORTED_MIN + rnd.nextInt(50);
        int[] u = new int[k], v = new int[k];
        double[] w = new double[k];
        for (int i = 0; i < k; i++) {
            int[] arc = UpdateStreams.randomArc(rnd, g);
            u[i] = arc[0];
            v[i] = arc[1];
            w[i] = rnd.nextInt(3) == 0 ? rnd.nextDouble() * 5 : rnd.nextInt(30);
        }
        int[] none = {};
        return new EdgeEdits(0, none, none, u, v, w, none, none, new double[0]);
    }

    private static double maxWeight(CsrGraph g) {
        double b = 0;
        for (double w : flat(g).weights()) b = Math.max(b, w);
        return b;
    }

    @Test
    void theChangeLogOfAWideGraphListsLongArcs() {
        CsrGraph g = random(new Random(5), 30, 80, false).widen(7);
        MutableGraph m = new MutableGraph(g);
        ChangeLog.Cursor c = m.log().cursor(ChangeLog.Detail.VERSIONS);
        int u = g.sourceOf(10L), v = g.targetAt(10);
        m.apply(new EdgeEdits(0, new int[0], new int[0], new int[] {u}, new int[] {v}, new double[] {123.5},
                new int[0], new int[0], new double[0]), 0, Long.MAX_VALUE);
        ChangeLog.WeightChanges w = c.read().reweighted();
        long[] arcs = w.wideArcs().clone();
        Arrays.sort(arcs);
        assertArrayEquals(new long[] {Math.min(10, g.findArcLong(v, u)), Math.max(10, g.findArcLong(v, u))}, arcs,
                "both arcs of the undirected edge");
        assertEquals(123.5, m.current().weightAt(10));
        assertEquals(123.5, m.weightOf(v, u));
        WideGraphException x = assertThrows(WideGraphException.class, w::arcs);
        assertTrue(x.getMessage().contains("read arcsLong()"), x.getMessage());
        assertTrue(c.read().reweighted().isEmpty(), "read");
    }
}
