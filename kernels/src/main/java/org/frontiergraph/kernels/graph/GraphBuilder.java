package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Builds a {@link CsrGraph} from an {@link EdgeList}, applying the storage policy documented on CsrGraph:
 * ids and weights validated, self-loops dropped, parallel edges merged to the smallest weight,
 * undirected edges stored as two arcs, rows sorted by target. Rows are sorted in parallel.
 */
public final class GraphBuilder {
    private static final double INT_WEIGHT_LIMIT = 2147483647.0;

    private GraphBuilder() {}

    public static CsrGraph build(EdgeList edges) {
        final int n = edges.vertexCount();
        final int size = edges.size();
        final boolean directed = edges.directed();
        final int[] src = edges.sourcesArray(), dst = edges.targetsArray();
        final double[] w = edges.weightsArray();
        validate(n, size, src, dst, w);

        // 1. count canonical arcs per row (undirected: stored once, at min endpoint), self-loops dropped
        int[] counts = new int[n + 1];
        for (int i = 0; i < size; i++) {
            int a = src[i], b = dst[i];
            if (a == b) continue;
            counts[directed ? a : Math.min(a, b)]++;
        }
        int[] start = prefixSum(counts, n);
        long total = start[n];
        // 2. fill keys (target << 32 | input index) into rows
        long[] keys = new long[(int) total];
        int[] fill = Arrays.copyOf(start, n);
        for (int i = 0; i < size; i++) {
            int a = src[i], b = dst[i];
            if (a == b) continue;
            int row = directed ? a : Math.min(a, b);
            int col = directed ? b : Math.max(a, b);
            keys[fill[row]++] = ((long) col << 32) | (i & 0xffffffffL);
        }
        // 3. sort each row by target and merge duplicates (smallest weight wins); in parallel over rows
        int[] kept = new int[n];
        IntStream.range(0, n).parallel().forEach(r -> {
            int lo = start[r], hi = start[r + 1];
            if (hi - lo > 1) Arrays.sort(keys, lo, hi);
            int out = lo;
            for (int k = lo; k < hi; k++) {
                if (out > lo && (keys[out - 1] >>> 32) == (keys[k] >>> 32)) {
                    int prev = (int) keys[out - 1], cur = (int) keys[k];
                    if (w[cur] < w[prev]) keys[out - 1] = keys[k];
                } else {
                    keys[out++] = keys[k];
                }
            }
            kept[r] = out - lo;
        });
        // 4. canonical edge list in (source, target) order: edge ids
        int[] edgeStart = new int[n + 1];
        for (int r = 0; r < n; r++) edgeStart[r + 1] = edgeStart[r] + kept[r];
        int m = edgeStart[n];
        int[] eu = new int[m], ev = new int[m];
        double[] ew = new double[m];
        IntStream.range(0, n).parallel().forEach(r -> {
            int base = start[r], out = edgeStart[r];
            for (int k = 0; k < kept[r]; k++) {
                long key = keys[base + k];
                eu[out + k] = r;
                ev[out + k] = (int) (key >>> 32);
                ew[out + k] = w[(int) key];
            }
        });
        boolean integral = true;
        for (int i = 0; i < m && integral; i++) integral = ew[i] == Math.rint(ew[i]) && ew[i] <= INT_WEIGHT_LIMIT;
        return fromCanonicalEdges(n, directed, eu, ev, ew, integral);
    }

    /** CSR from canonical edges sorted by (u, v), with u < v when undirected. Edge i gets id i. */
    static CsrGraph fromCanonicalEdges(int n, boolean directed, int[] eu, int[] ev, double[] ew, boolean integral) {
        int m = eu.length;
        long arcs = directed ? m : 2L * m;
        if (arcs > Integer.MAX_VALUE - 8) {
            throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                    "graph has " + arcs + " arcs; at most " + (Integer.MAX_VALUE - 8) + " are supported");
        }
        int[] deg = new int[n + 1];
        for (int i = 0; i < m; i++) {
            deg[eu[i]]++;
            if (!directed) deg[ev[i]]++;
        }
        int[] offsets = prefixSum(deg, n);
        int[] fill = Arrays.copyOf(offsets, n);
        int[] cols = new int[(int) arcs];
        double[] wts = new double[(int) arcs];
        int[] ids = new int[(int) arcs];
        // Filling in edge-id order keeps every row sorted: for row x, arcs to y < x come from edges (y, x),
        // whose ids precede x's own edges (x, y > x), and each group arrives in ascending order.
        for (int i = 0; i < m; i++) {
            int a = eu[i], b = ev[i];
            int p = fill[a]++;
            cols[p] = b; wts[p] = ew[i]; ids[p] = i;
            if (!directed) {
                int q = fill[b]++;
                cols[q] = a; wts[q] = ew[i]; ids[q] = i;
            }
        }
        return new CsrGraph(n, directed, offsets, cols, wts, ids, m, integral);
    }

    static CsrGraph transpose(CsrGraph g) {
        int n = g.vertexCount();
        int[] off = g.rowOffsets(), col = g.columns(), ids = g.arcEdgeIds();
        double[] wt = g.weights();
        int[] deg = new int[n + 1];
        for (int e = 0; e < col.length; e++) deg[col[e]]++;
        int[] offsets = prefixSum(deg, n);
        int[] fill = Arrays.copyOf(offsets, n);
        int[] cols = new int[col.length];
        double[] wts = new double[col.length];
        int[] tid = new int[col.length];
        for (int u = 0; u < n; u++) {
            for (int e = off[u]; e < off[u + 1]; e++) {
                int p = fill[col[e]]++;
                cols[p] = u; wts[p] = wt[e]; tid[p] = ids[e];
            }
        }
        return new CsrGraph(n, true, offsets, cols, wts, tid, g.edgeCount(), g.integralWeights());
    }

    private static int[] prefixSum(int[] counts, int n) {
        int[] start = new int[n + 1];
        long acc = 0;
        for (int i = 0; i < n; i++) {
            start[i] = (int) acc;
            acc += counts[i];
            if (acc > Integer.MAX_VALUE - 8) {
                throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                        "graph has more than " + (Integer.MAX_VALUE - 8) + " arcs");
            }
        }
        start[n] = (int) acc;
        return start;
    }

    private static void validate(int n, int size, int[] src, int[] dst, double[] w) {
        for (int i = 0; i < size; i++) {
            int a = src[i], b = dst[i];
            if (a < 0 || a >= n || b < 0 || b >= n) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX,
                        "edge " + i + " (" + a + " -> " + b + ") has a vertex outside 0.." + (n - 1));
            }
            double x = w[i];
            if (!(x >= 0) || Double.isInfinite(x)) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT,
                        "edge " + i + " (" + a + " -> " + b + ") has weight " + x
                                + "; weights must be finite and non-negative");
            }
        }
    }
}
