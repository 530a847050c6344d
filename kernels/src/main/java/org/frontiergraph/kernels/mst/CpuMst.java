package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * CPU engine MST: Filter-Kruskal (Osipov, Sanders, Singler, "The Filter-Kruskal Minimum Spanning Tree Algorithm",
 * ALENEX 2009) over packed sort keys, as ECL-MST packs {@code (weight << 32) | edgeIndex}.
 *
 * <p>A key is {@code (weightRank << 31) | edgeId} (edge ids are below 2^31 because arcs are). With integral weights
 * the rank is {@code 2 * weight + 1}, so a {@code -0.0} weight ranks just below {@code 0.0} as in
 * {@link Double#compare} (the reference's order); otherwise it is the weight's index among the distinct weights
 * sorted by {@link Double#compare}. Keys therefore sort in exactly (weight, id) order.
 *
 * <p>Filter-Kruskal splits the keys at a sampled median, solves the light half first, then drops heavy edges whose
 * endpoints are already connected and solves the rest; small parts are sorted and scanned as in Kruskal. Edges are
 * still taken in exact key order, so the forest equals {@link KruskalReference}'s, but on dense or random graphs
 * most heavy edges are filtered instead of sorted. Union-find uses union by size and path halving; the total is
 * summed with {@link ExactSum}.
 */
public final class CpuMst {
    private static final int ID_BITS = 31;
    private static final long ID_MASK = (1L << ID_BITS) - 1;
    /** Parts at most this long are sorted outright. */
    private static final int SORT_THRESHOLD = 1 << 16;
    /** Parts at least this long are sorted with {@link Arrays#parallelSort(long[], int, int)}. */
    private static final int PARALLEL_SORT_THRESHOLD = 1 << 20;
    private static final int PIVOT_SAMPLES = 255;

    private CpuMst() {}

    public static MstResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        UndirectedEdges edges = g.undirectedEdges();
        int n = g.vertexCount();
        Forest f = new Forest(n, edges);
        long[] keys = keys(edges, g.integralWeights());
        f.solve(keys, 0, keys.length);
        int[] ids = Arrays.copyOf(f.chosen, f.count);
        Arrays.sort(ids);
        return new MstResult(ids, ExactSum.of(edges.w, ids), n - f.count, Timing.since(t0));
    }

    /** Unsorted keys, one per undirected edge. */
    static long[] keys(UndirectedEdges edges, boolean integral) {
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
        return keys;
    }

    /** The growing forest: union-find over the vertices and the edges chosen so far. */
    private static final class Forest {
        final int[] parent, size, us, vs, chosen;
        final int target;
        int count;

        Forest(int n, UndirectedEdges edges) {
            parent = new int[n];
            size = new int[n];
            for (int i = 0; i < n; i++) { parent[i] = i; size[i] = 1; }
            us = edges.u;
            vs = edges.v;
            target = Math.max(0, n - 1);
            chosen = new int[target];
        }

        boolean done() { return count == target; }

        /** Adds, in key order, the edges of keys[lo, hi) that join two trees. */
        void solve(long[] keys, int lo, int hi) {
            if (done() || hi <= lo) return;
            if (hi - lo <= SORT_THRESHOLD) {
                sortAndScan(keys, lo, hi);
                return;
            }
            long pivot = samplePivot(keys, lo, hi);
            int mid = partition(keys, lo, hi, pivot);
            if (mid == lo || mid == hi) { // degenerate split: give up filtering here
                sortAndScan(keys, lo, hi);
                return;
            }
            solve(keys, lo, mid);
            if (done()) return;
            int kept = filter(keys, mid, hi);
            solve(keys, mid, kept);
        }

        private void sortAndScan(long[] keys, int lo, int hi) {
            if (hi - lo >= PARALLEL_SORT_THRESHOLD) Arrays.parallelSort(keys, lo, hi); else Arrays.sort(keys, lo, hi);
            for (int k = lo; k < hi && !done(); k++) {
                int id = (int) (keys[k] & ID_MASK);
                int a = find(us[id]), b = find(vs[id]);
                if (a == b) continue;
                if (size[a] < size[b]) { int t = a; a = b; b = t; }
                parent[b] = a;
                size[a] += size[b];
                chosen[count++] = id;
            }
        }

        /** Median of evenly spaced samples; deterministic. */
        private static long samplePivot(long[] keys, int lo, int hi) {
            long[] sample = new long[PIVOT_SAMPLES];
            long step = (hi - lo) / PIVOT_SAMPLES;
            for (int i = 0; i < PIVOT_SAMPLES; i++) sample[i] = keys[(int) (lo + i * step)];
            Arrays.sort(sample);
            return sample[PIVOT_SAMPLES / 2];
        }

        /** Moves keys below pivot to the front of [lo, hi); returns the first index of the rest. */
        private static int partition(long[] keys, int lo, int hi, long pivot) {
            int i = lo;
            for (int k = lo; k < hi; k++) {
                long x = keys[k];
                if (x < pivot) {
                    keys[k] = keys[i];
                    keys[i++] = x;
                }
            }
            return i;
        }

        /** Compacts to the front of [lo, hi) the keys whose endpoints are in different trees; returns the new end. */
        private int filter(long[] keys, int lo, int hi) {
            int out = lo;
            for (int k = lo; k < hi; k++) {
                int id = (int) (keys[k] & ID_MASK);
                if (find(us[id]) != find(vs[id])) keys[out++] = keys[k];
            }
            return out;
        }

        private int find(int x) {
            int[] p = parent;
            while (p[x] != x) {
                p[x] = p[p[x]];
                x = p[x];
            }
            return x;
        }
    }
}
