package org.frontiergraph.worker.ui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;

class GraphLayoutTest {
    @Test
    void gridLayoutIsDeterministicInTheUnitSquareAndKeepsNeighboursClose() {
        CsrGraph g = GraphBuilder.build(GridRoadGraph.generate(40, 30, 5L, 100));
        double[] p = GraphLayout.of(g);
        assertArrayEquals(p, GraphLayout.of(g), "same graph, same drawing");
        for (double x : p) assertTrue(x >= 0 && x <= 1, "coordinate " + x);
        // arcs are much shorter than the distance between two vertices picked far apart in id order
        double arcs = 0;
        int[] off = g.rowOffsets(), col = g.columns();
        for (int u = 0; u < g.vertexCount(); u++) for (int e = off[u]; e < off[u + 1]; e++) arcs += dist(p, u, col[e]);
        arcs /= g.arcCount();
        double pairs = 0;
        int n = g.vertexCount();
        for (int u = 0; u < n / 2; u++) pairs += dist(p, u, n - 1 - u);
        pairs /= n / 2;
        assertTrue(arcs * 5 < pairs, "mean arc length " + arcs + " vs mean far-pair distance " + pairs);
    }

    private static double dist(double[] p, int u, int v) {
        return Math.hypot(p[2 * u] - p[2 * v], p[2 * u + 1] - p[2 * v + 1]);
    }
}
