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
}
