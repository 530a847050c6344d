package org.frontiergraph.kernels.apsp;

import java.util.List;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.CpuSssp;

/**
 * CPU engine APSP, the two approaches of paper 004 (§3.4), both on all cores:
 * <ul>
 *   <li>{@value #FLOYD_WARSHALL}: blocked Floyd–Warshall (Venkataraman, Sahni, Mukhopadhyaya, "A blocked all-pairs
 *       shortest-paths algorithm", JEA 2003). For each diagonal tile kb: the tile itself, then its row and column
 *       tiles in parallel, then every other tile in parallel, each tile a Floyd–Warshall sweep over k in kb that stays
 *       in cache. O(n^3), independent of the number of edges: the choice for nearly complete graphs;</li>
 *   <li>{@value #REPEATED_SSSP}: {@link CpuSssp} (Dijkstra) from every source, sources in parallel, each row copied
 *       into the matrix. O(n (m + n log n)): the choice for all but nearly complete graphs (004 found the same on
 *       its GPU: "APSP using SSSP").</li>
 * </ul>
 * {@code variant == null} takes {@link #defaultVariant(CsrGraph)}, the one expected to be faster: repeated SSSP
 * unless the average degree is above about n / 3. Both give exact
 * distances with integral weights; with fractional weights their additions associate differently (Dijkstra adds
 * from the source, Floyd–Warshall joins two halves), so they may differ in the last bits ({@link ApspVerifier}).
 */
public final class CpuApsp {
    public static final String FLOYD_WARSHALL = "floyd-warshall";
    public static final String REPEATED_SSSP = "repeated-sssp";
    public static final List<String> VARIANTS = List.of(FLOYD_WARSHALL, REPEATED_SSSP);
    /** Tile edge of the blocked Floyd–Warshall: three 64 x 64 tiles of doubles (96 KB) stay in L2. */
    static final int TILE = 64;
    /**
     * Repeated SSSP is taken while {@value} * arcs + n log2 n < n^2: the n Dijkstras relax every arc once each
     * (a relax cost about as much as {@value} Floyd–Warshall steps) and pop every vertex, against n^3
     * Floyd–Warshall steps. Measured on a 2-core machine: rome99 (3,353 vertices, 8,859 arcs) 3.2 s against 25 s;
     * 003's dense graphs (degree n / 5) 0.7 s against 1.4 s at n = 1,000, 9-15 s against 18-20 s at n = 2,000. So
     * Floyd–Warshall is the default only when the average degree exceeds about n / 3.
     */
    static final int DIJKSTRA_ARC_COST = 3;

    private CpuApsp() {}

    /** APSP within {@link ApspLimits#defaults()}. */
    public static ApspResult run(CsrGraph g, String variant) {
        return run(g, variant, ApspLimits.defaults());
    }

    /**
     * @param variant {@value #FLOYD_WARSHALL}, {@value #REPEATED_SSSP}, or null for {@link #defaultVariant(CsrGraph)}
     * @throws UnsupportedVariantException for another variant
     * @throws org.frontiergraph.kernels.engine.GraphTooLargeException when {@code limits} refuse the graph
     */
    public static ApspResult run(CsrGraph g, String variant, ApspLimits limits) {
        String v = variant == null ? defaultVariant(g) : variant;
        if (!VARIANTS.contains(v)) throw new UnsupportedVariantException("apsp", variant, "cpu", VARIANTS);
        limits.check(g.vertexCount());
        return v.equals(FLOYD_WARSHALL) ? floydWarshall(g) : repeatedSssp(g);
    }

    /** {@value #REPEATED_SSSP} for sparse graphs, {@value #FLOYD_WARSHALL} for dense ones. */
    public static String defaultVariant(CsrGraph g) {
        long n = g.vertexCount();
        long log2 = 64 - Long.numberOfLeadingZeros(Math.max(1, n));
        return (double) DIJKSTRA_ARC_COST * g.arcCount() + n * log2 < (double) n * n ? REPEATED_SSSP : FLOYD_WARSHALL;
    }

    static ApspResult repeatedSssp(CsrGraph g) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        double[] d = new double[n * n];
        IntStream.range(0, n).parallel().forEach(s -> System.arraycopy(CpuSssp.run(g, s).distances(), 0, d, s * n, n));
        return new ApspResult(n, d, Timing.since(t0));
    }

    static ApspResult floydWarshall(CsrGraph g) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        double[] d = FloydWarshallReference.adjacencyMatrix(g);
        int tiles = (n + TILE - 1) / TILE;
        for (int kb = 0; kb < tiles; kb++) {
            final int k = kb;
            sweep(d, n, k, k, k);
            // the row and the column of the diagonal tile: tasks 0..tiles-1 are row tiles, tiles..2*tiles-1 columns
            IntStream.range(0, 2 * tiles).parallel().forEach(t -> {
                int other = t % tiles;
                if (other == k) return;
                if (t < tiles) sweep(d, n, k, k, other); else sweep(d, n, k, other, k);
            });
            // the rest, one task per tile row
            IntStream.range(0, tiles).parallel().forEach(ib -> {
                if (ib == k) return;
                for (int jb = 0; jb < tiles; jb++) if (jb != k) sweep(d, n, k, ib, jb);
            });
        }
        return new ApspResult(n, d, Timing.since(t0));
    }

    /**
     * Tile (ib, jb) through the intermediate vertices of tile kb, in order: d[i][j] = min(d[i][j], d[i][k] + d[k][j]).
     * Correct in each phase because the tiles it reads are either final for this kb (the diagonal, or the row and
     * column tiles in the last phase) or the tile itself, swept in k order as plain Floyd–Warshall does.
     */
    private static void sweep(double[] d, int n, int kb, int ib, int jb) {
        int k0 = kb * TILE, k1 = Math.min(n, k0 + TILE);
        int i0 = ib * TILE, i1 = Math.min(n, i0 + TILE);
        int j0 = jb * TILE, j1 = Math.min(n, j0 + TILE);
        for (int k = k0; k < k1; k++) {
            int kRow = k * n;
            for (int i = i0; i < i1; i++) {
                int iRow = i * n;
                double dik = d[iRow + k];
                if (dik == Double.POSITIVE_INFINITY) continue;
                for (int j = j0; j < j1; j++) d[iRow + j] = Math.min(d[iRow + j], dik + d[kRow + j]);
            }
        }
    }
}
