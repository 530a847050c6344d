package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Builds a {@link CsrGraph} from an {@link EdgeList}, applying the storage policy documented on CsrGraph:
 * ids and weights validated, self-loops dropped, parallel edges merged to the smallest weight,
 * undirected edges stored as two arcs, rows sorted by target. Rows are sorted in parallel; large inputs are also
 * bucketed into rows in parallel ({@link #build(EdgeList, int)}).
 */
public final class GraphBuilder {
    private static final double INT_WEIGHT_LIMIT = 2147483647.0;

    private GraphBuilder() {}

    /** Inputs of at least this many edges are bucketed into rows by several slices side by side. */
    static final int PARALLEL_EDGES = 1 << 20;

    public static CsrGraph build(EdgeList edges) {
        int parts = edges.size() >= PARALLEL_EDGES ? Math.min(16, Runtime.getRuntime().availableProcessors()) : 1;
        return build(edges, parts);
    }

    /**
     * {@link #build(EdgeList)} with the scattering steps split {@code parts} ways, so that the result does not depend
     * on {@code parts}: the input is bucketed into blocks of rows by {@code parts} slices of it side by side, each
     * slice into its own stretch of each block in input order, then the blocks are filled into rows side by side; an
     * undirected graph's reverse arcs are bucketed the same way, by {@code parts} slices of the edges.
     */
    static CsrGraph build(EdgeList edges, int parts) {
        // one step's arrays are garbage once the next has what it needs (no frame holds them: build runs once, in
        // the interpreter, which would keep its locals alive), so the peak is the CSR beside the canonical edges
        return csr(canonical(rows(edges, parts)), parts);
    }

    /** Steps 1-2: each row's keys ({@code target << 32 | position in the row}) and weights, from {@code start[row]}. */
    private record Rows(int n, boolean directed, int[] start, long[] keys, double[] kw) {}

    /** Step 4: the canonical edges in (u, v) order (their ids), row u's from {@code edgeStart[u]}. */
    private record Canonical(int n, boolean directed, int[] edgeStart, int[] eu, int[] ev, double[] ew, boolean integral) {}

    private static Rows rows(EdgeList edges, int parts) {
        final int n = edges.vertexCount();
        final int size = edges.size();
        final boolean directed = edges.directed();
        final int[] src = edges.sourcesArray(), dst = edges.targetsArray();
        final double[] w = edges.weightsArray();
        // 1. bucket the canonical arcs (undirected: stored once, at the min endpoint; self-loops dropped) by block of
        //    rows: each slice of the input scanned once, in order, into its own stretch of each block, side by side
        //    (the writes go to a few hundred streams, not to random rows); the first scan validates the edges too
        int shift = blockShift(n), blocks = n == 0 ? 0 : ((n - 1) >>> shift) + 1;
        int[] slices = rowRanges(size, parts);   // slices of the input, as ranges of edge indices
        int[][] at = new int[slices.length - 1][blocks];
        boolean[] invalid = new boolean[slices.length - 1];
        eachIndex(slices.length - 1, k -> {
            int[] h = at[k];
            for (int i = slices[k]; i < slices[k + 1]; i++) {
                int a = src[i], b = dst[i];
                double x = w[i];
                if (a < 0 || a >= n || b < 0 || b >= n || !(x >= 0) || Double.isInfinite(x)) {
                    invalid[k] = true;
                    return;
                }
                if (a != b) h[(directed ? a : Math.min(a, b)) >>> shift]++;
            }
        });
        for (boolean bad : invalid) {
            if (bad) firstInvalid(n, size, src, dst, w);
        }
        int[] blockStart = stretches(at, blocks);
        int total = blockStart[blocks];
        int[] brow = new int[total], bcol = new int[total];
        double[] bw = new double[total];
        eachIndex(slices.length - 1, k -> {
            int[] cursor = at[k];
            for (int i = slices[k]; i < slices[k + 1]; i++) {
                int a = src[i], b = dst[i];
                if (a == b) continue;
                int row = directed ? a : Math.min(a, b);
                int q = cursor[row >>> shift]++;
                brow[q] = row;
                bcol[q] = directed ? b : Math.max(a, b);
                bw[q] = w[i];
            }
        });
        // 2. per block: count its rows' arcs, then fill keys (target << 32 | position in the row) and weights into
        //    rows, in input order within a row (a block's arcs are in input order), so nothing later reads the input
        int[] counts = new int[n + 1];
        IntStream.range(0, blocks).parallel().forEach(b -> {
            for (int q = blockStart[b]; q < blockStart[b + 1]; q++) counts[brow[q]]++;
        });
        int[] start = prefixSum(counts, n);
        long[] keys = new long[total];
        double[] kw = new double[total];
        int[] fill = Arrays.copyOf(start, n);
        IntStream.range(0, blocks).parallel().forEach(b -> {
            for (int q = blockStart[b]; q < blockStart[b + 1]; q++) {
                int row = brow[q];
                int p = fill[row]++;
                keys[p] = ((long) bcol[q] << 32) | (p - start[row]);
                kw[p] = bw[q];
            }
        });
        return new Rows(n, directed, start, keys, kw);
    }

    private static Canonical canonical(Rows rows) {
        int n = rows.n();
        int[] start = rows.start();
        long[] keys = rows.keys();
        double[] kw = rows.kw();
        // 3. sort each row by target and merge duplicates (smallest weight wins, the first in input order among
        //    equals); in parallel over rows
        int[] kept = new int[n];
        IntStream.range(0, n).parallel().forEach(r -> {
            int lo = start[r], hi = start[r + 1];
            sortRow(keys, lo, hi);
            int out = lo;
            for (int k = lo; k < hi; k++) {
                if (out > lo && (keys[out - 1] >>> 32) == (keys[k] >>> 32)) {
                    int prev = (int) keys[out - 1], cur = (int) keys[k];
                    if (kw[lo + cur] < kw[lo + prev]) keys[out - 1] = keys[k];
                } else {
                    keys[out++] = keys[k];
                }
            }
            kept[r] = out - lo;
        });
        // 4. canonical edge list in (source, target) order: edge ids
        int[] edgeStart = prefixSum(kept, n);
        int m = edgeStart[n];
        int[] eu = new int[m], ev = new int[m];
        double[] ew = new double[m];
        IntStream.range(0, n).parallel().forEach(r -> {
            int base = start[r], out = edgeStart[r];
            for (int k = 0; k < kept[r]; k++) {
                long key = keys[base + k];
                eu[out + k] = r;
                ev[out + k] = (int) (key >>> 32);
                ew[out + k] = kw[base + (int) key];
            }
        });
        boolean integral = IntStream.range(0, m).parallel().allMatch(i -> ew[i] == Math.rint(ew[i]) && ew[i] <= INT_WEIGHT_LIMIT);
        return new Canonical(n, rows.directed(), edgeStart, eu, ev, ew, integral);
    }

    /**
     * CSR from canonical edges sorted by (u, v) (u < v when undirected), the edges of row u at {@code edgeStart[u]}
     * up to {@code edgeStart[u + 1]}. A directed graph's arcs are its edges, in order. An undirected row x holds first
     * its arcs to y < x, from edges (y, x), in edge-id order, then its own edges (x, y > x): sorted, since ids follow
     * (u, v) order. The first kind is bucketed by block of rows, by {@code parts} slices of the edges side by side.
     */
    private static CsrGraph csr(Canonical c, int parts) {
        int n = c.n();
        boolean directed = c.directed(), integral = c.integral();
        int[] edgeStart = c.edgeStart(), eu = c.eu(), ev = c.ev();
        double[] ew = c.ew();
        int m = eu.length;
        long arcs = directed ? m : 2L * m;
        if (arcs > Integer.MAX_VALUE - 8) {
            throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                    "graph has " + arcs + " arcs; at most " + (Integer.MAX_VALUE - 8) + " are supported");
        }
        int[] cols = new int[(int) arcs];
        double[] wts = new double[(int) arcs];
        int[] ids = new int[(int) arcs];
        if (directed) {
            int[] offsets = Arrays.copyOf(edgeStart, n + 1);
            IntStream.range(0, m).parallel().forEach(i -> {
                cols[i] = ev[i]; wts[i] = ew[i]; ids[i] = i;
            });
            return new CsrGraph(n, true, offsets, cols, wts, ids, m, integral);
        }
        // the arcs of row x from edges (y, x), y < x: the edge ids bucketed by block of x (as step 1 of build does),
        // each slice of ids into its own stretch of each block in id order, then counted and filled a block at a time
        int shift = blockShift(n), blocks = n == 0 ? 0 : ((n - 1) >>> shift) + 1;
        int[] slices = rowRanges(m, parts);
        int[][] at = new int[slices.length - 1][blocks];
        eachIndex(slices.length - 1, k -> {
            int[] h = at[k];
            for (int i = slices[k]; i < slices[k + 1]; i++) h[ev[i] >>> shift]++;
        });
        int[] blockStart = stretches(at, blocks);
        int[] bid = new int[m], bx = new int[m];
        eachIndex(slices.length - 1, k -> {
            int[] cursor = at[k];
            for (int i = slices[k]; i < slices[k + 1]; i++) {
                int q = cursor[ev[i] >>> shift]++;
                bid[q] = i;
                bx[q] = ev[i];
            }
        });
        int[] in = new int[n];
        IntStream.range(0, blocks).parallel().forEach(b -> {
            for (int q = blockStart[b]; q < blockStart[b + 1]; q++) in[bx[q]]++;
        });
        int[] deg = new int[n + 1];
        for (int x = 0; x < n; x++) deg[x] = in[x] + edgeStart[x + 1] - edgeStart[x];
        int[] offsets = prefixSum(deg, n);
        IntStream.range(0, n).parallel().forEach(x -> {   // own edges after the incoming ones
            int p = offsets[x] + in[x];
            for (int i = edgeStart[x]; i < edgeStart[x + 1]; i++, p++) {
                cols[p] = ev[i]; wts[p] = ew[i]; ids[p] = i;
            }
        });
        int[] fill = Arrays.copyOf(offsets, n);
        IntStream.range(0, blocks).parallel().forEach(b -> {
            for (int q = blockStart[b]; q < blockStart[b + 1]; q++) {
                int i = bid[q], p = fill[bx[q]]++;
                cols[p] = eu[i]; wts[p] = ew[i]; ids[p] = i;
            }
        });
        return new CsrGraph(n, false, offsets, cols, wts, ids, m, integral);
    }

    /**
     * Rows of at least this many keys are sorted by {@link #radixSortRow}, shorter ones by {@code Arrays.sort} (an
     * insertion sort below 44 keys). Measured on kron20's rows (2-core development machine, 2026-11-26): the radix
     * pass is faster from about 100 keys a row (rows of 129-256 keys: 23 against 37 ms in all, rows of 1,025-4,096:
     * 56 against 146 ms), slower below (rows of 9-16 keys: 65 against 12 ms).
     */
    static final int RADIX_ROW_KEYS = 128;

    /** Sorts {@code keys[lo .. hi-1]} (keys {@code target << 32 | position}, positions distinct) ascending. */
    static void sortRow(long[] keys, int lo, int hi) {
        if (hi - lo >= RADIX_ROW_KEYS) radixSortRow(keys, lo, hi);
        else if (hi - lo > 1) Arrays.sort(keys, lo, hi);
    }

    /**
     * Sorts a row of keys {@code target << 32 | position} by target, a byte of {@code target - min} a pass (least
     * significant first, only the passes the row's span of targets needs). Each pass is stable and a row's keys arrive
     * in position order (step 2 fills them so), so equal targets stay in position order: the same order as sorting the
     * whole keys.
     */
    static void radixSortRow(long[] keys, int lo, int hi) {
        int size = hi - lo;
        int min = Integer.MAX_VALUE, max = Integer.MIN_VALUE;
        for (int i = lo; i < hi; i++) {
            int t = (int) (keys[i] >>> 32);
            min = Math.min(min, t);
            max = Math.max(max, t);
        }
        int bits = 32 - Integer.numberOfLeadingZeros(max - min);
        long[] from = keys, to = new long[size];
        int fromAt = lo, toAt = 0;
        int[] bucket = new int[257];
        for (int shift = 0; shift < bits; shift += 8) {
            Arrays.fill(bucket, 0);
            for (int i = fromAt; i < fromAt + size; i++) bucket[((((int) (from[i] >>> 32)) - min) >>> shift & 0xff) + 1]++;
            for (int b = 0; b < 256; b++) bucket[b + 1] += bucket[b];
            for (int i = fromAt; i < fromAt + size; i++) {
                long key = from[i];
                to[toAt + bucket[(((int) (key >>> 32)) - min) >>> shift & 0xff]++] = key;
            }
            long[] a = from; from = to; to = a;
            int at = fromAt; fromAt = toAt; toAt = at;
        }
        if (from != keys) System.arraycopy(from, fromAt, keys, lo, size);
    }

    /** Rows of a block of step 1 are at most 2^(bits of n - BLOCK_BITS): at most 256 blocks. */
    private static final int BLOCK_BITS = 8;

    /** Row r of a graph of n vertices is in block {@code r >>> blockShift(n)}. */
    private static int blockShift(int n) {
        return Math.max(0, 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1)) - BLOCK_BITS);
    }

    /**
     * Turns per-slice counts of each block ({@code at[slice][block]}) into where each slice's stretch of each block
     * starts (blocks in order, a block's slices in order), in place; returns where each block starts, and the total
     * at {@code [blocks]}.
     */
    private static int[] stretches(int[][] at, int blocks) {
        int[] blockStart = new int[blocks + 1];
        int total = 0;   // at most the input's size
        for (int b = 0; b < blocks; b++) {
            blockStart[b] = total;
            for (int[] h : at) {
                int c = h[b];
                h[b] = total;
                total += c;
            }
        }
        blockStart[blocks] = total;
        return blockStart;
    }

    /** Runs {@code task} for 0 .. count-1, side by side when there are several. */
    private static void eachIndex(int count, java.util.function.IntConsumer task) {
        if (count == 1) task.accept(0);
        else IntStream.range(0, count).parallel().forEach(task);
    }

    /** {@code parts} ranges of equally many of {@code n} rows or edges: bounds[k] to bounds[k + 1]. */
    private static int[] rowRanges(int n, int parts) {
        int p = Math.max(1, Math.min(parts, Math.max(1, n)));
        int[] bounds = new int[p + 1];
        for (int k = 0; k <= p; k++) bounds[k] = (int) ((long) n * k / p);
        return bounds;
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

    /** Throws for the first invalid edge, as one scan in input order finds it. */
    private static void firstInvalid(int n, int size, int[] src, int[] dst, double[] w) {
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
