package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * The merge of a {@link MutableGraph} whose base is held in the wide form ({@link CsrGraph#wide()}), or grows past what
 * an int indexes: a new wide CSR, in pages of the base's size (or {@link #PAGE_ARCS}), from the base (either form) and
 * the overlay of structural changes, with what {@link CsrMerge} gives a copy that follows the graph (the touched rows;
 * where an undirected graph's edges moved). The same arrays, value for value and edge ids included, that
 * {@link CsrMerge} builds for the same graph indexed by int. Row ranges on all cores: runs of untouched rows copied
 * page segment by page segment, touched rows merged from their kept arcs and the added ones. Edge ids: a directed
 * graph's are the arcs' places, numbered in a last pass; an undirected graph's kept edges shift their old ids and its
 * added edges take theirs ({@link CsrMerge.IdShift}, as the int-indexed merge), in the copying pass. O(m) copying plus
 * O(k log k + n) for k changed edges. The next version's transpose (directed) is built afresh when first read.
 */
final class WideMerge {
    private WideMerge() {}

    /** Arcs a page of a graph that a merge makes wide (a Java array holds 2^31 - 8). */
    static final int PAGE_ARCS = 1 << 30;

    /**
     * The merge of {@code old} (either form) into a wide graph in pages of {@code pageArcs} arcs: the arguments of
     * {@link CsrMerge#build}.
     */
    static CsrMerge.Merged build(CsrGraph old, int n, boolean directed, long edgeCount, BitSet removed, LongDoubleMap added,
                                 BitSet touched, int pageArcs) {
        int bn = old.vertexCount();
        long[] off = old.rowOffsetsLong();
        ArcPages from = old.pages();
        int[] rows = touched.stream().toArray();
        long[] addedKeys = added.keys();
        Arrays.sort(addedKeys);
        int[] removedIds = removed.stream().toArray();
        // 1. the added arcs, (row << 32 | column) ascending, and their weights
        long[] addArcs = new long[directed ? addedKeys.length : 2 * addedKeys.length];
        for (int i = 0; i < addedKeys.length; i++) {
            long key = addedKeys[i];
            addArcs[directed ? i : 2 * i] = key;
            if (!directed) addArcs[2 * i + 1] = (key << 32) | (key >>> 32);
        }
        Arrays.sort(addArcs);
        double[] addW = new double[addArcs.length];
        for (int i = 0; i < addArcs.length; i++) {
            int a = (int) (addArcs[i] >>> 32), b = (int) addArcs[i];
            addW[i] = added.get(directed || a < b ? addArcs[i] : ((long) b << 32) | (a & 0xffffffffL), -1.0);
        }
        // 2. the new row offsets: a touched row's kept arcs plus its added ones, any other row's old degree
        long[] next = new long[n + 1];
        for (int u = 0, t = 0, a = 0; u < n; u++) {
            long degree;
            if (t < rows.length && rows[t] == u) {
                degree = 0;
                if (u < bn) for (long e = off[u]; e < off[u + 1]; e++) if (!removed.get(old.edgeIdAt(e))) degree++;
                while (a < addArcs.length && (int) (addArcs[a] >>> 32) == u) {
                    degree++;
                    a++;
                }
                t++;
            } else {
                degree = u < bn ? off[u + 1] - off[u] : 0;
            }
            next[u + 1] = next[u] + degree;
        }
        long arcs = next[n];
        if (arcs != (directed ? edgeCount : 2 * edgeCount)) {
            throw new IllegalStateException("wide merge produced " + arcs + " arcs, expected " + (directed ? edgeCount : 2 * edgeCount));
        }
        // 3. columns, weights and (undirected) edge ids, row ranges on all cores: runs of untouched rows copied at
        //    once, touched rows merged
        ArcPages to = WideArcs.allocate(arcs, pageArcs);
        CsrMerge.IdShift shift = directed ? null : CsrMerge.IdShift.of(old, removedIds, addedKeys);
        int[] bounds = CsrMerge.rowRanges(v -> next[v], n);
        IntStream.range(0, bounds.length - 1).parallel().forEach(r -> {
            int lo = bounds[r], hi = bounds[r + 1];
            int t = CsrMerge.firstAtLeast(rows, lo), a = firstOfRow(addArcs, lo);
            for (int u = lo; u < hi; ) {
                int stop = Math.min(hi, t < rows.length ? rows[t] : n), runEnd = Math.min(stop, bn);
                if (u < runEnd) copy(from, off[u], to, next[u], off[runEnd] - off[u], shift);
                u = stop;   // rows from bn up to stop hold no arcs
                if (u == hi) break;
                long p = next[u];
                long e = u < bn ? off[u] : 0, end = u < bn ? off[u + 1] : 0;
                while (true) {
                    while (e < end && removed.get(old.edgeIdAt(e))) e++;
                    boolean fromAdded = a < addArcs.length && (int) (addArcs[a] >>> 32) == u
                            && (e >= end || (int) addArcs[a] < old.targetAt(e));
                    if (!fromAdded && e >= end) break;
                    int q = WideArcs.page(p, to.pageArcs()), i = WideArcs.slot(p, to.pageArcs());
                    if (fromAdded) {
                        int b = (int) addArcs[a];
                        to.columns()[q][i] = b;
                        to.weights()[q][i] = addW[a++];
                        if (!directed) to.edgeIds()[q][i] = shift.addedIds()[Arrays.binarySearch(addedKeys, key(u, b))];
                    } else {
                        to.columns()[q][i] = old.targetAt(e);
                        to.weights()[q][i] = old.weightAt(e);
                        if (!directed) to.edgeIds()[q][i] = shift.apply(old.edgeIdAt(e));
                        e++;
                    }
                    p++;
                }
                t++;
                u++;
            }
        });
        if (directed) numberArcs(to);   // 4. a directed graph's edges are its arcs, in order
        double bound = old.weightBoundIfKnown();   // kept arcs keep their weights; the added ones may raise it
        for (double w : addW) bound = Math.max(bound, w);   // NaN (unknown) stays NaN
        long nonIntegral = WideArcs.nonIntegral(to);
        CsrGraph merged = new CsrGraph(n, directed, next, to, Math.toIntExact(edgeCount), nonIntegral == 0);
        merged.knownTotals(nonIntegral, Double.NaN);
        merged.knownWeightBound(bound);
        ChangeLog.EdgeMoves moves = null;
        if (!directed) {
            double[] addedWeights = new double[addedKeys.length];
            for (int i = 0; i < addedKeys.length; i++) addedWeights[i] = added.get(addedKeys[i], -1.0);
            moves = ChangeLog.EdgeMoves.of(old.edgeCount(), removedIds, shift.addedIds(), addedKeys, addedWeights);
            UndirectedEdges list = old.cachedUndirectedEdges();
            if (list != null) merged.cacheUndirectedEdges(list.moved(moves, n, merged.edgeCount()));
        }
        return new CsrMerge.Merged(merged, rows, moves);
    }


    /** The first added arc (row << 32 | column, ascending) of row {@code u} or a later one. */
    private static int firstOfRow(long[] addArcs, int u) {
        long x = (long) u << 32;
        int lo = 0, hi = addArcs.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (addArcs[mid] < x) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /** The key of an undirected edge between {@code u} and {@code v}: (min, max). */
    private static long key(int u, int v) {
        return ((long) Math.min(u, v) << 32) | Math.max(u, v);
    }

    /**
     * Copies {@code len} arcs' columns and weights from arc {@code src} of {@code from} to arc {@code dst} of
     * {@code to}, and their edge ids shifted by {@code shift} (null: none copied).
     */
    static void copy(ArcPages from, long src, ArcPages to, long dst, long len, CsrMerge.IdShift shift) {
        while (len > 0) {
            int fq = WideArcs.page(src, from.pageArcs()), fi = WideArcs.slot(src, from.pageArcs());
            int tq = WideArcs.page(dst, to.pageArcs()), ti = WideArcs.slot(dst, to.pageArcs());
            int k = (int) Math.min(len, Math.min(from.arcsIn(fq) - fi, to.arcsIn(tq) - ti));
            System.arraycopy(from.columns()[fq], fi, to.columns()[tq], ti, k);
            System.arraycopy(from.weights()[fq], fi, to.weights()[tq], ti, k);
            if (shift != null) {
                int[] ids = from.edgeIds()[fq], into = to.edgeIds()[tq];
                for (int j = 0; j < k; j++) into[ti + j] = shift.apply(ids[fi + j]);
            }
            src += k;
            dst += k;
            len -= k;
        }
    }

    /** Numbers a directed graph's edges: each arc's id is its place (fewer than 2^31: an edge each). */
    static void numberArcs(ArcPages pages) {
        for (int q = 0; q < pages.pageCount(); q++) {
            int[] ids = pages.edgeIds()[q];
            long first = pages.firstArc(q);
            for (int i = 0; i < ids.length; i++) ids[i] = Math.toIntExact(first + i);
        }
    }
}
