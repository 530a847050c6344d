package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * The merge of a {@link MutableGraph}: a new compact CSR from its base and its overlay of structural changes (base
 * edges removed, edges added, vertices appended), edge ids renumbered in canonical order ({@link IdShift}), with what
 * a copy of the graph needs to follow (the touched rows, where the edges moved). A directed base with a transpose
 * (some reader reads in-arcs) hands its new version how to derive the next transpose ({@link TransposeMerge}) instead
 * of transposing from scratch. A function of its arguments: the mutable graph keeps the state and the journals of who
 * follows it.
 */
final class CsrMerge {
    private CsrMerge() {}

    /** The new base, its rows that changed (ascending), and where the edges of an undirected graph moved (null: directed). */
    record Merged(CsrGraph next, int[] rows, ChangeLog.EdgeMoves moves) {}

    /**
     * Builds the new base: base edges not removed merged with the added ones, in canonical (u, v) order. Only the
     * touched rows are merged edge by edge; the others are copied whole, and their edge ids shifted (an edge's id is
     * its rank in canonical order: the old id, less the removed edges before it, plus the added ones before it, see
     * {@link IdShift}), in the same pass as the copy. O(m) copying on all cores plus O(k log k + n) for the k
     * changed edges.
     */
    static Merged build(CsrGraph old, int n, boolean directed, long edgeCount, BitSet removed, LongDoubleMap added, BitSet touched) {
        int bn = old.vertexCount();
        int[] off = old.rowOffsets(), col = old.columns(), ids = old.arcEdgeIds();
        double[] wt = old.weights();
        int[] rows = touched.stream().toArray();
        long[] addedKeys = added.keys();
        Arrays.sort(addedKeys);
        int[] removedIds = removed.stream().toArray();

        // 1. the touched rows' new arcs, packed: row rows[t] at [start[t], start[t + 1])
        int[] addCount = new int[rows.length + 1];
        for (long key : addedKeys) {
            addCount[Arrays.binarySearch(rows, (int) (key >>> 32))]++;
            if (!directed) addCount[Arrays.binarySearch(rows, (int) key)]++;
        }
        int[] addStart = new int[rows.length + 1];
        for (int t = 0; t < rows.length; t++) addStart[t + 1] = addStart[t] + addCount[t];
        long[] addArcs = new long[addStart[rows.length]];   // (column << 32 | index into addedKeys), per row
        int[] fill = Arrays.copyOf(addStart, rows.length);
        for (int i = 0; i < addedKeys.length; i++) {
            int a = (int) (addedKeys[i] >>> 32), b = (int) addedKeys[i];
            addArcs[fill[Arrays.binarySearch(rows, a)]++] = ((long) b << 32) | i;
            if (!directed) addArcs[fill[Arrays.binarySearch(rows, b)]++] = ((long) a << 32) | i;
        }
        double[] addedW = new double[addedKeys.length];
        for (int i = 0; i < addedKeys.length; i++) addedW[i] = added.get(addedKeys[i], -1.0);   // every key is there: the default is never read
        int[] degree = new int[rows.length];
        IntStream.range(0, rows.length).parallel().forEach(t -> {
            Arrays.sort(addArcs, addStart[t], addStart[t + 1]);
            int u = rows[t], d = addCount[t];
            if (u < bn) for (int e = off[u]; e < off[u + 1]; e++) if (!removed.get(ids[e])) d++;
            degree[t] = d;
        });
        int[] tStart = new int[rows.length + 1];
        for (int t = 0; t < rows.length; t++) tStart[t + 1] = Math.addExact(tStart[t], degree[t]);
        int[] tCol = new int[tStart[rows.length]];
        double[] tW = new double[tCol.length];
        int[] tOld = new int[tCol.length];   // the base arc each came from, or -1 - i for added edge addedKeys[i]
        double[] sumDelta = new double[rows.length];
        int[] nonIntegralDelta = new int[rows.length];
        IntStream.range(0, rows.length).parallel().forEach(t -> {
            int u = rows[t], p = tStart[t], e = u < bn ? off[u] : 0, end = u < bn ? off[u + 1] : 0;
            double sum = 0;
            int nonIntegral = 0;
            for (int x = e; x < end; x++) {
                sum -= wt[x];
                nonIntegral -= CsrGraph.integral(wt[x]) ? 0 : 1;
            }
            for (int a = addStart[t], aEnd = addStart[t + 1]; e < end || a < aEnd; ) {
                while (e < end && removed.get(ids[e])) e++;
                boolean fromAdded = a < aEnd && (e >= end || (int) (addArcs[a] >>> 32) < col[e]);
                if (!fromAdded && e >= end) break;
                if (fromAdded) {
                    tCol[p] = (int) (addArcs[a] >>> 32);
                    tW[p] = addedW[(int) addArcs[a]];
                    tOld[p] = -1 - (int) addArcs[a++];
                } else {
                    tCol[p] = col[e];
                    tW[p] = wt[e];
                    tOld[p] = e++;
                }
                sum += tW[p];
                nonIntegral += CsrGraph.integral(tW[p]) ? 0 : 1;
                p++;
            }
            sumDelta[t] = sum;
            nonIntegralDelta[t] = nonIntegral;
        });

        // 2. the new row offsets
        int[] newOff = new int[n + 1];
        long acc = 0;
        for (int u = 0, t = 0; u < n; u++) {
            newOff[u] = (int) acc;
            if (t < rows.length && rows[t] == u) acc += degree[t++];
            else if (u < bn) acc += off[u + 1] - off[u];
            if (acc > Integer.MAX_VALUE - 8) {
                throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                        "graph has more than " + (Integer.MAX_VALUE - 8) + " arcs");
            }
        }
        newOff[n] = (int) acc;
        long expected = directed ? edgeCount : 2 * edgeCount;
        if (acc != expected) throw new IllegalStateException("merge produced " + acc + " arcs, expected " + expected);

        // 3. columns, weights and edge ids, row ranges on all cores: runs of untouched rows copied at once, touched
        // rows from step 1. Undirected edge ids: an edge kept from the base shifts its old id (IdShift), an added edge
        // takes the id IdShift gives it; no pass over the new rows is needed for them.
        int arcs = (int) acc;
        int[] newCol = new int[arcs], newIds = new int[arcs];
        double[] newW = new double[arcs];
        IdShift shift = directed ? null : IdShift.of(old, removedIds, addedKeys);
        int[] bounds = rowRanges(newOff, n);
        IntStream.range(0, bounds.length - 1).parallel().forEach(r -> {
            int t = firstAtLeast(rows, bounds[r]);   // the next touched row, walked along with u
            for (int u = bounds[r], hi = bounds[r + 1]; u < hi; ) {
                int stop = Math.min(hi, t < rows.length ? rows[t] : n), runEnd = Math.min(stop, bn);
                if (u < runEnd) {   // untouched rows u .. runEnd - 1: copied at once
                    int from = off[u], to = newOff[u], len = off[runEnd] - from;
                    System.arraycopy(col, from, newCol, to, len);
                    System.arraycopy(wt, from, newW, to, len);
                    if (!directed) for (int j = 0; j < len; j++) newIds[to + j] = shift.apply(ids[from + j]);
                }
                u = stop;   // rows from bn up to stop hold no arcs
                if (u == hi) break;
                int to = newOff[u], len = newOff[u + 1] - to, from = tStart[t];
                System.arraycopy(tCol, from, newCol, to, len);
                System.arraycopy(tW, from, newW, to, len);
                if (!directed) {
                    for (int j = 0; j < len; j++) {
                        int o = tOld[from + j];
                        newIds[to + j] = o >= 0 ? shift.apply(ids[o]) : shift.addedIds()[-1 - o];
                    }
                }
                t++;
                u++;
            }
            if (directed) for (int e = newOff[bounds[r]]; e < newOff[bounds[r + 1]]; e++) newIds[e] = e;   // edges are the arcs, in order
        });

        long oldNonIntegral = old.nonIntegralArcsIfKnown();
        long nonIntegral = oldNonIntegral < 0 ? countNonIntegral(newW) : oldNonIntegral + Arrays.stream(nonIntegralDelta).sum();
        double oldSum = old.weightSumIfKnown();
        CsrGraph next = new CsrGraph(n, directed, newOff, newCol, newW, newIds, Math.toIntExact(edgeCount), nonIntegral == 0);
        next.knownTotals(nonIntegral, Double.isNaN(oldSum) ? Double.NaN : oldSum + Arrays.stream(sumDelta).sum());
        double bound = old.weightBoundIfKnown();   // kept arcs keep their weights; the added ones may raise it
        for (double w : addedW) bound = Math.max(bound, w);   // NaN (unknown) stays NaN
        next.knownWeightBound(bound);
        if (directed && old.keepsTranspose()) {   // a reader of transposes follows the graph: the next one is derived
            next.deriveTranspose(TransposeMerge.of(old, old.transpose(), removedIds, addedKeys, rows));
        }
        ChangeLog.EdgeMoves moves = null;
        if (!directed) {
            moves = ChangeLog.EdgeMoves.of(old.edgeCount(), removedIds, shift.addedIds(), addedKeys, addedW);
            UndirectedEdges list = old.cachedUndirectedEdges();
            if (list != null) next.cacheUndirectedEdges(list.moved(moves, n, next.edgeCount()));
        }
        return new Merged(next, rows, moves);
    }

    /** Row boundaries splitting the arcs into about equal ranges for the cores. */
    static int[] rowRanges(int[] offsets, int n) {
        return rowRanges(v -> offsets[v], n);
    }

    /** The same over offsets read by {@code offsetOf} (int or 64-bit: {@link WideMerge} reads long offsets). */
    static int[] rowRanges(java.util.function.IntToLongFunction offsetOf, int n) {
        int pieces = Math.max(1, Math.min(n, 4 * Runtime.getRuntime().availableProcessors()));
        long arcs = offsetOf.applyAsLong(n);
        int[] b = new int[pieces + 1];
        for (int p = 1; p < pieces; p++) {
            long target = arcs / pieces * p + arcs % pieces * p / pieces;   // no overflow at any arc count
            int lo = b[p - 1], hi = n;   // the first row starting at or after the target
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (offsetOf.applyAsLong(mid) < target) lo = mid + 1; else hi = mid;
            }
            b[p] = Math.max(lo, b[p - 1]);
        }
        b[pieces] = n;
        return b;
    }

    private static int countNonIntegral(double[] w) {
        return (int) IntStream.range(0, w.length).parallel().filter(i -> !CsrGraph.integral(w[i])).count();
    }

    /** The first index of sorted {@code a} whose value is at least {@code x} ({@code a.length} when none). */
    static int firstAtLeast(int[] a, int x) {
        int lo = 0, hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /**
     * Where the edges of an undirected base land in a merge ({@code addedIds}: the new ids of the added edges, in
     * key order): old id x of a kept edge becomes x - (removed ids below x) + (added
     * edges ordered before it). Both counts are step functions of x with at most k steps for k changed edges; they
     * are kept as the sorted old ids where the shift changes ({@code at}) and the shift from there on, and a table
     * with one entry per bucket of {@code 2^bits} old ids (about one step per bucket) says where to start looking,
     * so a lookup is O(1) expected, in a few KB to MB that stay in cache. (Searching the changed edges per arc
     * instead, by galloping, was most of a kron20 merge: O(m log(k / d)).)
     */
    record IdShift(int[] at, int[] shift, int[] bucketFirst, int bits, int[] addedIds) {
        /** The shift of a merge of {@code old} (either form: it reads old's rows by long arc, k + n searches at most). */
        static IdShift of(CsrGraph old, int[] removedIds, long[] addedKeys) {
            int oldEdges = old.edgeCount(), bn = old.vertexCount();
            // an added edge (a, b), a < b, is ordered after the old edges whose key is smaller: the old edges of the
            // rows before a and those (a, d < b); its step is at the id of the first old edge after it
            int[] addedAt = new int[addedKeys.length];
            int[] upperEnd = null;   // old edges (c, d) with c <= u, made only when a row cannot tell
            for (int i = 0; i < addedKeys.length; i++) {
                int a = (int) (addedKeys[i] >>> 32), b = (int) addedKeys[i];
                int pos;
                if (a >= bn) {
                    pos = oldEdges;
                } else {
                    long start = old.rowStartLong(a), end = old.rowEndLong(a);
                    long j = firstAtLeast(old, start, end, b);   // b is not in row a (not a base edge)
                    if (j < end) {
                        pos = old.edgeIdAt(j);   // col[j] > b > a: an upper arc, the first old edge after (a, b)
                    } else if (end > start && old.targetAt(end - 1) > a) {
                        pos = old.edgeIdAt(end - 1) + 1;   // after row a's last upper arc
                    } else {
                        if (upperEnd == null) upperEnd = upperEnds(old);
                        pos = upperEnd[a];
                    }
                }
                addedAt[i] = pos;   // non-decreasing: the keys are sorted
            }
            // merge the steps: -1 from r + 1 on for a removed id r, +1 from pos on for an added edge
            int[] at = new int[removedIds.length + addedAt.length];
            int[] shift = new int[at.length];
            int steps = 0, now = 0;
            for (int r = 0, a = 0; r < removedIds.length || a < addedAt.length; ) {
                int x;
                if (a >= addedAt.length || (r < removedIds.length && removedIds[r] + 1 < addedAt[a])) {
                    x = removedIds[r++] + 1;
                    now--;
                } else {
                    x = addedAt[a++];
                    now++;
                }
                if (steps > 0 && at[steps - 1] == x) {
                    shift[steps - 1] = now;
                } else {
                    at[steps] = x;
                    shift[steps++] = now;
                }
            }
            int bits = 0;
            while (bits < 30 && ((long) oldEdges >>> (bits + 1)) >= Math.max(1, steps)) bits++;
            int[] bucketFirst = new int[(oldEdges >>> bits) + 1];
            for (int b = 0, i = 0; b < bucketFirst.length; b++) {
                long startId = (long) b << bits;
                while (i < steps && at[i] < startId) i++;
                bucketFirst[b] = i;
            }
            // added edge i: after the old edges ordered before it less the removed ones among them, and i added ones
            int[] addedIds = new int[addedAt.length];
            for (int i = 0, r = 0; i < addedAt.length; i++) {
                while (r < removedIds.length && removedIds[r] < addedAt[i]) r++;
                addedIds[i] = addedAt[i] - r + i;
            }
            return new IdShift(Arrays.copyOf(at, steps), Arrays.copyOf(shift, steps), bucketFirst, bits, addedIds);
        }

        /** The new id of kept old edge {@code x}. */
        int apply(int x) {
            int i = bucketFirst[x >>> bits];
            while (i < at.length && at[i] <= x) i++;
            return i == 0 ? x : x + shift[i - 1];
        }

        /** For each row u of an undirected graph, its old edges (c, d) with c <= u (upper arcs of rows up to u). */
        private static int[] upperEnds(CsrGraph g) {
            int n = g.vertexCount();
            int[] end = new int[n];
            long sum = 0;
            for (int u = 0; u < n; u++) {
                long rowEnd = g.rowEndLong(u);
                sum += rowEnd - firstAtLeast(g, g.rowStartLong(u), rowEnd, u + 1);
                end[u] = (int) sum;
            }
            return end;
        }
    }

    /** The first arc in [from, to) of a row of {@code g} whose target is at least {@code x} ({@code to} when none). */
    private static long firstAtLeast(CsrGraph g, long from, long to, int x) {
        long lo = from, hi = to;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (g.targetAt(mid) < x) lo = mid + 1; else hi = mid;
        }
        return lo;
    }
}
