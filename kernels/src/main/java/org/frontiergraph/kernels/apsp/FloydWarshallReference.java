package org.frontiergraph.kernels.apsp;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Textbook Floyd–Warshall, one thread, written to be obviously right: the verifier's reference for small graphs.
 * d starts as the weighted adjacency matrix (0 on the diagonal, +infinity where there is no arc); then for every
 * intermediate vertex k, in order, d[i][j] = min(d[i][j], d[i][k] + d[k][j]). O(n^3) time.
 */
public final class FloydWarshallReference {
    private FloydWarshallReference() {}

    public static ApspResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        double[] d = adjacencyMatrix(g);
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double through = d[i * n + k] + d[k * n + j];
                    if (through < d[i * n + j]) d[i * n + j] = through;
                }
            }
        }
        return new ApspResult(n, d, Timing.since(t0));
    }

    /** n * n row-major: 0 on the diagonal, the arc's weight where there is one, +infinity elsewhere. */
    static double[] adjacencyMatrix(CsrGraph g) {
        int n = g.vertexCount();
        double[] d = new double[n * n];
        Arrays.fill(d, Double.POSITIVE_INFINITY);
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        for (int u = 0; u < n; u++) {
            d[u * n + u] = 0;
            for (int e = off[u]; e < off[u + 1]; e++) d[u * n + col[e]] = Math.min(d[u * n + col[e]], w[e]);
        }
        return d;
    }
}
