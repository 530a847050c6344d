package org.frontiergraph.bench;

import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.interfaces.SpanningTreeAlgorithm.SpanningTree;
import org.jgrapht.graph.DefaultWeightedEdge;

/**
 * Compares the CPU engine's answers with JGraphT's. Each method returns null when they agree, otherwise a one-line
 * description of the first difference. Distances and depths are compared exactly; MST weights exactly when both
 * are integral sums (as on the benchmark graphs), else to a relative 1e-12.
 */
final class Answers {
    private Answers() {}

    static String bfs(BfsResult cpu, JGraphTSide side, JGraphTSide.Bfs jg) {
        int[] hops = cpu.hops();
        int reached = 0;
        for (int h : hops) if (h != BfsResult.UNREACHED) reached++;
        if (reached != jg.order().length) {
            return "reached " + reached + " vertices, JGraphT " + jg.order().length;
        }
        for (int v : jg.order()) {
            int depth = jg.iterator().getDepth(side.vertex(v));
            if (hops[v] != depth) return "vertex " + v + " at depth " + hops[v] + ", JGraphT " + depth;
        }
        return null;
    }

    static String sssp(SsspResult cpu, JGraphTSide side, SingleSourcePaths<Integer, DefaultWeightedEdge> jg) {
        double[] d = cpu.distances();
        for (int v = 0; v < d.length; v++) {
            double expected = jg.getWeight(side.vertex(v));
            if (Double.compare(d[v], expected) != 0) {
                return "distance of vertex " + v + " is " + d[v] + ", JGraphT " + expected;
            }
        }
        return null;
    }

    static String mst(MstResult cpu, int vertexCount, SpanningTree<DefaultWeightedEdge> jg) {
        if (cpu.edgeIds().length != jg.getEdges().size()) {
            return "forest of " + cpu.edgeIds().length + " edges, JGraphT " + jg.getEdges().size();
        }
        if (cpu.components() != vertexCount - cpu.edgeIds().length) {
            return cpu.components() + " components but " + cpu.edgeIds().length + " edges on " + vertexCount
                    + " vertices";
        }
        double a = cpu.totalWeight(), b = jg.getWeight();
        boolean integral = a == Math.rint(a) && b == Math.rint(b);
        boolean equal = integral ? a == b : Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
        return equal ? null : "total weight " + a + ", JGraphT " + b;
    }
}
