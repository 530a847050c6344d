package org.frontiergraph.kernels.generate.seeds;

import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The "random general graphs" of paper 004 (Harish and Narayanan, HiPC 2007, §4, Fig. 4 and 7): average degree 6
 * ("the degree per vertex is 6-7"), weights integers uniform in 1..10, up to 10 M vertices.
 *
 * <p>004 names no generator and no direction. Our reading:
 * <ul>
 *   <li><b>Undirected</b>, n * d / 2 edges, so that every vertex has on average d = 6 neighbours: 004 defines BFS on
 *       undirected graphs (§3.2), and "degree" counts adjacency-list entries (its Table 1 gives New York as 250 K
 *       vertices, 730 K edges, "2-3 degree per vertex", i.e. arcs per vertex). Stored as CSR each edge is two arcs,
 *       6n arcs in all, which matches 004's memory bound (12 M vertices of degree 6 fill a 768 MB card).</li>
 *   <li><b>Uniform pairs</b> (Erdős–Rényi G(n, m)), simple: no self-loops, repeated pairs redrawn, so the built
 *       graph has exactly n d / 2 edges; degrees are about Poisson(d). Not forced connected: about n e^-d vertices
 *       (0.25% at d = 6) are isolated, which BFS and SSSP handle as unreachable.</li>
 * </ul>
 * Deterministic for a seed whatever the thread count.
 */
public final class HarishRandom {
    public static final int AVERAGE_DEGREE = 6;
    public static final int MIN_WEIGHT = 1;
    public static final int MAX_WEIGHT = 10;
    private static final int BLOCK = 1 << 16;
    private static final long PAIRS = 11, REDRAW = 12;

    private HarishRandom() {}

    /** 004's random graph: {@code vertices} vertices, average degree 6 (3 * vertices undirected edges). */
    public static EdgeList generate(int vertices, long seed) {
        return generate(vertices, AVERAGE_DEGREE, seed);
    }

    /**
     * A random graph of average degree {@code averageDegree} (004's Fig. 7 varies it): round(n * d / 2) edges.
     *
     * @throws IllegalArgumentException when vertices < 1, averageDegree < 0, or the graph cannot be simple
     */
    public static EdgeList generate(int vertices, int averageDegree, long seed) {
        if (averageDegree < 0) throw new IllegalArgumentException("averageDegree must be >= 0, got " + averageDegree);
        long edges = ((long) vertices * averageDegree + 1) / 2;
        GtGraphRandom.checkSimple(vertices, edges);
        EdgeList e = new EdgeList(vertices, false, (int) edges);
        SeededBlocks.generate(e, edges, BLOCK, seed, PAIRS, (r, first, count, out) -> {
            int[] p = new int[2];
            for (int k = 0; k < count; k++) {
                GtGraphRandom.uniformPair(r, vertices, p);
                out.add(p[0], p[1], weight(r));
            }
        });
        SeededBlocks.replaceRepeatedPairs(e, seed, REDRAW, (r, p) -> GtGraphRandom.uniformPair(r, vertices, p));
        return e;
    }

    static int weight(java.util.SplittableRandom r) {
        return MIN_WEIGHT + r.nextInt(MAX_WEIGHT - MIN_WEIGHT + 1);
    }
}
