package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** GraphBuilder validates its input and applies CsrGraph's storage policy. */
class GraphBuilderTest {

    private static CsrGraph build(int n, boolean directed, double... triples) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < triples.length; i += 3) e.add((int) triples[i], (int) triples[i + 1], triples[i + 2]);
        return GraphBuilder.build(e);
    }

    @ParameterizedTest
    @ValueSource(doubles = {-1, -1e-300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void rejectsBadWeights(double w) {
        InvalidGraphException e = assertThrows(InvalidGraphException.class, () -> build(3, true, 0, 1, 1, 1, 2, w));
        assertEquals(InvalidGraphException.Kind.INVALID_WEIGHT, e.kind());
        assertTrue(e.getMessage().contains("edge 1"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 3, Integer.MAX_VALUE, Integer.MIN_VALUE})
    void rejectsVerticesOutOfRange(int v) {
        InvalidGraphException a = assertThrows(InvalidGraphException.class, () -> build(3, false, 0, v, 1));
        assertEquals(InvalidGraphException.Kind.INVALID_VERTEX, a.kind());
        InvalidGraphException b = assertThrows(InvalidGraphException.class, () -> build(3, true, v, 0, 1));
        assertEquals(InvalidGraphException.Kind.INVALID_VERTEX, b.kind());
    }

    @Test
    void acceptsZeroWeightsAndTheEmptyGraph() {
        assertEquals(1, build(2, true, 0, 1, 0).edgeCount());
        CsrGraph empty = build(0, false);
        assertEquals(0, empty.vertexCount());
        assertEquals(0, empty.arcCount());
    }

    @Test
    void directedPolicy() {
        // self-loops dropped; duplicates 0->2 merged to the smallest weight; rows sorted by target
        CsrGraph g = build(4, true, 0, 2, 5, 0, 1, 4, 2, 2, 1, 0, 2, 3, 3, 0, 1, 0, 2, 8, 1, 0, 2);
        assertTrue(g.directed());
        assertEquals(4, g.edgeCount());
        assertEquals(4, g.arcCount());
        assertArrayEquals(new int[] {0, 2, 3, 3, 4}, g.rowOffsets());
        assertArrayEquals(new int[] {1, 2, 0, 0}, g.columns());
        assertArrayEquals(new double[] {4, 3, 2, 1}, g.weights());
        // edge ids in (source, target) order
        assertArrayEquals(new int[] {0, 1, 2, 3}, g.arcEdgeIds());
        assertEquals(-1, g.findArc(2, 2));
        assertEquals(1, g.findArc(0, 2));
        assertTrue(g.integralWeights());
    }

    @Test
    void undirectedPolicy() {
        // {0,1} given twice (either direction) merged to weight 2; self-loop dropped; both arcs share the edge id
        CsrGraph g = build(3, false, 1, 0, 2, 0, 1, 7, 1, 1, 1, 2, 1, 0.5);
        assertFalse(g.directed());
        assertEquals(2, g.edgeCount());
        assertEquals(4, g.arcCount());
        assertArrayEquals(new int[] {0, 1, 3, 4}, g.rowOffsets());
        assertArrayEquals(new int[] {1, 0, 2, 1}, g.columns());
        assertArrayEquals(new double[] {2, 2, 0.5, 0.5}, g.weights());
        assertArrayEquals(new int[] {0, 0, 1, 1}, g.arcEdgeIds());
        assertFalse(g.integralWeights());
        assertSame(g, g.transpose());
        UndirectedEdges u = g.undirectedEdges();
        assertArrayEquals(new int[] {0, 1}, u.u);
        assertArrayEquals(new int[] {1, 2}, u.v);
        assertArrayEquals(new double[] {2, 0.5}, u.w);
    }

    @Test
    void transposeAndUndirectedEdgesOfADirectedGraph() {
        CsrGraph g = build(3, true, 0, 1, 4, 1, 0, 2, 2, 1, 1);
        CsrGraph t = g.transpose();
        assertArrayEquals(new int[] {0, 1, 3, 3}, t.rowOffsets());
        assertArrayEquals(new int[] {1, 0, 2}, t.columns());
        assertSame(t, g.transpose());
        UndirectedEdges u = g.undirectedEdges();
        // 0->1 (4) and 1->0 (2) become one edge {0,1} of weight 2
        assertArrayEquals(new int[] {0, 1}, u.u);
        assertArrayEquals(new int[] {1, 2}, u.v);
        assertArrayEquals(new double[] {2, 1}, u.w);
    }

    @Test
    void largeWeightsAreNotIntegral() {
        assertFalse(build(2, true, 0, 1, 4294967296.0).integralWeights());
        assertTrue(build(2, true, 0, 1, 2147483647.0).integralWeights());
    }

    /**
     * Graphs large enough for the parallel passes (duplicates, self-loops, a hub) against a plain map-based build of
     * the storage policy: the same rows in target order, the smallest weight of parallel edges, edge ids in (u, v)
     * order shared by both arcs of an undirected edge, the same integrality; scattered by one scan and by several
     * ranges of rows side by side (what inputs of a million edges get), with the same arrays.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void parallelPassesBuildWhatThePolicySays(boolean directed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(directed ? 61 : 62);
        int n = 20_000, m = 300_000;
        EdgeList e = new EdgeList(n, directed, m);
        for (int i = 0; i < m; i++) {
            int a = i % 50 == 0 ? 7 : r.nextInt(n), b = r.nextInt(i % 97 == 0 ? 30 : n);   // a hub, duplicates
            if (i % 1_000 == 0) b = a;                                                         // self-loops
            e.add(a, b, 1 + r.nextInt(1_000));
        }
        for (int parts : new int[] {1, 3, 8}) checkPolicy(GraphBuilder.build(e, parts), e, n, directed);
    }

    /**
     * Rows of every length around {@link GraphBuilder#RADIX_ROW_KEYS} (where the row sort changes method), each with
     * duplicates (some of equal weight) and self-loops, targets spanning one, two and three bytes (the radix sort's
     * passes: an odd count ends in the scratch array), against the map-based build, by one scan and by several.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void rowsOfEveryLengthAroundTheSortThreshold(boolean directed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(directed ? 63 : 64);
        int n = 200_000, t = GraphBuilder.RADIX_ROW_KEYS;
        EdgeList e = new EdgeList(n, directed);
        int row = 0;
        for (int span : new int[] {200, 60_000, n}) {
            for (int length = 0; length <= 2 * t + 2; length++) {
                if (length > 8 && Math.abs(length - t) > 3 && length != 2 * t + 2) continue;
                // undirected rows hold targets above the row (the smaller end): place the row below its targets
                int x = row++, lo = directed ? 0 : n - span;
                for (int k = 0; k < length; k++) {
                    int b = k % 7 == 3 ? x : lo + r.nextInt(span);          // self-loops
                    if (k % 5 == 4) b = e.target(e.size() - 2);              // duplicates, of random weight
                    double w = k % 11 == 10 ? e.weight(e.size() - 1) : 1 + r.nextInt(50);
                    if (k % 2 == 1 && !directed) e.add(b, x, w); else e.add(x, b, w);
                }
            }
        }
        for (int parts : new int[] {1, 3}) checkPolicy(GraphBuilder.build(e, parts), e, n, directed);
    }

    /** The row sort against Arrays.sort, rows of many lengths at an offset, targets of one to four bytes. */
    @Test
    void rowSortEqualsSortingTheKeys() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(65);
        for (int span : new int[] {1, 255, 256, 70_000, 1 << 24, Integer.MAX_VALUE}) {
            for (int length : new int[] {0, 1, 2, GraphBuilder.RADIX_ROW_KEYS - 1, GraphBuilder.RADIX_ROW_KEYS,
                    GraphBuilder.RADIX_ROW_KEYS + 1, 5_000}) {
                long[] keys = new long[length + 10];
                int base = r.nextInt(Integer.MAX_VALUE - span + 1);
                for (int k = 0; k < length; k++) keys[5 + k] = ((long) (base + r.nextInt(span)) << 32) | k;
                long[] want = keys.clone();
                java.util.Arrays.sort(want, 5, 5 + length);
                GraphBuilder.sortRow(keys, 5, 5 + length);
                assertArrayEquals(want, keys, "span " + span + ", length " + length);
            }
        }
    }

    private static void checkPolicy(CsrGraph g, EdgeList e, int n, boolean directed) {
        java.util.TreeMap<Long, Double> canonical = new java.util.TreeMap<>();
        for (int i = 0; i < e.size(); i++) {
            int a = e.source(i), b = e.target(i);
            if (a == b) continue;
            int u = directed ? a : Math.min(a, b), v = directed ? b : Math.max(a, b);
            canonical.merge(((long) u << 32) | v, e.weight(i), Math::min);
        }
        assertEquals(canonical.size(), g.edgeCount());
        java.util.List<java.util.List<long[]>> rows = new java.util.ArrayList<>();   // per row: {target, id, weight bits}
        for (int x = 0; x < n; x++) rows.add(new java.util.ArrayList<>());
        int id = 0;
        for (var entry : canonical.entrySet()) {
            int u = (int) (entry.getKey() >>> 32), v = (int) (long) entry.getKey();
            long w = Double.doubleToLongBits(entry.getValue());
            rows.get(u).add(new long[] {v, id, w});
            if (!directed) rows.get(v).add(new long[] {u, id, w});
            id++;
        }
        for (int x = 0; x < n; x++) {
            java.util.List<long[]> want = rows.get(x);
            want.sort(java.util.Comparator.comparingLong(a -> a[0]));
            assertEquals(want.size(), g.degree(x), "degree of " + x);
            for (int k = 0; k < want.size(); k++) {
                int arc = g.rowStart(x) + k;
                assertEquals(want.get(k)[0], g.columns()[arc], "row " + x + " position " + k + ": target");
                assertEquals(want.get(k)[1], g.arcEdgeIds()[arc], "row " + x + " position " + k + ": edge id");
                assertEquals(Double.longBitsToDouble(want.get(k)[2]), g.weights()[arc], 0.0, "row " + x + ": weight");
            }
        }
        assertTrue(g.integralWeights());
    }
}
