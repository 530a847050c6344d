package org.frontiergraph.kernels.generate;

import org.frontiergraph.kernels.graph.EdgeList;

/**
 * Uniform random graph (Erdős–Rényi G(n, m) with replacement, as gapbs {@code -u}): each edge picks both endpoints
 * uniformly and an integer weight uniformly in 1..maxWeight. Deterministic for a seed whatever the thread count.
 * Self-loops and duplicates are generated as drawn; {@link org.frontiergraph.kernels.graph.GraphBuilder} drops
 * and merges them, so the built graph has slightly fewer edges than asked for.
 */
public final class UniformRandomGraph {
    private UniformRandomGraph() {}

    public static EdgeList generate(int vertices, long edges, long seed, int maxWeight, boolean directed) {
        if (vertices < 1) throw new IllegalArgumentException("vertices must be >= 1, got " + vertices);
        if (maxWeight < 1) throw new IllegalArgumentException("maxWeight must be >= 1, got " + maxWeight);
        return Blocks.generate(vertices, directed, edges, seed, (random, first, count, src, dst, w) -> {
            for (int k = 0; k < count; k++) {
                src[k] = random.nextInt(vertices);
                dst[k] = random.nextInt(vertices);
                w[k] = 1 + random.nextInt(maxWeight);
            }
        });
    }
}
