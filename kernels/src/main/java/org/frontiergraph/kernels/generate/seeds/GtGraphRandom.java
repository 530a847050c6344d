package org.frontiergraph.kernels.generate.seeds;

import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The random graphs of paper 000 (Wang, Huang, Guo, GPU Prim; §V.C): "the random generator from Georgia Tech graph
 * generator suite" (GTgraph {@code random}, model 1: G(n, m), each edge a uniformly chosen pair), 2^7..2^14 vertices,
 * twice as many edges (2^8..2^15), weights integers uniform in 1..1000.
 *
 * <p>What 000 does not say, and what we chose:
 * <ul>
 *   <li><b>Undirected.</b> 000 computes minimum spanning trees, defined on undirected graphs (§I), and its Prim scans
 *       each vertex's list both ways ("C -> n instead of n -> C", §IV.C). Each edge is listed once.</li>
 *   <li><b>Connected.</b> Prim from vertex 0 must reach every vertex (000 fills R3 with MAX_WEIGHT where there is no
 *       edge and reads the tree back as |V| - 1 edges), but G(n, 2n) has about n e^-4 isolated vertices (2 at
 *       n = 128). So edges 0..n-2 are a random spanning tree (vertex v >= 1 joins a uniform earlier vertex, a random
 *       recursive tree) and the other m - n + 1 edges are GTgraph's uniform pairs; {@link #generate(int, long, long,
 *       boolean)} with {@code connected = false} gives plain G(n, m).</li>
 *   <li><b>Simple.</b> GTgraph draws with replacement; here self-loops are never drawn and a repeated pair is redrawn,
 *       so the graph has exactly m edges after {@code GraphBuilder} (duplicates would otherwise be merged away).
 *       "A short band of degree where all vertices lie" (000) holds: degrees are about Poisson(2m/n), vertex 0 of
 *       the tree adds about ln n.</li>
 * </ul>
 * Deterministic for a seed whatever the thread count ({@link SeededBlocks}).
 */
public final class GtGraphRandom {
    public static final int MIN_WEIGHT = 1;
    public static final int MAX_WEIGHT = 1000;
    private static final int BLOCK = 1 << 16;
    private static final long TREE = 1, PAIRS = 2, REDRAW = 3;

    private GtGraphRandom() {}

    /** A connected simple undirected graph: a random spanning tree plus uniform pairs, {@code edges} in all. */
    public static EdgeList generate(int vertices, long edges, long seed) {
        return generate(vertices, edges, seed, true);
    }

    /**
     * @param connected when true, the first n - 1 edges form a random spanning tree (needs edges >= n - 1);
     *                  when false, all edges are uniform pairs (GTgraph's plain G(n, m))
     * @throws IllegalArgumentException when vertices < 1, edges is negative or more than the n(n-1)/2 possible
     *                                  pairs, or below n - 1 when connected
     */
    public static EdgeList generate(int vertices, long edges, long seed, boolean connected) {
        checkSimple(vertices, edges);
        if (connected && edges < vertices - 1L) {
            throw new IllegalArgumentException("a connected graph on " + vertices + " vertices needs at least "
                    + (vertices - 1L) + " edges, got " + edges);
        }
        EdgeList e = new EdgeList(vertices, false, (int) edges);
        long tree = connected ? vertices - 1L : 0;
        SeededBlocks.generate(e, tree, BLOCK, seed, TREE, (r, first, count, out) -> {
            for (int k = 0; k < count; k++) {
                int v = (int) (first + k + 1);
                out.add(r.nextInt(v), v, weight(r));
            }
        });
        SeededBlocks.generate(e, edges - tree, BLOCK, seed, PAIRS, (r, first, count, out) -> {
            int[] p = new int[2];
            for (int k = 0; k < count; k++) {
                uniformPair(r, vertices, p);
                out.add(p[0], p[1], weight(r));
            }
        });
        SeededBlocks.replaceRepeatedPairs(e, seed, REDRAW, (r, p) -> uniformPair(r, vertices, p));
        return e;
    }

    static int weight(java.util.SplittableRandom r) {
        return MIN_WEIGHT + r.nextInt(MAX_WEIGHT - MIN_WEIGHT + 1);
    }

    /** A uniform pair of distinct vertices. */
    static void uniformPair(java.util.SplittableRandom r, int n, int[] out) {
        int a = r.nextInt(n), b = r.nextInt(n - 1);
        out[0] = a;
        out[1] = b < a ? b : b + 1;
    }

    /** A simple undirected graph has at most n(n-1)/2 edges (redrawing repeats is slow near that bound). */
    static void checkSimple(int vertices, long edges) {
        if (vertices < 1) throw new IllegalArgumentException("vertices must be >= 1, got " + vertices);
        long pairs = (long) vertices * (vertices - 1) / 2;
        if (edges < 0 || edges > pairs || edges > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("edges must be in 0.." + Math.min(pairs, Integer.MAX_VALUE - 8)
                    + " for a simple graph on " + vertices + " vertices, got " + edges);
        }
    }
}
