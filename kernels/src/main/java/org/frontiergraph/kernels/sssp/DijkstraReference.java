package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import java.util.PriorityQueue;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Textbook Dijkstra with a lazy-deletion binary heap, written to be obviously right.
 * The verifier's reference for distances (and the paper baselines' "Dijkstra").
 */
public final class DijkstraReference {
    private DijkstraReference() {}

    public static SsspResult run(CsrGraph g, int source) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        double[] dist = new double[n];
        int[] parent = new int[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        Arrays.fill(parent, SsspResult.NO_PARENT);
        boolean[] done = new boolean[n];
        dist[source] = 0;
        parent[source] = source;
        PriorityQueue<double[]> heap = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        heap.add(new double[] {0, source});
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        while (!heap.isEmpty()) {
            double[] top = heap.poll();
            int u = (int) top[1];
            if (done[u]) continue;
            done[u] = true;
            for (int e = off[u]; e < off[u + 1]; e++) {
                int v = col[e];
                double nd = dist[u] + w[e];
                if (nd < dist[v]) {
                    dist[v] = nd;
                    parent[v] = u;
                    heap.add(new double[] {nd, v});
                }
            }
        }
        return new SsspResult(source, dist, parent, Timing.since(t0));
    }
}
