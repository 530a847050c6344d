package org.frontiergraph.kernels.generate;

import org.frontiergraph.kernels.graph.EdgeList;

/**
 * A road-like graph: a rows x cols grid (4-neighbour), undirected, integer weights uniform in 1..maxWeight. High
 * diameter (rows + cols - 2 hops) and low degree, like the DIMACS road networks. Vertex (r, c) has id r * cols + c;
 * edge k of the layout (right edges of row r, then down edges of row r, row by row) draws from the generator
 * blocks, so the graph is deterministic for a seed whatever the thread count.
 */
public final class GridRoadGraph {
    private GridRoadGraph() {}

    public static EdgeList generate(int rows, int cols, long seed, int maxWeight) {
        if (rows < 1 || cols < 1) throw new IllegalArgumentException("rows and cols must be >= 1");
        if (maxWeight < 1) throw new IllegalArgumentException("maxWeight must be >= 1, got " + maxWeight);
        long vertices = (long) rows * cols;
        if (vertices > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("grid too large: " + vertices);
        // per row: cols-1 right edges, then (except the last row) cols down edges
        long perRow = (cols - 1) + (long) cols;
        long edges = perRow * rows - cols;
        return Blocks.generate((int) vertices, false, edges, seed, (random, first, count, src, dst, w) -> {
            for (int k = 0; k < count; k++) {
                long e = first + k;
                long r = e / perRow;
                long j = e % perRow;
                int a, b;
                if (j < cols - 1) {
                    a = (int) (r * cols + j);
                    b = a + 1;
                } else {
                    a = (int) (r * cols + (j - (cols - 1)));
                    b = a + cols;
                }
                src[k] = a;
                dst[k] = b;
                w[k] = 1 + random.nextInt(maxWeight);
            }
        });
    }
}
