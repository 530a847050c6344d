package org.frontiergraph.kernels.generate;

import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * Graph500 Kronecker (R-MAT) graph: 2^scale vertices, edgeFactor * 2^scale undirected edges. Each edge descends
 * scale levels of the adjacency matrix, choosing a quadrant with probabilities A = 0.57, B = C = 0.19, D = 0.05;
 * vertex labels are then scrambled by a random permutation (Graph500's permutation step) so that degree does not
 * follow the id. Weights are uniform integers 1..{@link #MAX_WEIGHT}. Deterministic for a seed whatever the thread
 * count. Self-loops and duplicates are left to {@link org.frontiergraph.kernels.graph.GraphBuilder}.
 */
public final class KroneckerGraph {
    public static final double A = 0.57, B = 0.19, C = 0.19, D = 0.05;
    public static final int MAX_WEIGHT = 255;
    /** Seed offset for the permutation, so that it does not reuse block 0's stream. */
    private static final long PERMUTATION_STREAM = 0x5DEECE66DL;

    private KroneckerGraph() {}

    public static EdgeList generate(int scale, int edgeFactor, long seed) {
        if (scale < 1 || scale > 30) throw new IllegalArgumentException("scale must be in 1..30, got " + scale);
        if (edgeFactor < 1) throw new IllegalArgumentException("edgeFactor must be >= 1, got " + edgeFactor);
        int n = 1 << scale;
        int[] permutation = permutation(n, new SplittableRandom(seed ^ PERMUTATION_STREAM));
        long edges = (long) edgeFactor * n;
        return Blocks.generate(n, false, edges, seed, (random, first, count, src, dst, w) -> {
            for (int k = 0; k < count; k++) {
                int u = 0, v = 0;
                for (int level = 0; level < scale; level++) {
                    double r = random.nextDouble();
                    u <<= 1;
                    v <<= 1;
                    if (r < A) {
                        // top-left quadrant
                    } else if (r < A + B) {
                        v |= 1;
                    } else if (r < A + B + C) {
                        u |= 1;
                    } else {
                        u |= 1;
                        v |= 1;
                    }
                }
                src[k] = permutation[u];
                dst[k] = permutation[v];
                w[k] = 1 + random.nextInt(MAX_WEIGHT);
            }
        });
    }

    /** Fisher-Yates shuffle of 0..n-1. */
    static int[] permutation(int n, SplittableRandom random) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i]; p[i] = p[j]; p[j] = t;
        }
        return p;
    }
}
