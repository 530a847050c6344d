package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
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
 * The streaming build gives exactly {@link GraphBuilder}'s graph (offsets, columns, weights bit for bit, edge ids,
 * integralWeights, edge count) whatever the chunking, the chunks' order and the number of tasks, on random graphs with
 * parallel edges, self-loops and isolated vertices and on the shared real datasets; and it holds at most 1.5 times
 * the CSR it builds, by its own accounting.
 */
class CsrAssemblyTest {

    /** How a random graph's weights are drawn. */
    enum Weights { ONES, INTEGRAL, FRACTIONAL, MIXED, SIGNED_ZEROS }

    /** A seeded random edge list: n vertices (some isolated), m edges with repeats and self-loops. */
    static EdgeList random(int n, int m, long seed, boolean directed, Weights weights) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList e = new EdgeList(n, directed, m);
        int hot = Math.max(1, n / 2);   // vertices hot..n-1 rarely appear: isolated ones remain
        for (int i = 0; i < m; i++) {
            int u = r.nextInt(hot), v = r.nextInt(10) == 0 ? u : r.nextInt(hot);   // one in ten a self-loop
            if (i > 0 && r.nextInt(5) == 0) {   // one in five repeats an earlier edge, perhaps reversed
                int j = r.nextInt(i);
                u = e.source(j);
                v = e.target(j);
                if (r.nextBoolean()) { int x = u; u = v; v = x; }
            }
            double w = switch (weights) {
                case ONES -> 1.0;
                case INTEGRAL -> r.nextInt(8);
                case FRACTIONAL -> r.nextInt(8) / 4.0 + 0.125;
                case MIXED -> (i / 97) % 2 == 0 ? r.nextInt(8) : r.nextInt(8) / 4.0;   // runs of each, chunks of both
                case SIGNED_ZEROS -> r.nextBoolean() ? 0.0 : -0.0;
            };
            e.add(u, v, w);
        }
        return e;
    }

    /** The edges cut into chunks of random sizes, added in a shuffled order; the assembly built with {@code parts} tasks. */
    static CsrAssembly assemble(EdgeList e, int first, long seed, int maxChunk) {
        return assemble(e, first, seed, maxChunk, null);
    }

    /**
     * {@link #assemble(EdgeList, int, long, int)}, each chunk decoded and counted by a task on {@code decoders} (null:
     * decoded here, then added), its buffers offset within larger ones as a record's packed arrays are.
     */
    static CsrAssembly assemble(EdgeList e, int first, long seed, int maxChunk, Executor decoders) {
        return assemble(e, seed, maxChunk, decoders, new CsrAssembly(e.vertexCount(), e.directed(), first), first);
    }

    /** {@link #assemble(EdgeList, int, long, int, Executor)} into the assembly {@code a} (made for ids from {@code first}). */
    static CsrAssembly assemble(EdgeList e, long seed, int maxChunk, Executor decoders, CsrAssembly a, int first) {
        Random r = new Random(seed);
        List<int[]> bounds = new ArrayList<>();
        for (int at = 0; at < e.size() || bounds.isEmpty(); ) {
            int len = Math.min(e.size() - at, 1 + r.nextInt(maxChunk));
            bounds.add(new int[] {at, at + len});
            at += len;
        }
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < bounds.size(); k++) order.add(k);
        Collections.shuffle(order, r);
        for (int k : order) {
            int lo = bounds.get(k)[0], hi = bounds.get(k)[1];
            int[] s = new int[hi - lo], t = new int[hi - lo];
            double[] w = new double[hi - lo];
            boolean ones = true;
            for (int i = lo; i < hi; i++) {
                s[i - lo] = e.source(i) + first;
                t[i - lo] = e.target(i) + first;
                w[i - lo] = e.weight(i);
                ones &= e.weight(i) == 1.0;
            }
            double[] weights = ones && r.nextBoolean() ? null : w;
            if (decoders == null) a.add(k, a.decode(s, t, weights));
            else a.add(k, sliced(s), sliced(t), weights == null ? DoubleBuffer.allocate(0) : sliced(weights), decoders);
        }
        return a;
    }

    /** The values at position 1 of a buffer one longer, read-only. */
    static IntBuffer sliced(int[] values) {
        int[] padded = new int[values.length + 1];
        System.arraycopy(values, 0, padded, 1, values.length);
        return IntBuffer.wrap(padded, 1, values.length).asReadOnlyBuffer();
    }

    static DoubleBuffer sliced(double[] values) {
        double[] padded = new double[values.length + 1];
        System.arraycopy(values, 0, padded, 1, values.length);
        return DoubleBuffer.wrap(padded, 1, values.length).asReadOnlyBuffer();
    }

    static void assertSameGraph(CsrGraph expected, CsrGraph actual, String what) {
        assertEquals(expected.vertexCount(), actual.vertexCount(), what + ": vertices");
        assertEquals(expected.directed(), actual.directed(), what + ": directed");
        assertEquals(expected.edgeCount(), actual.edgeCount(), what + ": edges");
        assertArrayEquals(expected.rowOffsets(), actual.rowOffsets(), what + ": offsets");
        assertArrayEquals(expected.columns(), actual.columns(), what + ": columns");
        long[] ew = Arrays.stream(expected.weights()).mapToLong(Double::doubleToRawLongBits).toArray();
        long[] aw = Arrays.stream(actual.weights()).mapToLong(Double::doubleToRawLongBits).toArray();
        assertArrayEquals(ew, aw, what + ": weights, bit for bit");
        assertArrayEquals(expected.arcEdgeIds(), actual.arcEdgeIds(), what + ": edge ids");
        assertEquals(expected.integralWeights(), actual.integralWeights(), what + ": integralWeights");
        assertEquals(expected.bytes(), actual.bytes(), what + ": bytes");
    }

    static Stream<Arguments> randomGraphs() {
        List<Arguments> list = new ArrayList<>();
        long seed = 11;
        for (boolean directed : new boolean[] {true, false}) {
            for (Weights w : Weights.values()) {
                list.add(Arguments.of(300, 2_000, seed++, directed, w, 1 + (int) (seed % 3)));
                list.add(Arguments.of(2_000, 60_000, seed++, directed, w, 4));   // groups large enough for parallel placement
            }
            list.add(Arguments.of(1, 5, seed++, directed, Weights.INTEGRAL, 2));   // self-loops only
            list.add(Arguments.of(7, 0, seed++, directed, Weights.INTEGRAL, 2));   // isolated vertices only
            list.add(Arguments.of(50, 3_000, seed++, directed, Weights.FRACTIONAL, 3));   // dense rows: key sorts
            list.add(Arguments.of(40, 6_000, seed++, directed, Weights.INTEGRAL, 1));   // rows radix sorted
            list.add(Arguments.of(5_000, 500, seed++, directed, Weights.INTEGRAL, 2));   // sparse: ids by binary search
        }
        return list.stream();
    }

    @ParameterizedTest(name = "n={0} m={1} seed={2} directed={3} {4} parts={5}")
    @MethodSource("randomGraphs")
    void equalsGraphBuilderOnRandomGraphs(int n, int m, long seed, boolean directed, Weights weights, int parts) {
        EdgeList e = random(n, m, seed, directed, weights);
        CsrGraph expected = GraphBuilder.build(e);
        String what = "n=" + n + " m=" + m + " seed=" + seed + " " + weights + (directed ? " directed" : " undirected");
        for (int maxChunk : new int[] {1 + m / 7, 1 + m}) {
            CsrAssembly a = assemble(e, 1, seed, maxChunk);
            assertSameGraph(expected, a.build(parts), what + " chunks<=" + maxChunk);
            assertEquals(0, a.chunks(), "every chunk released");
            assertEquals(expected.bytes(), a.bytes(), what + ": the assembly holds the graph, and only it, once built");
        }
    }

    /**
     * The same graphs with the chunks decoded and counted side by side on a pool of four (as the worker's ingest
     * threads do: counts incremented concurrently, chunks done in any order), and through a direct executor.
     */
    @ParameterizedTest(name = "n={0} m={1} seed={2} directed={3} {4} parts={5}")
    @MethodSource("randomGraphs")
    void equalsGraphBuilderWhenChunksAreDecodedSideBySide(int n, int m, long seed, boolean directed, Weights weights, int parts) {
        EdgeList e = random(n, m, seed, directed, weights);
        CsrGraph expected = GraphBuilder.build(e);
        String what = "n=" + n + " m=" + m + " seed=" + seed + " " + weights + (directed ? " directed" : " undirected");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (Executor decoders : List.<Executor>of(pool, Runnable::run)) {
                CsrAssembly a = assemble(e, 1, seed, 1 + m / 23, decoders);
                long projected = a.projectedPeakBytes();
                assertSameGraph(expected, a.build(parts), what + (decoders == pool ? " on a pool" : " direct"));
                assertTrue(a.peakBytes() <= projected, what + ": peak " + a.peakBytes() + " within the projection " + projected);
                assertEquals(expected.bytes(), a.bytes(), what + ": the assembly holds the graph, and only it, once built");
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aChunkIsCountedInBytesWhenAddedAndItsBadEdgesReportedOnceDecoded() {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CsrAssembly a = new CsrAssembly(4, true, 10);
            a.add(1, sliced(new int[] {10, 11}), sliced(new int[] {11, 12}), sliced(new double[] {1, 2.5}), pool);
            a.add(0, sliced(new int[] {12, 10}), sliced(new int[] {13, 10}), sliced(new double[] {3, 1}), pool);
            assertEquals(4L * 5 + 16L * 2 + 12L * 2, a.bytes(), "counts, a chunk of doubles, a chunk of int32 weights");
            assertTrue(a.has(0) && a.has(1) && a.chunks() == 2);
            assertThrows(IllegalArgumentException.class, () -> a.add(0, sliced(new int[] {10}), sliced(new int[] {11}),
                    DoubleBuffer.allocate(0), pool), "a chunk added twice");
            a.add(2, sliced(new int[] {10}), sliced(new int[] {14}), DoubleBuffer.allocate(0), pool);
            InvalidGraphException v = assertThrows(InvalidGraphException.class, a::validate);
            assertEquals(InvalidGraphException.Kind.INVALID_VERTEX, v.kind());
            assertTrue(v.getMessage().contains("edge (10, 14)"), v.getMessage());
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void weightBytesAreWhatTheDecodedChunkHolds() {
        CsrAssembly a = new CsrAssembly(10, false, 0);
        int[] s = {0, 1, 2}, t = {1, 2, 3};
        for (double[] w : new double[][] {{}, {1, 1, 1}, {1, 7, 2147483647.0}, {1, 7, 2147483648.0}, {1, 0.5, 2}, {1, -0.0, 2},
                {1, -3, 2}, {1, Double.NaN, 2}, {Double.POSITIVE_INFINITY, 1, 1}}) {
            int expected = a.decode(IntBuffer.wrap(s), IntBuffer.wrap(t), DoubleBuffer.wrap(w)).weightBytes();
            assertEquals(expected, CsrAssembly.weightBytes(DoubleBuffer.wrap(w)), Arrays.toString(w));
        }
    }

    /** The real graphs the contract tests read, chunked as the client chunks them (50,000 edges), in a shuffled order. */
    @ParameterizedTest
    @ValueSource(strings = {Datasets.ROME, Datasets.NY, Datasets.FACEBOOK, Datasets.ENRON, Datasets.LUXEMBOURG})
    void equalsGraphBuilderOnTheSharedDatasets(String name) throws IOException {
        Optional<Path> file = Datasets.file(name);
        assumeTrue(file.isPresent(), name + " not found under ../shared/datasets");
        LoadedGraph g = GraphFiles.read(file.get(), GraphFormat.fromFileName(name), name.equals(Datasets.FACEBOOK), null);
        CsrGraph expected = GraphBuilder.build(g.edges());
        CsrAssembly a = assemble(g.edges(), g.firstVertexId(), 29, 50_000);
        long projected = a.projectedPeakBytes();
        assertSameGraph(expected, a.build(), name);
        assertTrue(a.peakBytes() <= projected, name + ": peak " + a.peakBytes() + " within the projection " + projected);
    }

    /**
     * The peak the assembly reports is within its model, and the model within 1.5 times the CSR of the arcs its edges
     * make ({@link CsrAssembly#residentBytes}; an undirected edge two); without parallel edges and self-loops that CSR
     * is the graph built.
     */
    @ParameterizedTest(name = "directed={0} {1}")
    @MethodSource("peakCases")
    void peakIsAtMostOneAndAHalfTimesTheGraph(boolean directed, Weights weights, boolean simple) {
        int n = 20_000, m = 200_000;
        EdgeList e = simple ? simple(n, m, 5, directed, weights) : random(n, m, 5, directed, weights);
        CsrAssembly a = assemble(e, 0, 5, 50_000);
        long model = a.projectedPeakBytes();
        CsrGraph g = a.build(3);
        long resident = CsrAssembly.residentBytes(n, directed ? m : 2L * m);
        String what = (directed ? "directed " : "undirected ") + weights + (simple ? " simple" : " with parallel edges");
        assertTrue(a.peakBytes() <= model, what + ": reported peak " + a.peakBytes() + " > model " + model);
        assertTrue(model <= 1.5 * resident, what + ": model " + model + " > 1.5 x " + resident);
        assertTrue(CsrAssembly.peakBytes(n, m, directed) <= 1.5 * CsrAssembly.residentBytes(n, directed ? m : 2L * m),
                what + ": the worst case (double weights, no self-loop) too");
        if (simple) {
            assertEquals(g.bytes(), resident, what);
            assertTrue(a.peakBytes() <= 1.5 * g.bytes(), what + ": peak " + a.peakBytes() + " > 1.5 x " + g.bytes());
        }
        assertTrue(g.bytes() <= 16L * g.arcCount() + 8L * g.vertexCount() + 4, what + ": 16 bytes an arc, 8 a vertex");
    }

    static Stream<Arguments> peakCases() {
        List<Arguments> list = new ArrayList<>();
        for (boolean directed : new boolean[] {true, false}) {
            for (Weights w : new Weights[] {Weights.ONES, Weights.INTEGRAL, Weights.FRACTIONAL}) {
                list.add(Arguments.of(directed, w, true));
                list.add(Arguments.of(directed, w, false));
            }
        }
        return list.stream();
    }

    /** m distinct edges without self-loops (u < v when undirected), in a seeded order. */
    static EdgeList simple(int n, int m, long seed, boolean directed, Weights weights) {
        SplittableRandom r = new SplittableRandom(seed);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        EdgeList e = new EdgeList(n, directed, m);
        while (e.size() < m) {
            int u = r.nextInt(n), v = r.nextInt(n);
            if (u == v) continue;
            if (!directed && u > v) { int x = u; u = v; v = x; }
            if (!seen.add((long) u << 32 | v)) continue;
            e.add(u, v, weights == Weights.ONES ? 1 : weights == Weights.INTEGRAL ? r.nextInt(100) : r.nextInt(100) / 8.0 + 0.5);
        }
        return e;
    }

    @Test
    void theFirstBadEdgeInChunkOrderIsReportedVerticesBeforeWeights() {
        CsrAssembly a = new CsrAssembly(4, true, 10);
        a.add(2, a.decode(new int[] {10, 99}, new int[] {11, 12}, new double[] {1, 1}));
        a.add(1, a.decode(new int[] {10, 11}, new int[] {11, 12}, new double[] {1, -2}));
        a.add(0, a.decode(new int[] {12, 9}, new int[] {13, 10}, new double[] {Double.NaN, 1}));
        InvalidGraphException v = assertThrows(InvalidGraphException.class, a::validate);
        assertEquals(InvalidGraphException.Kind.INVALID_VERTEX, v.kind());
        assertTrue(v.getMessage().contains("edge (9, 10)") && v.getMessage().contains("10..13"), v.getMessage());
        CsrAssembly b = new CsrAssembly(4, true, 10);
        b.add(1, b.decode(new int[] {10, 11}, new int[] {11, 12}, new double[] {1, -2}));
        b.add(0, b.decode(new int[] {12, 10}, new int[] {13, 10}, new double[] {Double.NaN, 1}));
        InvalidGraphException w = assertThrows(InvalidGraphException.class, b::build);
        assertEquals(InvalidGraphException.Kind.INVALID_WEIGHT, w.kind());
        assertTrue(w.getMessage().contains("edge 0 (12 -> 13) has weight NaN"), w.getMessage());
    }

    @Test
    void chunksAreCompact() {
        CsrAssembly a = new CsrAssembly(10, false, 0);
        int[] s = {0, 1, 2}, t = {1, 2, 3};
        assertEquals(0, a.decode(s, t, null).weightBytes(), "no weights: all 1");
        assertEquals(0, a.decode(s, t, new double[] {1, 1, 1}).weightBytes(), "every weight 1: none kept");
        assertEquals(4, a.decode(s, t, new double[] {1, 7, 2147483647.0}).weightBytes(), "integers below 2^31: int32");
        assertEquals(8, a.decode(s, t, new double[] {1, 7, 2147483648.0}).weightBytes());
        assertEquals(8, a.decode(s, t, new double[] {1, 0.5, 2}).weightBytes());
        assertEquals(8, a.decode(s, t, new double[] {1, -0.0, 2}).weightBytes(), "-0.0 keeps its sign");
        CsrAssembly.Chunk c = a.decode(s, t, new double[] {3, 4, 5});
        a.add(0, c);
        assertEquals(4L * 11 + 12L * 3, a.bytes(), "counts and the chunk");
        assertThrows(IllegalArgumentException.class, () -> a.add(0, c));
    }
}
