package org.frontiergraph.kernels.generate.seeds;

import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The dense graphs of paper 003 (§5 and §6) for its adjacency-matrix versions: 1 K to 15 K vertices, "the degree of
 * each graph is fixed ... n/5 for matrices", weights integers 1..10.
 *
 * <p>003 states the predecessor interpretation only for its lists; we generate the matrices the same way, as
 * {@link MartinFixedDegree} with degree floor(n / 5): every vertex has exactly n / 5 distinct predecessors (each
 * column of the matrix that U_GPU reads holds n / 5 entries), directed, about n^2 / 5 edges (45 M at n = 15 K,
 * some 720 MB as an EdgeList).
 */
public final class MartinDense {
    /** The degree is n / DEGREE_DIVISOR. */
    public static final int DEGREE_DIVISOR = 5;

    private MartinDense() {}

    /** @throws IllegalArgumentException when vertices < 5 (degree n / 5 would be 0) */
    public static EdgeList generate(int vertices, long seed) {
        if (vertices < DEGREE_DIVISOR) {
            throw new IllegalArgumentException("a dense graph of degree n/5 needs at least " + DEGREE_DIVISOR
                    + " vertices, got " + vertices);
        }
        return MartinFixedDegree.generate(vertices, degree(vertices), seed);
    }

    /** floor(n / 5). */
    public static int degree(int vertices) {
        return vertices / DEGREE_DIVISOR;
    }
}
