package org.frontiergraph.kernels.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The steps of {@link CsrAssembly#build}: from the rows' arc counts and the chunks to a {@link CsrGraph}, each array
 * allocated once, at its size, and counted in the assembly's bytes as it is allocated and released.
 *
 * <ol>
 * <li>Offsets: the counts turned into row starts in place; they serve as each row's cursor while arcs are placed
 *     (then shifted back).
 * <li>Placement, chunk by chunk in index order, a group of chunks at a time, each group's chunks released once
 *     placed; the rows are split into ranges of about equally many arcs, each range filled by one task that scans the
 *     group, so that a row receives its arcs in input order whatever the number of tasks. Undirected: columns and
 *     weights together. Directed: the columns first, freeing each chunk's targets, then the weights.
 * <li>Each row sorted by target (stably: an insertion sort for short rows, else sort keys {@code target << 32 |
 *     position}, radix sorted or by {@code Arrays.sort}, and the weights permuted in place), parallel edges merged to
 *     the smallest weight (the first in input order among equals, as {@link GraphBuilder}), the slots they free marked
 *     with {@link #FREED}; a row already sorted is only merged.
 * <li>When parallel edges were merged, the rows are moved together into arrays of the final size: weights, then
 *     columns (rewriting the offsets).
 * <li>Edge ids: a directed graph's arcs are its edges; an undirected graph's edges (u, v > u) are numbered in row order
 *     (side by side, a block of rows a task) and each reverse arc takes its edge's id: with a cursor per row, each
 *     task owning a range of rows and scanning the rows before its end in order, so that every row's cursor meets its
 *     edges in row order whatever the number of tasks; or by a binary search where the vertices far outnumber the arcs.
 * </ol>
 */
final class CsrLayout {
    /** Marks a slot that a merge freed at the end of its row: above every vertex id, so a row stays sorted. */
    static final int FREED = Integer.MAX_VALUE;
    /** Chunks are placed, then released, this many edges at a time (at least one chunk). */
    static final int GROUP_EDGES = 1 << 18;
    /** Groups of fewer edges are placed by one task. */
    static final int PARALLEL_EDGES = 1 << 14;
    /** Rows of at most this many arcs are sorted by insertion. */
    static final int INSERTION_ROW = 32;
    /** Rows of at least this many arcs are radix sorted (GraphBuilder measured it faster from about 100 keys). */
    static final int RADIX_ROW = GraphBuilder.RADIX_ROW_KEYS;

    /** Tasks for the parallel steps: the cores, at most 16 (as GraphBuilder). */
    static int parallelism() {
        return Math.max(1, Math.min(16, Runtime.getRuntime().availableProcessors()));
    }

    private final CsrAssembly asm;
    private final int n;
    private final boolean directed;
    private final int[] off;
    private final int parts;
    private final int placed;
    /** Rows of at most this many arcs may be radix sorted (their second buffer counted in the sort's scratch). */
    private int radixLimit;
    private int[] cols;
    private double[] wts;

    CsrLayout(CsrAssembly asm, int[] counts, int parts) {
        this.asm = asm;
        this.n = asm.vertexCount();
        this.directed = asm.directed();
        this.off = counts;
        this.parts = Math.max(1, parts);
        this.placed = (int) asm.arcs();   // at most CsrAssembly.MAX_ARCS
    }

    CsrGraph build() {
        int acc = 0;
        for (int r = 0; r < n; r++) {
            int c = off[r];
            off[r] = acc;
            acc += c;
        }
        off[n] = acc;
        place();
        int[] blocks = ranges(Math.max(1, Math.min(n, 64 * parts)));
        long[] kept = sortAndMerge(blocks);
        long total = 0;
        for (long k : kept) total += k;
        if (total < placed) compact(blocks, kept, (int) total);
        int arcs = (int) total;
        int[] ids = new int[arcs];
        asm.allocate(4L * arcs);
        if (directed) IntStream.range(0, arcs).parallel().forEach(i -> ids[i] = i);
        else number(blocks, ids, 2L * n <= 3L * arcs);
        double[] w = wts;
        boolean integral = IntStream.range(0, arcs).parallel().allMatch(i -> CsrAssembly.integral(w[i]));
        return new CsrGraph(n, directed, off, cols, wts, ids, directed ? arcs : arcs / 2, integral);
    }

    // ------------------------------------------------------------------------------------------- placement

    private void place() {
        List<List<CsrAssembly.Chunk>> groups = groups();
        int[] ranges = ranges(parts);
        cols = new int[placed];
        if (directed) {
            asm.allocate(4L * placed);
            for (List<CsrAssembly.Chunk> g : groups) {
                each(ranges, g, (lo, hi) -> {
                    for (CsrAssembly.Chunk c : g) placeColumns(c, lo, hi);
                });
                for (CsrAssembly.Chunk c : g) {
                    long before = c.bytes();
                    c.targets = null;
                    asm.release(before - c.bytes());
                }
            }
            restoreOffsets();
            wts = new double[placed];
            asm.allocate(8L * placed);
            for (List<CsrAssembly.Chunk> g : groups) {
                each(ranges, g, (lo, hi) -> {
                    for (CsrAssembly.Chunk c : g) placeWeights(c, lo, hi);
                });
                release(g);
            }
        } else {
            wts = new double[placed];
            asm.allocate(12L * placed);
            for (List<CsrAssembly.Chunk> g : groups) {
                each(ranges, g, (lo, hi) -> {
                    for (CsrAssembly.Chunk c : g) placeBoth(c, lo, hi);
                });
                release(g);
            }
        }
        restoreOffsets();
        asm.placed();
    }

    /** The chunks in index order, in groups of about {@link #GROUP_EDGES} edges. */
    private List<List<CsrAssembly.Chunk>> groups() {
        List<List<CsrAssembly.Chunk>> groups = new ArrayList<>();
        List<CsrAssembly.Chunk> g = new ArrayList<>();
        long edges = 0;
        for (CsrAssembly.Chunk c : asm.chunksInOrder()) {
            g.add(c);
            edges += c.edges();
            if (edges >= GROUP_EDGES) {
                groups.add(g);
                g = new ArrayList<>();
                edges = 0;
            }
        }
        if (!g.isEmpty()) groups.add(g);
        return groups;
    }

    private void release(List<CsrAssembly.Chunk> g) {
        for (CsrAssembly.Chunk c : g) {
            asm.release(c.bytes());
            c.sources = null;
            c.targets = null;
            c.intWeights = null;
            c.weights = null;
        }
    }

    @FunctionalInterface
    private interface RowTask {
        void run(int lo, int hi);
    }

    /** Runs {@code task} on each range of rows, side by side when the group is large enough to pay for it. */
    private static void each(int[] ranges, List<CsrAssembly.Chunk> group, RowTask task) {
        long edges = 0;
        for (CsrAssembly.Chunk c : group) edges += c.edges();
        int count = ranges.length - 1;
        if (count == 1 || edges < PARALLEL_EDGES) task.run(ranges[0], ranges[count]);
        else IntStream.range(0, count).parallel().forEach(k -> task.run(ranges[k], ranges[k + 1]));
    }

    /**
     * The first pass of a directed graph. A self-loop's source is set to -1 by the task that owns its row (so the
     * second pass, which no longer has the targets, skips it; another task reads either value and skips it too).
     */
    private void placeColumns(CsrAssembly.Chunk c, int lo, int hi) {
        int[] s = c.sources, t = c.targets, o = off, col = cols;
        for (int i = 0; i < s.length; i++) {
            int u = s[i];
            if (u >= lo && u < hi) {
                if (u != t[i]) col[o[u]++] = t[i];
                else s[i] = -1;
            }
        }
    }

    /** The second pass of a directed graph: the same arcs in the same order, their weights. */
    private void placeWeights(CsrAssembly.Chunk c, int lo, int hi) {
        int[] s = c.sources, o = off;
        double[] w = wts;
        for (int i = 0; i < s.length; i++) {
            int u = s[i];
            if (u >= lo && u < hi) w[o[u]++] = c.weight(i);
        }
    }

    private void placeBoth(CsrAssembly.Chunk c, int lo, int hi) {
        int[] s = c.sources, t = c.targets, o = off, col = cols;
        double[] w = wts;
        for (int i = 0; i < s.length; i++) {
            int u = s[i], v = t[i];
            if (u == v) continue;
            if (u >= lo && u < hi) {
                int p = o[u]++;
                col[p] = v;
                w[p] = c.weight(i);
            }
            if (v >= lo && v < hi) {
                int p = o[v]++;
                col[p] = u;
                w[p] = c.weight(i);
            }
        }
    }

    /** After a placement each row's cursor is where the next row starts: shifted back into starts. */
    private void restoreOffsets() {
        if (n == 0) return;
        System.arraycopy(off, 0, off, 1, n);
        off[0] = 0;
    }

    /** {@code count} ranges of rows of about equally many arcs (a row is never split): bounds k to k + 1. */
    private int[] ranges(int count) {
        int[] bounds = new int[count + 1];
        long total = off[n];
        for (int k = 1; k < count; k++) {
            long want = total * k / count;
            int lo = bounds[k - 1], hi = n;   // the first row starting at or after want
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (off[mid] < want) lo = mid + 1; else hi = mid;
            }
            bounds[k] = lo;
        }
        bounds[count] = n;
        return bounds;
    }

    // ------------------------------------------------------------------------------------ sort and merge

    /** Sorts and merges every row, a block of rows a task; returns the arcs each block keeps. */
    private long[] sortAndMerge(int[] blocks) {
        int count = blocks.length - 1;
        long[] kept = new long[count];
        int maxDegree = 0;
        for (int r = 0; r < n; r++) maxDegree = Math.max(maxDegree, off[r + 1] - off[r]);
        // sort keys, 8 bytes an arc of the rows being sorted at once, and a radix sort's second buffer for rows of
        // at most radixLimit arcs: at most 10 bytes an arc in all
        radixLimit = (int) Math.min(Integer.MAX_VALUE, placed / (4L * parts));
        long scratch = 8L * Math.min(placed, (long) parts * maxDegree) + 8L * parts * Math.min(maxDegree, radixLimit);
        asm.allocate(scratch);
        IntStream.range(0, count).parallel().forEach(b -> {
            long k = 0;
            for (int r = blocks[b]; r < blocks[b + 1]; r++) k += sortAndMerge(off[r], off[r + 1]);
            kept[b] = k;
        });
        asm.release(scratch);
        return kept;
    }

    /** Sorts row lo..hi-1 by target and merges its parallel arcs; returns the arcs kept, at the row's start. */
    private int sortAndMerge(int lo, int hi) {
        int[] col = cols;
        double[] w = wts;
        if (hi - lo < 2) return hi - lo;
        boolean sorted = true;
        for (int k = lo + 1; k < hi && sorted; k++) sorted = col[k - 1] <= col[k];
        if (!sorted) {
            if (hi - lo <= INSERTION_ROW) insertionSort(lo, hi);
            else keySort(lo, hi);
        }
        int out = lo + 1;
        for (int k = lo + 1; k < hi; k++) {
            if (col[k] == col[out - 1]) {
                if (w[k] < w[out - 1]) w[out - 1] = w[k];
            } else {
                col[out] = col[k];
                w[out++] = w[k];
            }
        }
        Arrays.fill(col, out, hi, FREED);
        return out - lo;
    }

    private void insertionSort(int lo, int hi) {
        int[] col = cols;
        double[] w = wts;
        for (int k = lo + 1; k < hi; k++) {
            int c = col[k];
            double x = w[k];
            int j = k - 1;
            while (j >= lo && col[j] > c) {
                col[j + 1] = col[j];
                w[j + 1] = w[j];
                j--;
            }
            col[j + 1] = c;
            w[j + 1] = x;
        }
    }

    /**
     * Sorts keys {@code target << 32 | position} (distinct, so any sort gives the stable order), writes the targets
     * back and permutes the weights in place along the permutation's cycles (bit 63 of a key marks its slot done).
     */
    private void keySort(int lo, int hi) {
        int d = hi - lo;
        int[] col = cols;
        double[] w = wts;
        long[] keys = new long[d];
        for (int k = 0; k < d; k++) keys[k] = (long) col[lo + k] << 32 | k;
        if (d >= RADIX_ROW && d <= radixLimit) GraphBuilder.radixSortRow(keys, 0, d);
        else Arrays.sort(keys);
        for (int start = 0; start < d; start++) {
            if (keys[start] < 0) continue;
            double first = w[lo + start];
            int j = start;
            while (true) {
                keys[j] |= Long.MIN_VALUE;
                int from = (int) keys[j];
                if (from == start) {
                    w[lo + j] = first;
                    break;
                }
                w[lo + j] = w[lo + from];
                j = from;
            }
        }
        for (int k = 0; k < d; k++) col[lo + k] = (int) ((keys[k] >>> 32) & 0x7fffffff);
    }

    // ------------------------------------------------------------------------------------------ compaction

    /** The arcs row lo..hi-1 kept: up to its first freed slot. */
    private static int keptOf(int[] col, int lo, int hi) {
        if (hi == lo || col[hi - 1] != FREED) return hi - lo;
        int a = lo, b = hi - 1;   // the first FREED: the row is ascending, FREED above every target
        while (a < b) {
            int mid = (a + b) >>> 1;
            if (col[mid] == FREED) b = mid; else a = mid + 1;
        }
        return a - lo;
    }

    /**
     * Moves the kept arcs together into arrays of {@code total}: the weights first (beside the columns that say what
     * each row kept), then the columns, each block's rows by one task, the offsets rewritten as the columns move.
     */
    private void compact(int[] blocks, long[] kept, int total) {
        int count = blocks.length - 1;
        int[] to = new int[count + 1];
        int[] oldStart = new int[count + 1];
        for (int b = 0; b < count; b++) {
            to[b + 1] = (int) (to[b] + kept[b]);
            oldStart[b] = off[blocks[b]];
        }
        oldStart[count] = off[n];
        int[] col = cols;
        double[] w = wts, nw = new double[total];
        asm.allocate(8L * total);
        IntStream.range(0, count).parallel().forEach(b -> {
            int at = to[b];
            for (int r = blocks[b]; r < blocks[b + 1]; r++) {
                int k = keptOf(col, off[r], off[r + 1]);
                System.arraycopy(w, off[r], nw, at, k);
                at += k;
            }
        });
        wts = nw;
        asm.release(8L * placed);
        int[] nc = new int[total];
        asm.allocate(4L * total);
        IntStream.range(0, count).parallel().forEach(b -> {
            int at = to[b], start = oldStart[b], hi = blocks[b + 1];
            for (int r = blocks[b]; r < hi; r++) {
                int end = r + 1 < hi ? off[r + 1] : oldStart[b + 1];   // read before row r + 1's start is rewritten
                int k = keptOf(col, start, end);
                System.arraycopy(col, start, nc, at, k);
                off[r] = at;
                at += k;
                start = end;
            }
        });
        off[n] = total;
        cols = nc;
        asm.release(4L * placed);
    }

    // ---------------------------------------------------------------------------------------------- edge ids

    /** The first arc of row r to a target above r (rows are sorted). */
    private int firstUpper(int r) {
        int a = off[r], b = off[r + 1];
        while (a < b) {
            int mid = (a + b) >>> 1;
            if (cols[mid] <= r) a = mid + 1; else b = mid;
        }
        return a;
    }

    /**
     * Undirected: edges (u, v > u) numbered in row order, a block of rows a task; then each arc (v, u < v) takes the id
     * of arc u -> v: by the rows' cursors ({@link #reverseByCursors}, 4 bytes a vertex: where the bound leaves room for
     * them, {@code cursors} when the vertices are at most 1.5 times the arcs), else by a binary search in row u.
     */
    private void number(int[] blocks, int[] ids, boolean cursors) {
        int count = blocks.length - 1;
        int[] upper = new int[count + 1];
        IntStream.range(0, count).parallel().forEach(b -> {
            int k = 0;
            for (int r = blocks[b]; r < blocks[b + 1]; r++) k += off[r + 1] - firstUpper(r);
            upper[b + 1] = k;
        });
        for (int b = 0; b < count; b++) upper[b + 1] += upper[b];
        IntStream.range(0, count).parallel().forEach(b -> {
            int id = upper[b];
            for (int r = blocks[b]; r < blocks[b + 1]; r++) {
                for (int p = firstUpper(r); p < off[r + 1]; p++) ids[p] = id++;
            }
        });
        if (cursors) {
            reverseByCursors(ids);
            return;
        }
        IntStream.range(0, count).parallel().forEach(b -> {
            for (int r = blocks[b]; r < blocks[b + 1]; r++) {
                for (int p = off[r], end = firstUpper(r); p < end; p++) {
                    int c = cols[p];
                    ids[p] = ids[find(c, r)];
                }
            }
        });
    }

    /**
     * Each arc (v, u < v) takes the id of arc u -> v, the next arc of row v to a smaller vertex (row v lists them
     * ascending, as the rows u are met in order): each task owns a range of rows v and scans the rows before its end,
     * stopping in each at its end (rows are sorted), so each task writes its own rows and reads every row once at most.
     */
    private void reverseByCursors(int[] ids) {
        int[] cursor = Arrays.copyOf(off, n);
        asm.allocate(4L * n);
        int[] ranges = ranges(parts);
        IntStream.range(0, parts).parallel().forEach(k -> {
            int lo = ranges[k], hi = ranges[k + 1];
            for (int u = 0; u < hi; u++) {
                for (int p = off[u], end = off[u + 1]; p < end; p++) {
                    int v = cols[p];
                    if (v >= hi) break;
                    if (v > u && v >= lo) ids[cursor[v]++] = ids[p];
                }
            }
        });
        asm.release(4L * n);
    }

    /** The index of arc u -> v, which exists. */
    private int find(int u, int v) {
        int a = off[u], b = off[u + 1] - 1;
        while (a < b) {
            int mid = (a + b) >>> 1;
            if (cols[mid] < v) a = mid + 1; else b = mid;
        }
        return a;
    }
}
