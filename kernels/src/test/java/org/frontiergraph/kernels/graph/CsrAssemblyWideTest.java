package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.frontiergraph.kernels.graph.CsrAssemblyTest.Weights;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming build in the wide form (64-bit row offsets, arcs in pages: what a graph of more than 2^31 - 8 arcs is
 * built as), forced on small graphs by a low {@code wideFromArcs} and pages of a few arcs: exactly {@link GraphBuilder}'s
 * graph {@linkplain CsrGraph#widen widened} to the same pages, arc by arc, whatever the chunking, the chunks' order, the
 * page size and the number of tasks; narrow again when merging parallel edges brings the arcs under the threshold.
 */
class CsrAssemblyWideTest {

    /** The wide graph equals {@code expected} widened to its pages: offsets, columns, weights bit for bit, edge ids. */
    static void assertSameWideGraph(CsrGraph expected, CsrGraph actual, int pageArcs, String what) {
        assertTrue(actual.wide(), what + ": built wide");
        CsrGraph want = expected.widen(pageArcs);
        assertEquals(want.vertexCount(), actual.vertexCount(), what + ": vertices");
        assertEquals(want.directed(), actual.directed(), what + ": directed");
        assertEquals(want.edgeCount(), actual.edgeCount(), what + ": edges");
        assertEquals(want.arcs(), actual.arcs(), what + ": arcs");
        assertEquals(want.integralWeights(), actual.integralWeights(), what + ": integralWeights");
        assertArrayEquals(want.rowOffsetsLong(), actual.rowOffsetsLong(), what + ": offsets");
        ArcPages w = want.pages(), a = actual.pages();
        assertEquals(w.pageArcs(), a.pageArcs(), what + ": page size");
        assertEquals(w.pageCount(), a.pageCount(), what + ": pages");
        for (int p = 0; p < w.pageCount(); p++) {
            assertArrayEquals(w.columns()[p], a.columns()[p], what + ": columns of page " + p);
            assertArrayEquals(bits(w.weights()[p]), bits(a.weights()[p]), what + ": weights of page " + p + ", bit for bit");
            assertArrayEquals(w.edgeIds()[p], a.edgeIds()[p], what + ": edge ids of page " + p);
        }
    }

    static long[] bits(double[] w) {
        return Arrays.stream(w).mapToLong(Double::doubleToRawLongBits).toArray();
    }

    /** The wide graph's bytes: 8 a vertex (n + 1 offsets), 16 an arc. */
    static long wideBytes(CsrGraph g) {
        return 8L * (g.vertexCount() + 1) + 16L * g.arcs();
    }

    static Stream<Arguments> randomGraphs() {
        List<Arguments> list = new ArrayList<>();
        long seed = 101;
        for (boolean directed : new boolean[] {true, false}) {
            for (Weights w : Weights.values()) {
                list.add(Arguments.of(300, 2_000, seed++, directed, w, 7, 1 + (int) (seed % 3)));
                list.add(Arguments.of(2_000, 30_000, seed++, directed, w, 1024, 4));
            }
            list.add(Arguments.of(1, 5, seed++, directed, Weights.INTEGRAL, 3, 2));   // self-loops only
            list.add(Arguments.of(7, 0, seed++, directed, Weights.INTEGRAL, 7, 2));   // isolated vertices only
            list.add(Arguments.of(50, 3_000, seed++, directed, Weights.FRACTIONAL, 100, 3));   // rows across pages
            list.add(Arguments.of(40, 6_000, seed++, directed, Weights.INTEGRAL, 1, 2));   // a page an arc
            list.add(Arguments.of(5_000, 500, seed++, directed, Weights.INTEGRAL, 64, 2));   // sparse: ids by binary search
        }
        return list.stream();
    }

    @ParameterizedTest(name = "n={0} m={1} seed={2} directed={3} {4} pages of {5} parts={6}")
    @MethodSource("randomGraphs")
    void equalsGraphBuilderWidened(int n, int m, long seed, boolean directed, Weights weights, int pageArcs, int parts) {
        EdgeList e = CsrAssemblyTest.random(n, m, seed, directed, weights);
        CsrGraph expected = GraphBuilder.build(e);
        String what = "n=" + n + " m=" + m + " seed=" + seed + " " + weights + (directed ? " directed" : " undirected")
                + " pages of " + pageArcs;
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int maxChunk : new int[] {1 + m / 7, 1 + m}) {
                CsrAssembly a = CsrAssemblyTest.assemble(e, seed, maxChunk, maxChunk == 1 + m ? null : pool,
                        new CsrAssembly(n, directed, 1, 0).pageArcs(pageArcs), 1);
                long projected = a.projectedPeakBytes();
                CsrGraph g = a.build(parts);
                assertSameWideGraph(expected, g, pageArcs, what + " chunks<=" + maxChunk);
                assertEquals(0, a.chunks(), "every chunk released");
                assertEquals(wideBytes(g), a.bytes(), what + ": the assembly holds the graph, and only it, once built");
                assertTrue(a.peakBytes() <= projected, what + ": peak " + a.peakBytes() + " within the projection " + projected);
            }
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Arcs placed wide (more than the threshold before parallel edges merge) and kept narrow (fewer after): the narrow
     * graph GraphBuilder gives, its arrays moved out of the pages.
     */
    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {true, false})
    void placedWideKeptNarrowWhenMergingBringsTheArcsUnderTheThreshold(boolean directed) {
        EdgeList e = CsrAssemblyTest.random(400, 5_000, 7, directed, Weights.MIXED);
        CsrGraph expected = GraphBuilder.build(e);
        CsrAssembly a = CsrAssemblyTest.assemble(e, 7, 900, null, new CsrAssembly(400, directed, 0, expected.arcCount() + 1L)
                .pageArcs(33), 0);
        assertTrue(a.arcs() > expected.arcCount(), "parallel edges placed");
        CsrGraph g = a.build(2);
        assertFalse(g.wide(), "kept narrow");
        CsrAssemblyTest.assertSameGraph(expected, g, "placed wide, kept narrow");
        assertEquals(expected.bytes(), a.bytes(), "the narrow graph's bytes");
        CsrAssembly exact = CsrAssemblyTest.assemble(e, 7, 900, null, new CsrAssembly(400, directed, 0, expected.arcCount())
                .pageArcs(33), 0);
        assertSameWideGraph(expected, exact.build(2), 33, "the threshold reached: wide");
    }

    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {true, false})
    void aGraphWithoutVerticesBuildsInEitherForm(boolean directed) {
        CsrGraph expected = GraphBuilder.build(new EdgeList(0, directed));
        CsrAssemblyTest.assertSameGraph(expected, new CsrAssembly(0, directed, 0).build(), "narrow");
        assertSameWideGraph(expected, new CsrAssembly(0, directed, 0, 0).pageArcs(5).build(), 5, "wide");
    }

    @Test
    void theDefaultThresholdKeepsGraphsThatFitOneArrayNarrow() {
        EdgeList e = CsrAssemblyTest.random(300, 2_000, 3, false, Weights.INTEGRAL);
        CsrAssembly a = CsrAssemblyTest.assemble(e, 0, 3, 500);
        assertEquals(CsrAssembly.WIDE_WHEN_NEEDED, a.wideFromArcs());
        CsrGraph g = a.build();
        assertFalse(g.wide());
        CsrAssemblyTest.assertSameGraph(GraphBuilder.build(e), g, "default");
    }

    /** The real graphs, chunked as the client chunks them, built wide in pages of 2^12 arcs (and rome99 of 7). */
    @ParameterizedTest
    @ValueSource(strings = {Datasets.ROME, Datasets.NY, Datasets.FACEBOOK, Datasets.ENRON, Datasets.LUXEMBOURG})
    void equalsGraphBuilderWidenedOnTheSharedDatasets(String name) throws IOException {
        Optional<Path> file = Datasets.file(name);
        assumeTrue(file.isPresent(), name + " not found under ../shared/datasets");
        LoadedGraph g = GraphFiles.read(file.get(), GraphFormat.fromFileName(name), name.equals(Datasets.FACEBOOK), null);
        CsrGraph expected = GraphBuilder.build(g.edges());
        int pageArcs = name.equals(Datasets.ROME) ? 7 : 1 << 12;
        CsrAssembly a = CsrAssemblyTest.assemble(g.edges(), 29, 50_000, null,
                new CsrAssembly(g.edges().vertexCount(), g.edges().directed(), g.firstVertexId(), 1).pageArcs(pageArcs),
                g.firstVertexId());
        long projected = a.projectedPeakBytes();
        assertSameWideGraph(expected, a.build(), pageArcs, name);
        assertTrue(a.peakBytes() <= projected, name + ": peak " + a.peakBytes() + " within the projection " + projected);
    }

    /**
     * The 64-bit indexing of more arcs than an int counts (a synthetic layout: 2^33 + 5 arcs in pages of 2^30, nothing
     * allocated), and the model of a kron26 build (2^26 vertices, 2^30 undirected edges: 2^31 arcs) within 1.5 times
     * the wide graph it gives.
     */
    @Test
    void arcsBeyondTwoToTheThirtyOneAreIndexedByPageAndOffset() {
        long arcs = (1L << 33) + 5;
        Paging p = Paging.wide(arcs, CsrAssembly.PAGE_ARCS);
        assertEquals(9, p.pages());
        assertEquals(5, p.pageLength(8));
        long a = (1L << 32) + (1L << 30) + 17;
        assertEquals(5, p.page(a));
        assertEquals(17, p.index(a));
        assertEquals(a - 17, p.firstArc(5));
        Paging odd = Paging.wide(arcs, 1_000_000_007);
        assertEquals((int) (a / 1_000_000_007), odd.page(a));
        assertEquals((int) (a % 1_000_000_007), odd.index(a));
        long n = 1L << 26, edges = 1L << 30;
        long resident = CsrAssembly.residentBytes(n, 2 * edges);
        assertEquals(8 * (n + 1) + 16 * (2 * edges), resident, "more than 2^31 - 8 arcs: the wide form's 8 bytes a vertex");
        long peak = CsrAssembly.peakBytes(n, edges, false, CsrAssembly.chunkBytes(edges, 4));
        assertTrue(peak <= 1.5 * resident, "int weights: peak " + peak + " within 1.5 x " + resident);
        assertTrue(CsrAssembly.peakBytes(n, edges, false) <= 1.5 * resident, "double weights too");
    }

    @Test
    void rowsAcrossPagesAreCopiedWhole() {
        Paging from = Paging.wide(20, 7), to = Paging.narrow(20);
        int[][] src = from.newInts();
        for (int i = 0; i < 20; i++) src[from.page(i)][from.index(i)] = i;
        int[][] dst = to.newInts();
        from.copy(src, 3, to, dst, 1, 15);
        for (int i = 0; i < 15; i++) assertEquals(3 + i, dst[0][1 + i]);
        assertTrue(from.onePage(7, 14) && !from.onePage(6, 8) && from.onePage(9, 9));
    }
}
