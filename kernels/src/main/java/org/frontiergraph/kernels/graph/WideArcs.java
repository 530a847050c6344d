package org.frontiergraph.kernels.graph;

import java.util.stream.IntStream;

/**
 * The arithmetic of a wide {@link CsrGraph} (64-bit row offsets over {@link ArcPages}): where an arc lives, whose row
 * holds it, an arc found by its endpoints, and the whole-graph passes (sums, the transpose, the undirected edge list),
 * each over the pages in arc order, so that a wide graph gives the same values, bit for bit, as the same graph indexed
 * by int (the sum in arc order, one core; the passes whose result does not depend on the order on all cores, by ranges
 * of arcs). Used only for wide graphs: the int path reads its arrays directly.
 */
final class WideArcs {
    private WideArcs() {}

    /**
     * What a pass does with {@code len} arcs of page {@code q} from slot {@code from}: arcs {@code first} ..
     * {@code first + len - 1}, the first of them in row {@code u}.
     */
    @FunctionalInterface
    interface Segment {
        void accept(int q, int from, int len, long first, int u);
    }

    /**
     * Runs {@code task} on every arc of {@code offsets} / {@code p}, in segments (a page's slots within one range of
     * arcs), about four ranges a core, side by side.
     */
    static void eachSegment(long[] offsets, int n, ArcPages p, Segment task) {
        long m = offsets[n];
        int ranges = (int) Math.max(1, Math.min(4L * Runtime.getRuntime().availableProcessors(), m));
        IntStream all = IntStream.range(0, ranges);
        (ranges > 1 ? all.parallel() : all).forEach(r -> {
            long lo = m * r / ranges, hi = m * (r + 1) / ranges;
            if (lo >= hi) return;
            int u = sourceOf(offsets, n, lo);
            for (long e = lo; e < hi; ) {
                int q = page(e, p.pageArcs()), i = slot(e, p.pageArcs());
                int len = (int) Math.min(hi - e, p.arcsIn(q) - i);
                task.accept(q, i, len, e, u);
                e += len;
                if (e < hi) u = sourceOf(offsets, n, e);
            }
        });
    }

    /** The page of {@code arc}. */
    static int page(long arc, int pageArcs) { return (int) (arc / pageArcs); }

    /** The place of {@code arc} in its page. */
    static int slot(long arc, int pageArcs) { return (int) (arc % pageArcs); }

    static int column(ArcPages p, long arc) { return p.columns()[page(arc, p.pageArcs())][slot(arc, p.pageArcs())]; }

    static double weight(ArcPages p, long arc) { return p.weights()[page(arc, p.pageArcs())][slot(arc, p.pageArcs())]; }

    static int edgeId(ArcPages p, long arc) { return p.edgeIds()[page(arc, p.pageArcs())][slot(arc, p.pageArcs())]; }

    static void setWeight(ArcPages p, long arc, double w) { p.weights()[page(arc, p.pageArcs())][slot(arc, p.pageArcs())] = w; }

    /** The vertex whose row holds {@code arc} ({@code offsets}: n + 1 row starts): the last row starting at or before it. */
    static int sourceOf(long[] offsets, int n, long arc) {
        if (arc < 0 || arc >= offsets[n]) throw new IndexOutOfBoundsException("arc " + arc + " of " + offsets[n]);
        int lo = 0, hi = n - 1;
        while (lo < hi) {   // empty rows share their start with the next row: the last of them that starts at or before arc
            int mid = (lo + hi + 1) >>> 1;
            if (offsets[mid] <= arc) lo = mid; else hi = mid - 1;
        }
        while (offsets[lo + 1] <= arc) lo++;
        return lo;
    }

    /** The arc u -> v (binary search in u's row, sorted by target), or -1. */
    static long findArc(long[] offsets, ArcPages p, int u, int v) {
        long lo = offsets[u], hi = offsets[u + 1] - 1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            int c = column(p, mid);
            if (c < v) lo = mid + 1; else if (c > v) hi = mid - 1; else return mid;
        }
        return -1;
    }

    /** The sum of the weights, in arc order (as the int path sums its array). */
    static double sum(ArcPages p) {
        double s = 0;
        for (double[] page : p.weights()) for (double w : page) s += w;
        return s;
    }

    /** The largest weight, 0 without arcs; pages on all cores. */
    static double max(ArcPages p) {
        return IntStream.range(0, p.pageCount()).parallel().mapToDouble(q -> {
            double b = 0;
            for (double w : p.weights()[q]) if (w > b) b = w;
            return b;
        }).max().orElse(0);
    }

    /** Arcs whose weight is not an integer below 2^31; pages on all cores. */
    static long nonIntegral(ArcPages p) {
        return IntStream.range(0, p.pageCount()).parallel().mapToLong(q -> {
            long count = 0;
            for (double w : p.weights()[q]) if (!CsrGraph.integral(w)) count++;
            return count;
        }).sum();
    }

    /** Empty pages of {@code arcs} arcs, {@code pageArcs} a page (one empty page for no arcs). */
    static ArcPages allocate(long arcs, int pageArcs) {
        int count = (int) Math.max(1, (arcs + pageArcs - 1) / pageArcs);
        int[][] cols = new int[count][], ids = new int[count][];
        double[][] wts = new double[count][];
        for (int q = 0; q < count; q++) {
            int len = (int) Math.min(pageArcs, arcs - (long) q * pageArcs);
            cols[q] = new int[len];
            ids[q] = new int[len];
            wts[q] = new double[len];
        }
        return new ArcPages(pageArcs, cols, wts, ids);
    }

    /** {@code p} with its weight pages copied (columns and ids shared): for a copy that later re-weights do not touch. */
    static ArcPages withWeightsCopied(ArcPages p) {
        double[][] w = new double[p.pageCount()][];
        for (int q = 0; q < w.length; q++) w[q] = p.weights()[q].clone();
        return new ArcPages(p.pageArcs(), p.columns(), w, p.edgeIds());
    }

    /**
     * The transpose of a wide directed graph, wide with the same page size: rows by target, sorted by source, with the
     * arcs' weights and edge ids ({@link GraphBuilder#transpose}'s arrays, in pages).
     */
    static CsrGraph transpose(CsrGraph g) {
        int n = g.vertexCount();
        long[] off = g.rowOffsetsLong();
        ArcPages p = g.pages();
        long m = off[n];
        long[] start = new long[n + 1];
        for (int[] page : p.columns()) for (int c : page) start[c + 1]++;
        for (int v = 0; v < n; v++) start[v + 1] += start[v];
        long[] fill = java.util.Arrays.copyOf(start, n);
        ArcPages t = allocate(m, p.pageArcs());
        int u = 0;
        for (int q = 0; q < p.pageCount(); q++) {
            int[] cols = p.columns()[q], ids = p.edgeIds()[q];
            double[] wts = p.weights()[q];
            long first = p.firstArc(q);
            for (int i = 0; i < cols.length; i++) {
                while (off[u + 1] <= first + i) u++;
                long at = fill[cols[i]]++;
                int tq = page(at, t.pageArcs()), ti = slot(at, t.pageArcs());
                t.columns()[tq][ti] = u;
                t.weights()[tq][ti] = wts[i];
                t.edgeIds()[tq][ti] = ids[i];
            }
        }
        return new CsrGraph(n, true, start, t, g.edgeCount(), g.integralWeights());
    }

    /**
     * The undirected edge list of a wide undirected graph: each arc u -> v with u < v is edge (u, v) at its id (ranges
     * of arcs on all cores: each edge is written by its one upper arc).
     */
    static UndirectedEdges undirected(CsrGraph g) {
        int n = g.vertexCount(), m = g.edgeCount();
        long[] off = g.rowOffsetsLong();
        ArcPages p = g.pages();
        int[] us = new int[m], vs = new int[m];
        double[] ws = new double[m];
        eachSegment(off, n, p, (q, from, len, first, start) -> {
            int[] cols = p.columns()[q], ids = p.edgeIds()[q];
            double[] wts = p.weights()[q];
            int u = start;
            for (int i = from, end = from + len; i < end; i++) {
                while (off[u + 1] <= first + (i - from)) u++;
                if (u < cols[i]) {
                    int id = ids[i];
                    us[id] = u;
                    vs[id] = cols[i];
                    ws[id] = wts[i];
                }
            }
        });
        return new UndirectedEdges(n, us, vs, ws);
    }

    /** The arcs of a wide directed graph as an edge list (it has at most 2^31 - 1: one an edge). */
    static EdgeList arcList(CsrGraph g) {
        int n = g.vertexCount();
        long[] off = g.rowOffsetsLong();
        ArcPages p = g.pages();
        EdgeList list = new EdgeList(n, false, g.edgeCount());
        int u = 0;
        for (int q = 0; q < p.pageCount(); q++) {
            int[] cols = p.columns()[q];
            double[] wts = p.weights()[q];
            long first = p.firstArc(q);
            for (int i = 0; i < cols.length; i++) {
                while (off[u + 1] <= first + i) u++;
                list.add(u, cols[i], wts[i]);
            }
        }
        return list;
    }
}
