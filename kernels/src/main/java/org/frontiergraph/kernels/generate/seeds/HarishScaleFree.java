package org.frontiergraph.kernels.generate.seeds;

import java.util.Arrays;
import java.util.HashSet;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The "scale-free" graphs of paper 004 (Harish and Narayanan, §4, Fig. 5): "a few vertices are of high degree while
 * the rest are of low degree ... we kept the maximum degree of any vertex to be 1000 and average degree per vertex to
 * be 6. A small fraction (0.1%) of the total number of vertices were given high degrees." Weights 1..10.
 *
 * <p>004 gives no more than that; our construction, undirected like {@link HarishRandom}:
 * <ol>
 *   <li><b>Hubs:</b> h = round(n / 1000) vertices (at least 1), chosen uniformly among all ids (so that degree does
 *       not follow the id).</li>
 *   <li>Each hub gets a degree uniform in [{@link #MAX_DEGREE} / 2, {@link #MAX_DEGREE}] (capped at the number of
 *       non-hubs) and that many distinct non-hub neighbours, uniform. Hubs are not adjacent to each other, so a
 *       hub's degree is exactly what it drew: at most 1000, at least 500.</li>
 *   <li>The other 3n - (hub edges) edges join uniform pairs of non-hubs, simple (repeats redrawn). Non-hubs end with
 *       about 5.25 neighbours on average, Poisson-like, far below the hubs.</li>
 * </ol>
 * So the graph has exactly 3n edges (average degree exactly 6), maximum degree 1000, and exactly h vertices of
 * degree >= 500. Deterministic for a seed whatever the thread count.
 */
public final class HarishScaleFree {
    public static final int AVERAGE_DEGREE = 6;
    public static final int MAX_DEGREE = 1000;
    /** One vertex in a thousand is a hub (0.1%). */
    public static final int VERTICES_PER_HUB = 1000;
    public static final int MIN_VERTICES = 1000;
    private static final int HUB_BLOCK = 16;
    private static final int PAIR_BLOCK = 1 << 16;
    private static final long HUBS = 21, HUB_EDGES = 22, PAIRS = 23, REDRAW = 24;

    private HarishScaleFree() {}

    /**
     * @throws IllegalArgumentException when vertices < {@link #MIN_VERTICES} (0.1% of fewer vertices is no vertex)
     */
    public static EdgeList generate(int vertices, long seed) {
        if (vertices < MIN_VERTICES) {
            throw new IllegalArgumentException("a scale-free graph with 0.1% hubs needs at least " + MIN_VERTICES
                    + " vertices, got " + vertices);
        }
        int n = vertices;
        int hubCount = hubCount(n);
        int[] hubs = hubs(n, hubCount, seed);
        boolean[] isHub = new boolean[n];
        for (int h : hubs) isHub[h] = true;
        int[] low = new int[n - hubCount];
        for (int v = 0, c = 0; v < n; v++) if (!isHub[v]) low[c++] = v;
        int cap = Math.min(MAX_DEGREE, low.length);
        long edges = (long) n * AVERAGE_DEGREE / 2;
        EdgeList e = new EdgeList(n, false, (int) edges);

        SeededBlocks.generate(e, hubCount, HUB_BLOCK, seed, HUB_EDGES, (r, first, count, out) -> {
            for (int k = 0; k < count; k++) {
                int hub = hubs[(int) first + k];
                int degree = cap / 2 + r.nextInt(cap - cap / 2 + 1);
                HashSet<Integer> chosen = new HashSet<>(2 * degree);
                while (chosen.size() < degree) {
                    int v = low[r.nextInt(low.length)];
                    if (chosen.add(v)) out.add(hub, v, HarishRandom.weight(r));
                }
            }
        });
        long lowEdges = edges - e.size();
        long lowPairs = (long) low.length * (low.length - 1) / 2;
        if (lowEdges < 0 || lowEdges > lowPairs) {
            throw new IllegalStateException("cannot place " + lowEdges + " low-degree edges among " + low.length
                    + " vertices");
        }
        SeededBlocks.generate(e, lowEdges, PAIR_BLOCK, seed, PAIRS, (r, first, count, out) -> {
            int[] p = new int[2];
            for (int k = 0; k < count; k++) {
                lowPair(r, low, p);
                out.add(p[0], p[1], HarishRandom.weight(r));
            }
        });
        SeededBlocks.replaceRepeatedPairs(e, seed, REDRAW, (r, p) -> lowPair(r, low, p));
        return e;
    }

    /** 0.1% of {@code vertices}, rounded, at least one. */
    public static int hubCount(int vertices) {
        return Math.max(1, (int) Math.round(vertices / (double) VERTICES_PER_HUB));
    }

    /** The hub ids, ascending. */
    private static int[] hubs(int n, int count, long seed) {
        int[] ids = new int[count];
        // distinct ids in 0..n-1: Floyd's sampling over 0..n with the extra candidate n excluded
        SeededBlocks.sampleDistinct(SeededBlocks.stream(seed, HUBS, 0), n + 1, n, count, ids, new boolean[n + 1]);
        Arrays.sort(ids);
        return ids;
    }

    private static void lowPair(SplittableRandom r, int[] low, int[] out) {
        int a = r.nextInt(low.length), b = r.nextInt(low.length - 1);
        out[0] = low[a];
        out[1] = low[b < a ? b : b + 1];
    }
}
