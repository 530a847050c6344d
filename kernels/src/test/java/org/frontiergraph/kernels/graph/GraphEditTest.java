package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** GraphEdit gives the next version: removals, then re-weights, then additions; the old version is untouched. */
class GraphEditTest {
    private static final long SEED = 0x5eed_0006L;
    private static final int[] NONE = {};
    private static final double[] NO_WEIGHTS = {};

    private static CsrGraph build(int n, boolean directed, double... triples) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < triples.length; i += 3) e.add((int) triples[i], (int) triples[i + 1], triples[i + 2]);
        return GraphBuilder.build(e);
    }

    /** Path 0-1-2-3 with weights 1, 2, 3. */
    private static CsrGraph path(boolean directed) {
        return build(4, directed, 0, 1, 1, 1, 2, 2, 2, 3, 3);
    }

    private static void assertSameGraph(CsrGraph expected, CsrGraph actual) {
        assertEquals(expected.vertexCount(), actual.vertexCount());
        assertEquals(expected.directed(), actual.directed());
        assertEquals(expected.edgeCount(), actual.edgeCount());
        assertEquals(expected.integralWeights(), actual.integralWeights());
        assertArrayEquals(expected.rowOffsets(), actual.rowOffsets());
        assertArrayEquals(expected.columns(), actual.columns());
        assertArrayEquals(expected.weights(), actual.weights());
        assertArrayEquals(expected.arcEdgeIds(), actual.arcEdgeIds());
    }

    private static void assertKind(InvalidGraphException.Kind kind, Executable edit) {
        InvalidGraphException e = assertThrows(InvalidGraphException.class, edit);
        assertEquals(kind, e.kind(), e.getMessage());
    }

    @Test
    void reweightOnlyKeepsTheStructureAndChangesBothArcsOfAnUndirectedEdge() {
        CsrGraph g = path(false);
        double[] before = g.weights().clone();
        CsrGraph next = GraphEdit.reweight(g, new int[] {2}, new int[] {1}, new double[] {7.5});
        assertTrue(next.sameStructure(g));
        assertSame(g.arcEdgeIds(), next.arcEdgeIds());
        assertEquals(7.5, next.weights()[next.findArc(1, 2)]);
        assertEquals(7.5, next.weights()[next.findArc(2, 1)]);
        assertEquals(1, next.weights()[next.findArc(0, 1)]);
        assertEquals(3, next.weights()[next.findArc(3, 2)]);
        assertArrayEquals(before, g.weights(), "the old version is untouched");
        assertFalse(next.integralWeights());
        assertTrue(g.integralWeights());
        assertEquals(7.5, next.undirectedEdges().w[1], "MST edges see the new weight");
        assertSameGraph(build(4, false, 0, 1, 1, 1, 2, 7.5, 2, 3, 3), next);
    }

    @Test
    void reweightOnADirectedGraphChangesOneArc() {
        CsrGraph g = build(3, true, 0, 1, 1, 1, 0, 4);
        CsrGraph next = GraphEdit.reweight(g, new int[] {0}, new int[] {1}, new double[] {2});
        assertTrue(next.sameStructure(g));
        assertEquals(2, next.weights()[next.findArc(0, 1)]);
        assertEquals(4, next.weights()[next.findArc(1, 0)]);
        assertTrue(next.integralWeights());
        assertEquals(4, next.transpose().weights()[next.transpose().findArc(0, 1)], "transpose is built from the new weights");
        assertEquals(2, next.transpose().weights()[next.transpose().findArc(1, 0)]);
    }

    @Test
    void removeAndAddRebuild() {
        CsrGraph g = path(false);
        // remove {0,1} named backwards; add {0,3}; add {1,2} again, lighter (the smaller weight wins)
        CsrGraph next = GraphEdit.apply(g, new int[] {1}, new int[] {0}, NONE, NONE, NO_WEIGHTS,
                new int[] {0, 1}, new int[] {3, 2}, new double[] {4, 0.5});
        assertFalse(next.sameStructure(g));
        assertSameGraph(build(4, false, 1, 2, 0.5, 2, 3, 3, 0, 3, 4), next);
        assertEquals(3, g.edgeCount(), "the old version is untouched");
        assertTrue(g.findArc(0, 1) >= 0);
    }

    @Test
    void removeThenAddTheSameEdgeReplacesItsWeight() {
        CsrGraph g = path(true);
        CsrGraph heavier = GraphEdit.apply(g, new int[] {1}, new int[] {2}, NONE, NONE, NO_WEIGHTS,
                new int[] {1}, new int[] {2}, new double[] {9});
        assertEquals(9, heavier.weights()[heavier.findArc(1, 2)], "removal first, so the new weight is not merged away");
        CsrGraph merged = GraphEdit.apply(g, NONE, NONE, NONE, NONE, NO_WEIGHTS, new int[] {1}, new int[] {2}, new double[] {9});
        assertEquals(2, merged.weights()[merged.findArc(1, 2)], "adding an existing edge keeps the smaller weight");
    }

    @Test
    void reweightsApplyBeforeAdditions() {
        CsrGraph g = path(false);
        CsrGraph next = GraphEdit.apply(g, NONE, NONE, new int[] {0}, new int[] {1}, new double[] {10},
                new int[] {3}, new int[] {0}, new double[] {1});
        assertSameGraph(build(4, false, 0, 1, 10, 1, 2, 2, 2, 3, 3, 0, 3, 1), next);
    }

    @ParameterizedTest(name = "directed={0}")
    @ValueSource(booleans = {false, true})
    void seededEditMatchesRebuildingFromTheEditedEdgeList(boolean directed) {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(200, 1_000, SEED, 20, directed));
        List<int[]> edges = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) {
                if (directed || u < g.columns()[a]) {
                    edges.add(new int[] {u, g.columns()[a]});
                    weights.add(g.weights()[a]);
                }
            }
        }
        Random r = new Random(SEED);
        int k = 10;
        int[] ru = new int[k], rv = new int[k], wu = new int[k], wv = new int[k], au = new int[k], av = new int[k];
        double[] ww = new double[k], aw = new double[k];
        List<Integer> shuffled = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) shuffled.add(i);
        java.util.Collections.shuffle(shuffled, r);
        for (int i = 0; i < k; i++) {
            int[] rem = edges.get(shuffled.get(i)), rew = edges.get(shuffled.get(k + i));
            ru[i] = rem[0]; rv[i] = rem[1];
            wu[i] = rew[1]; wv[i] = rew[0];  // named backwards: fine when undirected, so only then
            if (directed) { wu[i] = rew[0]; wv[i] = rew[1]; }
            ww[i] = 0.25 * (1 + r.nextInt(100));
            au[i] = r.nextInt(200); av[i] = r.nextInt(200); aw[i] = 1 + r.nextInt(50);
        }
        EdgeList expected = new EdgeList(200, directed);
        for (int i = 0; i < edges.size(); i++) {
            int pos = shuffled.indexOf(i);
            if (pos < k) continue;
            expected.add(edges.get(i)[0], edges.get(i)[1], pos < 2 * k ? ww[pos - k] : weights.get(i));
        }
        for (int i = 0; i < k; i++) expected.add(au[i], av[i], aw[i]);
        CsrGraph next = GraphEdit.apply(g, ru, rv, wu, wv, ww, au, av, aw);
        assertSameGraph(GraphBuilder.build(expected), next);
    }

    @Test
    void missingEdgesAreInvalidEdges() {
        CsrGraph g = path(true);
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.apply(g, new int[] {0}, new int[] {2},
                NONE, NONE, NO_WEIGHTS, NONE, NONE, NO_WEIGHTS));
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.reweight(g, new int[] {1}, new int[] {0}, new double[] {1}));
        // removed and re-weighted in one update
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.apply(g, new int[] {0}, new int[] {1},
                new int[] {0}, new int[] {1}, new double[] {5}, NONE, NONE, NO_WEIGHTS));
        // in an undirected graph, (1, 0) is the edge {0, 1}
        assertEquals(2, GraphEdit.apply(path(false), new int[] {1}, new int[] {0}, NONE, NONE, NO_WEIGHTS, NONE, NONE, NO_WEIGHTS).edgeCount());
    }

    @Test
    void outOfRangeVerticesAreInvalidVertices() {
        CsrGraph g = path(false);
        assertKind(InvalidGraphException.Kind.INVALID_VERTEX, () -> GraphEdit.apply(g, new int[] {0}, new int[] {4},
                NONE, NONE, NO_WEIGHTS, NONE, NONE, NO_WEIGHTS));
        assertKind(InvalidGraphException.Kind.INVALID_VERTEX, () -> GraphEdit.reweight(g, new int[] {-1}, new int[] {0}, new double[] {1}));
        assertKind(InvalidGraphException.Kind.INVALID_VERTEX, () -> GraphEdit.apply(g, NONE, NONE, NONE, NONE, NO_WEIGHTS,
                new int[] {0}, new int[] {4}, new double[] {1}));
        assertKind(InvalidGraphException.Kind.INVALID_VERTEX, () -> GraphEdit.apply(g, NONE, NONE, NONE, NONE, NO_WEIGHTS,
                new int[] {-1}, new int[] {2}, new double[] {1}));
    }

    @ParameterizedTest
    @ValueSource(doubles = {-1, -1e-300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void negativeOrNonFiniteWeightsAreInvalidWeights(double w) {
        CsrGraph g = path(false);
        assertKind(InvalidGraphException.Kind.INVALID_WEIGHT, () -> GraphEdit.reweight(g, new int[] {0}, new int[] {1}, new double[] {w}));
        assertKind(InvalidGraphException.Kind.INVALID_WEIGHT, () -> GraphEdit.apply(g, NONE, NONE, NONE, NONE, NO_WEIGHTS,
                new int[] {0}, new int[] {3}, new double[] {w}));
    }

    @Test
    void zeroWeightIsAllowed() {
        CsrGraph next = GraphEdit.reweight(path(false), new int[] {0}, new int[] {1}, new double[] {0});
        assertEquals(0, next.weights()[next.findArc(1, 0)]);
    }

    @Test
    void lengthMismatchesAreInvalidEdges() {
        CsrGraph g = path(false);
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.apply(g, new int[] {0, 1}, new int[] {1},
                NONE, NONE, NO_WEIGHTS, NONE, NONE, NO_WEIGHTS));
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.reweight(g, new int[] {0}, new int[] {1}, new double[] {1, 2}));
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.apply(g, NONE, NONE, NONE, NONE, NO_WEIGHTS,
                new int[] {0}, new int[] {3}, NO_WEIGHTS));
        assertKind(InvalidGraphException.Kind.INVALID_EDGE, () -> GraphEdit.apply(g, NONE, NONE, NONE, NONE, NO_WEIGHTS,
                new int[] {0}, new int[] {3, 2}, new double[] {1}));
    }
}
