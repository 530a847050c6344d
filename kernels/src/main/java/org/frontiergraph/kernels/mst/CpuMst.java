package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * CPU engine MST: Kruskal over packed sort keys (as ECL-MST packs {@code (weight << 32) | edgeIndex}), sorted with
 * {@link Arrays#parallelSort(long[])} on all cores, then union-find (union by size, path halving) that stops once
 * the forest has vertexCount - 1 edges.
 *
 * <p>A key is {@code (weightRank << 31) | edgeId} (edge ids are below 2^31 because arcs are). With integral weights
 * the rank is {@code 2 * weight + 1}, so a {@code -0.0} weight ranks just below {@code 0.0} as in
 * {@link Double#compare} (the reference's order); otherwise it is the weight's index among the distinct weights
 * sorted by {@link Double#compare}. Either way keys sort in exactly (weight, id) order, so the forest equals
 * {@link KruskalReference}'s; the total is summed with {@link ExactSum}.
 */
public final class CpuMst {
    private static final int ID_BITS = 31;

    private CpuMst() {}

    public static MstResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        UndirectedEdges edges = g.undirectedEdges();
        int n = g.vertexCount(), m = edges.size();
        long[] keys = sortedKeys(edges, g.integralWeights());

        int[] parent = new int[n], size = new int[n];
        for (int i = 0; i < n; i++) { parent[i] = i; size[i] = 1; }
        int[] chosen = new int[Math.max(0, n - 1)];
        int count = 0;
        int[] us = edges.u, vs = edges.v;
        for (int k = 0; k < m && count < n - 1; k++) {
            int id = (int) (keys[k] & ((1L << ID_BITS) - 1));
            int a = find(parent, us[id]), b = find(parent, vs[id]);
            if (a == b) continue;
            if (size[a] < size[b]) { int t = a; a = b; b = t; }
            parent[b] = a;
            size[a] += size[b];
            chosen[count++] = id;
        }
        int[] ids = Arrays.copyOf(chosen, count);
        Arrays.sort(ids);
        return new MstResult(ids, ExactSum.of(edges.w, ids), n - count, Timing.since(t0));
    }

    static long[] sortedKeys(UndirectedEdges edges, boolean integral) {
        int m = edges.size();
        double[] w = edges.w;
        long[] keys = new long[m];
        if (integral) {
            IntStream.range(0, m).parallel().forEach(i -> {
                long rank = 2 * (long) w[i] + (Double.doubleToRawLongBits(w[i]) < 0 ? 0 : 1);
                keys[i] = (rank << ID_BITS) | i;
            });
        } else {
            double[] distinct = w.clone();
            Arrays.parallelSort(distinct);
            int d = 0;
            for (int i = 0; i < distinct.length; i++) {
                if (d == 0 || Double.compare(distinct[d - 1], distinct[i]) != 0) distinct[d++] = distinct[i];
            }
            final int distinctCount = d;
            IntStream.range(0, m).parallel().forEach(i -> {
                long rank = Arrays.binarySearch(distinct, 0, distinctCount, w[i]);
                keys[i] = (rank << ID_BITS) | i;
            });
        }
        Arrays.parallelSort(keys);
        return keys;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
