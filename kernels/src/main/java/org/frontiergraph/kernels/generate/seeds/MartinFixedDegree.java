package org.frontiergraph.kernels.generate.seeds;

import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The adjacency-list graphs of paper 003 (Martín, Torres, Gavilanes, ICCS 2009, §6): "randomly generated graphs with
 * a number of vertices that ranges from 1 to 11 M ... The degree of each graph is fixed, so every vertex has the same
 * number of adjacent vertices. The chosen degree is 7 ... graphs have been generated using the predecessor
 * interpretation ... Edge weights are integers that randomly range from 1 to 10."
 *
 * <p>So: directed; every vertex v has exactly {@code degree} distinct predecessors other than itself, uniform, and
 * the arcs are p -> v. In-degree is exactly {@code degree} after {@code GraphBuilder} (no self-loops, no repeats);
 * out-degree varies (about Poisson(degree)), which is 003's remark that "the degree of the graph can not be kept" in
 * the successor interpretation. The predecessor lists that relax_U reads are the rows of
 * {@code GraphBuilder.build(list).transpose()}. The edge list holds vertex 0's predecessors first, then vertex 1's,
 * and so on. Deterministic for a seed whatever the thread count.
 */
public final class MartinFixedDegree {
    /** 003's degree for adjacency lists. */
    public static final int DEGREE = 7;
    public static final int MIN_WEIGHT = 1;
    public static final int MAX_WEIGHT = 10;
    private static final int BLOCK_EDGES = 1 << 16;
    /** Up to this degree repeats are found by scanning the chosen predecessors; above, with a mark array. */
    private static final int SCAN_LIMIT = 32;
    private static final long PREDECESSORS = 31;

    private MartinFixedDegree() {}

    /** 003's graph: {@code vertices} vertices, each with exactly 7 predecessors. */
    public static EdgeList generate(int vertices, long seed) {
        return generate(vertices, DEGREE, seed);
    }

    /**
     * Every vertex gets exactly {@code degree} distinct predecessors.
     *
     * @throws IllegalArgumentException when vertices < 1, degree < 0, degree > vertices - 1, or the graph would have
     *                                  more than Integer.MAX_VALUE - 8 edges
     */
    public static EdgeList generate(int vertices, int degree, long seed) {
        if (vertices < 1) throw new IllegalArgumentException("vertices must be >= 1, got " + vertices);
        if (degree < 0 || degree > vertices - 1) {
            throw new IllegalArgumentException("degree must be in 0.." + (vertices - 1) + " (distinct predecessors other"
                    + " than the vertex itself), got " + degree);
        }
        long edges = (long) vertices * degree;
        if (edges > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(vertices + " vertices of degree " + degree + " make " + edges
                    + " edges; at most " + (Integer.MAX_VALUE - 8) + " are supported");
        }
        EdgeList e = new EdgeList(vertices, true, (int) edges);
        int block = Math.max(1, BLOCK_EDGES / Math.max(1, degree));
        SeededBlocks.generate(e, vertices, block, seed, PREDECESSORS, (r, first, count, out) -> {
            int[] chosen = new int[degree];
            boolean[] marks = degree > SCAN_LIMIT ? new boolean[vertices] : null;
            for (int k = 0; k < count; k++) {
                int v = (int) first + k;
                SeededBlocks.sampleDistinct(r, vertices, v, degree, chosen, marks);
                for (int p : chosen) out.add(p, v, MIN_WEIGHT + r.nextInt(MAX_WEIGHT - MIN_WEIGHT + 1));
            }
        });
        return e;
    }
}
