package org.frontiergraph.kernels.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The steps of {@link CsrAssembly#build}: from the rows' arc counts and the chunks to a {@link CsrGraph}, each array
 * allocated once, at its size, and counted in the assembly's bytes as it is allocated and released. Arcs are indexed
 * by longs throughout and stored in pages ({@link Paging}): one page, the narrow form's arrays, while the arcs fit
 * them and stay below the assembly's {@code wideFromArcs}; else pages of {@code pageArcs}, the wide form.
 *
 * <ol>
 * <li>Offsets: the counts summed into row starts, which serve as each row's cursor while arcs are placed (then shifted
 *     back): in place (int) when the arcs placed fit the narrow form, else into 64-bit starts (the counts dropped).
 * <li>Placement, one pass over the edges, a group of chunks (about {@link #GROUP_EDGES} edges) at a time: each chunk's
 *     arcs bucketed by range of rows, chunks side by side, then each range's arcs placed by its own task, chunk by
 *     chunk in index order, at its rows' cursors (moved by that task only: no atomics, and each row receives its arcs
 *     in input order whatever the number of tasks); the group is then released. Undirected: columns and weights
 *     together. Directed: the columns first, each arc's position kept in its target's place (a directed graph's arcs,
 *     one an edge, are fewer than 2^31) and the sources freed, then the weights at those positions, chunks side by side.
 * <li>Each row sorted by target and its parallel edges merged to the smallest weight ({@link RowSorter}: the first in
 *     input order among equals, as {@link GraphBuilder}), a block of rows a task, each task reusing its sort buffer; a
 *     row across two pages is sorted in a copy.
 * <li>When parallel edges were merged, the rows' kept arcs are moved together into arrays of the final size (the
 *     narrow form when they fit it): weights, then columns (rewriting the offsets).
 * <li>Edge ids: a directed graph's arcs are its edges; an undirected graph's edges (u, v > u) are numbered in row order
 *     (a block of rows a task, from a prefix of the blocks' counts), then each reverse arc v -> u takes its edge's id:
 *     by row cursors, each task owning a range of rows v and reading, in each row u before its end, only the arcs to
 *     its range (found by a binary search), or by a binary search in row u where the vertices far outnumber the arcs.
 * </ol>
 */
final class CsrLayout {
    /** Marks a slot that a merge freed at the end of its row: above every vertex id, so a row stays sorted. */
    static final int FREED = Integer.MAX_VALUE;

    /** Chunks are placed, then released, this many edges at a time (or one chunk): 4 bytes an arc of buckets. */
    static final int GROUP_EDGES = 1 << 20;

    /** Tasks for the parallel steps: the cores, at most 16 (as GraphBuilder). */
    static int parallelism() {
        return Math.max(1, Math.min(16, Runtime.getRuntime().availableProcessors()));
    }

    private final CsrAssembly asm;
    private final int n;
    private final boolean directed;
    private final int parts;
    private final long placed;
    /**
     * Row starts (length n + 1; row cursors during placement): the counts themselves, summed in place, when the arcs
     * placed are the narrow form's ({@code off32}), else 64-bit ({@code off64}, the counts then dropped).
     */
    private int[] off32;
    private long[] off64;
    /** Rows of at most this many arcs may be radix sorted (their second buffer counted in the sort's scratch). */
    private long radixLimit;
    private Paging paging;
    private int[][] cols;
    private double[][] wts;

    CsrLayout(CsrAssembly asm, int[] counts, int parts) {
        this.asm = asm;
        this.n = asm.vertexCount();
        this.directed = asm.directed();
        this.parts = Math.max(1, parts);
        this.placed = asm.arcs();
        this.paging = form(placed);
        if (paging.isNarrow()) {
            off32 = counts;
            int acc = 0;
            for (int r = 0; r < n; r++) {
                int c = counts[r];
                counts[r] = acc;
                acc += c;
            }
            counts[n] = acc;
        } else {
            off64 = new long[n + 1];
            asm.allocate(8L * (n + 1));
            long acc = 0;
            for (int r = 0; r < n; r++) {
                off64[r] = acc;
                acc += counts[r];
            }
            off64[n] = acc;
            asm.release(CsrAssembly.countsBytes(n));
        }
    }

    private long start(int r) {
        return off32 != null ? off32[r] : off64[r];
    }

    private void setStart(int r, long at) {
        if (off32 != null) off32[r] = (int) at; else off64[r] = at;
    }

    CsrGraph build() {
        place();
        int[] blocks = ranges(Math.max(1, Math.min(n, 64 * parts)));
        long[] kept = sortAndMerge(blocks);
        long total = Arrays.stream(kept).sum();
        if (total < placed) compact(blocks, kept, total);
        Paging p = paging;
        int[][] ids = p.newInts();
        asm.allocate(4L * total);
        if (directed) eachPage(p, (page, lo, hi) -> {
            for (int i = lo; i < hi; i++) ids[page][i] = (int) (p.firstArc(page) + i);
        });
        else number(blocks, ids);
        double[][] w = wts;
        boolean integral = IntStream.range(0, p.pages())
                .allMatch(page -> Arrays.stream(w[page]).parallel().allMatch(CsrAssembly::integral));
        int edges = (int) (directed ? total : total / 2);
        if (!p.isNarrow()) return new CsrGraph(n, directed, off64, new ArcPages(p.pageArcs, cols, wts, ids), edges, integral);
        if (off32 == null) {   // placed wide, merged into the narrow form
            long[] wide = off64;
            off32 = new int[n + 1];
            asm.allocate(CsrAssembly.countsBytes(n));
            IntStream.rangeClosed(0, n).parallel().forEach(r -> off32[r] = (int) wide[r]);
            asm.release(8L * (n + 1));
        }
        return new CsrGraph(n, directed, off32, cols[0], wts[0], ids[0], edges, integral);
    }

    /** The narrow form for {@code arcs} below the assembly's threshold (and one array's size), else the wide one. */
    private Paging form(long arcs) {
        return arcs < asm.wideFromArcs() && arcs <= CsrAssembly.MAX_ARCS ? Paging.narrow(arcs) : Paging.wide(arcs, asm.pageArcs());
    }

    @FunctionalInterface
    private interface PageTask {
        void run(int page, int lo, int hi);
    }

    /** Runs {@code task} on the elements of every page, in slices of at most 2^20 side by side. */
    private static void eachPage(Paging p, PageTask task) {
        int slice = 1 << 20;
        for (int page = 0; page < p.pages(); page++) {
            int len = p.pageLength(page), at = page;
            IntStream.range(0, (len + slice - 1) / slice).parallel()
                    .forEach(k -> task.run(at, k * slice, (int) Math.min(len, (long) (k + 1) * slice)));
        }
    }

    // ------------------------------------------------------------------------------------------- placement

    private void place() {
        List<List<CsrAssembly.Chunk>> groups = groups(asm.chunksInOrder());
        int[] ranges = ranges(Math.max(1, Math.min(n, 4 * parts)));
        RangeOf rangeOf = new RangeOf(ranges, n);
        cols = paging.newInts();
        if (directed) {
            asm.allocate(4L * placed);
            for (List<CsrAssembly.Chunk> g : groups) placeGroup(g, ranges, rangeOf);
            long freed = 0;
            for (List<CsrAssembly.Chunk> g : groups) {
                for (CsrAssembly.Chunk c : g) {
                    long before = c.bytes();
                    c.sources = null;
                    freed += before - c.bytes();
                }
            }
            asm.release(freed);
            wts = paging.newDoubles();
            asm.allocate(8L * placed);
            groups.stream().flatMap(List::stream).parallel().forEach(this::placeWeights);   // at the columns' positions
            for (List<CsrAssembly.Chunk> g : groups) release(g);
        } else {
            wts = paging.newDoubles();
            asm.allocate(12L * placed);
            for (List<CsrAssembly.Chunk> g : groups) {
                placeGroup(g, ranges, rangeOf);
                release(g);
            }
        }
        asm.placed();
        if (n == 0) return;
        if (off32 != null) System.arraycopy(off32, 0, off32, 1, n);   // each row's cursor ended where the next row starts
        else System.arraycopy(off64, 0, off64, 1, n);
        setStart(0, 0);
    }

    /** The chunks in index order, in groups of at most {@link #GROUP_EDGES} edges (or one chunk). */
    private static List<List<CsrAssembly.Chunk>> groups(List<CsrAssembly.Chunk> chunks) {
        List<List<CsrAssembly.Chunk>> groups = new ArrayList<>();
        List<CsrAssembly.Chunk> g = new ArrayList<>();
        long edges = 0;
        for (CsrAssembly.Chunk c : chunks) {
            if (!g.isEmpty() && edges + c.edges() > GROUP_EDGES) {
                groups.add(g);
                g = new ArrayList<>();
                edges = 0;
            }
            g.add(c);
            edges += c.edges();
        }
        if (!g.isEmpty()) groups.add(g);
        return groups;
    }

    /** The edges of the largest group the chunks are placed in. */
    static long largestGroup(List<CsrAssembly.Chunk> chunks) {
        return groups(chunks).stream().mapToLong(g -> g.stream().mapToLong(CsrAssembly.Chunk::edges).sum()).max().orElse(0);
    }

    /** Bytes a group's arcs take while bucketed: 4 an arc. */
    static long bucketBytes(long groupEdges, boolean directed) {
        return 4 * (directed ? groupEdges : 2 * groupEdges);
    }

    private void release(List<CsrAssembly.Chunk> g) {
        long freed = 0;
        for (CsrAssembly.Chunk c : g) {
            freed += c.bytes();
            c.release();
        }
        asm.release(freed);
    }

    /** The range of rows a row is in: a table by blocks of rows, then a step or two across the ranges a block holds. */
    private static final class RangeOf {
        private final int[] bounds;
        private final int[] first;
        private final int shift;

        RangeOf(int[] bounds, int n) {
            this.bounds = bounds;
            this.shift = Math.max(0, 32 - Integer.numberOfLeadingZeros(Math.max(1, n)) - 12);
            this.first = new int[(n >>> shift) + 1];
            int k = 0;
            for (int b = 0; b < first.length; b++) {
                while ((long) b << shift >= bounds[k + 1] && k + 2 < bounds.length) k++;
                first[b] = k;
            }
        }

        int of(int row) {
            int k = first[row >>> shift];
            while (row >= bounds[k + 1]) k++;
            return k;
        }
    }

    /**
     * Places a group of chunks: each chunk's arcs bucketed by range of rows (a reference an arc: edge i, or ~i for an
     * undirected edge's reverse arc), side by side; then each range's buckets placed by its own task, chunk by chunk in
     * index order, so that a row receives its arcs in input order and its cursor is only ever moved by one task.
     * Directed: the columns, each arc's position then taking its target's place.
     */
    private void placeGroup(List<CsrAssembly.Chunk> g, int[] ranges, RangeOf rangeOf) {
        int count = ranges.length - 1;
        long edges = g.stream().mapToLong(CsrAssembly.Chunk::edges).sum();
        long temp = bucketBytes(edges, directed);
        asm.allocate(temp);
        int[][] refs = new int[g.size()][];
        int[][] starts = new int[g.size()][];
        IntStream.range(0, g.size()).parallel().forEach(k -> {
            CsrAssembly.Chunk c = g.get(k);
            int[] s = c.sources, t = c.targets;
            int[] at = new int[count + 1];
            for (int i = 0; i < s.length; i++) {
                if (s[i] == t[i]) continue;
                at[rangeOf.of(s[i]) + 1]++;
                if (!directed) at[rangeOf.of(t[i]) + 1]++;
            }
            for (int r = 0; r < count; r++) at[r + 1] += at[r];
            starts[k] = at.clone();
            int[] ref = new int[at[count]];
            for (int i = 0; i < s.length; i++) {
                if (s[i] == t[i]) {
                    if (directed) t[i] = -1;   // no position: pass 2 skips it
                    continue;
                }
                ref[at[rangeOf.of(s[i])]++] = i;
                if (!directed) ref[at[rangeOf.of(t[i])]++] = ~i;
            }
            refs[k] = ref;
        });
        IntStream.range(0, count).parallel().forEach(r -> {
            for (int k = 0; k < refs.length; k++) {
                if (directed) placeColumns(g.get(k), refs[k], starts[k][r], starts[k][r + 1]);
                else placeBoth(g.get(k), refs[k], starts[k][r], starts[k][r + 1]);
            }
        });
        asm.release(temp);
    }

    /** The next slot of row {@code row}: its cursor, moved on (only the task that owns the row's range moves it). */
    private long next(int row) {
        return off32 != null ? off32[row]++ : off64[row]++;
    }

    /** Pass 1 of a directed graph: the columns, and each arc's position in its target's place. */
    private void placeColumns(CsrAssembly.Chunk c, int[] ref, int lo, int hi) {
        int[] s = c.sources, t = c.targets;
        Paging p = paging;
        int[][] col = cols;
        for (int k = lo; k < hi; k++) {
            int i = ref[k];
            long a = next(s[i]);
            col[p.page(a)][p.index(a)] = t[i];
            t[i] = (int) a;
        }
    }

    /** Pass 2 of a directed graph: each arc's weight at its position (-1: a self-loop). */
    private void placeWeights(CsrAssembly.Chunk c) {
        int[] at = c.targets;
        Paging p = paging;
        double[][] w = wts;
        for (int i = 0; i < at.length; i++) {
            int a = at[i];
            if (a >= 0) w[p.page(a)][p.index(a)] = c.weight(i);
        }
    }

    private void placeBoth(CsrAssembly.Chunk c, int[] ref, int lo, int hi) {
        int[] s = c.sources, t = c.targets;
        Paging p = paging;
        int[][] col = cols;
        double[][] w = wts;
        for (int k = lo; k < hi; k++) {
            int i = ref[k];
            int u, v;
            if (i >= 0) {
                u = s[i];
                v = t[i];
            } else {
                i = ~i;
                u = t[i];
                v = s[i];
            }
            long a = next(u);
            int pg = p.page(a), at = p.index(a);
            col[pg][at] = v;
            w[pg][at] = c.weight(i);
        }
    }

    /** {@code count} ranges of rows of about equally many arcs (a row is never split): bounds k to k + 1. */
    private int[] ranges(int count) {
        int[] bounds = new int[count + 1];
        long total = start(n);
        for (int k = 1; k < count; k++) {
            long want = total * k / count;
            int lo = bounds[k - 1], hi = n;   // the first row starting at or after want
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (start(mid) < want) lo = mid + 1; else hi = mid;
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
        long maxDegree = IntStream.range(0, n).parallel().mapToLong(r -> start(r + 1) - start(r)).max().orElse(0);
        // sort keys, 8 bytes an arc of the rows being sorted at once, and a radix sort's second buffer for rows of
        // at most radixLimit arcs: at most 10 bytes an arc in all
        radixLimit = Math.max(1, placed / (4L * parts));
        long scratch = 8L * Math.min(placed, parts * maxDegree) + 8L * parts * Math.min(maxDegree, radixLimit);
        asm.allocate(scratch);
        IntStream.range(0, count).parallel().forEach(b -> {
            RowSort sort = new RowSort();
            long k = 0;
            for (int r = blocks[b]; r < blocks[b + 1]; r++) k += sort.row(start(r), start(r + 1));
            kept[b] = k;
        });
        asm.release(scratch);
        return kept;
    }

    /** One task's row sorts ({@link RowSorter}), a row across two pages sorted in a copy. */
    private final class RowSort {
        private final RowSorter sorter = new RowSorter(radixLimit);

        /** Sorts row lo..hi-1 by target and merges its parallel arcs; returns the arcs kept, at the row's start. */
        int row(long lo, long hi) {
            int d = (int) (hi - lo);
            if (d < 2) return d;
            Paging p = paging;
            if (p.onePage(lo, hi)) {
                int pg = p.page(lo), at = p.index(lo);
                return sorter.sortAndMerge(cols[pg], wts[pg], at, at + d);
            }
            Paging copy = Paging.narrow(d);
            int[][] c = copy.newInts();
            double[][] w = copy.newDoubles();
            p.copy(cols, lo, copy, c, 0, d);
            p.copy(wts, lo, copy, w, 0, d);
            int k = sorter.sortAndMerge(c[0], w[0], 0, d);
            copy.copy(c, 0, p, cols, lo, d);
            copy.copy(w, 0, p, wts, lo, d);
            return k;
        }
    }

    // ------------------------------------------------------------------------------------------ compaction

    private int col(long a) {
        return cols[paging.page(a)][paging.index(a)];
    }

    /** The arcs row lo..hi-1 kept: up to its first freed slot. */
    private long keptOf(long lo, long hi) {
        if (hi == lo || col(hi - 1) != FREED) return hi - lo;
        long a = lo, b = hi - 1;   // the first FREED: the row is ascending, FREED above every target
        while (a < b) {
            long mid = (a + b) >>> 1;
            if (col(mid) == FREED) b = mid; else a = mid + 1;
        }
        return a - lo;
    }

    /**
     * Moves the kept arcs together into arrays of {@code total} (the narrow form when they fit it): the weights first
     * (beside the columns that say what each row kept), then the columns, each block's rows by one task, the offsets
     * rewritten as the columns move.
     */
    private void compact(int[] blocks, long[] kept, long total) {
        int count = blocks.length - 1;
        long[] to = new long[count + 1];
        long[] oldStart = new long[count + 1];
        for (int b = 0; b < count; b++) {
            to[b + 1] = to[b] + kept[b];
            oldStart[b] = start(blocks[b]);
        }
        oldStart[count] = start(n);
        Paging from = paging, into = form(total);
        double[][] nw = into.newDoubles();
        asm.allocate(8L * total);
        IntStream.range(0, count).parallel().forEach(b -> {
            long at = to[b];
            for (int r = blocks[b]; r < blocks[b + 1]; r++) {
                long lo = start(r), k = keptOf(lo, start(r + 1));
                from.copy(wts, lo, into, nw, at, k);
                at += k;
            }
        });
        wts = nw;
        asm.release(8L * placed);
        int[][] nc = into.newInts();
        asm.allocate(4L * total);
        IntStream.range(0, count).parallel().forEach(b -> {
            long at = to[b], lo = oldStart[b];
            int hi = blocks[b + 1];
            for (int r = blocks[b]; r < hi; r++) {
                long end = r + 1 < hi ? start(r + 1) : oldStart[b + 1];   // read before row r + 1's start is rewritten
                long k = keptOf(lo, end);
                from.copy(cols, lo, into, nc, at, k);
                setStart(r, at);
                at += k;
                lo = end;
            }
        });
        setStart(n, total);
        cols = nc;
        paging = into;
        asm.release(4L * placed);
    }

    // ---------------------------------------------------------------------------------------------- edge ids

    /** The first arc of row r to a target above r (rows are sorted). */
    private long firstUpper(int r) {
        long a = start(r), b = start(r + 1);
        while (a < b) {
            long mid = (a + b) >>> 1;
            if (col(mid) <= r) a = mid + 1; else b = mid;
        }
        return a;
    }

    /** The first arc of row u to a target at least v (rows are sorted). */
    private long lowerBound(int u, int v) {
        long a = start(u), b = start(u + 1);
        while (a < b) {
            long mid = (a + b) >>> 1;
            if (col(mid) < v) a = mid + 1; else b = mid;
        }
        return a;
    }

    /**
     * Undirected: edges (u, v > u) numbered in row order, a block of rows a task from the block's first id (a prefix of
     * the blocks' counts); then each arc (v, u < v) takes the id of arc u -> v, by {@link #reverseByCursors} where the
     * vertices are at most 1.5 times the arcs (the bound leaves room for its 4 bytes a vertex), else by a binary search
     * in row u.
     */
    private void number(int[] blocks, int[][] ids) {
        int count = blocks.length - 1;
        long[] upper = new long[count + 1];
        IntStream.range(0, count).parallel().forEach(b -> {
            long k = 0;
            for (int r = blocks[b]; r < blocks[b + 1]; r++) k += start(r + 1) - firstUpper(r);
            upper[b + 1] = k;
        });
        for (int b = 0; b < count; b++) upper[b + 1] += upper[b];
        Paging p = paging;
        IntStream.range(0, count).parallel().forEach(b -> {
            int id = (int) upper[b];
            for (int r = blocks[b]; r < blocks[b + 1]; r++) {
                for (long a = firstUpper(r), end = start(r + 1); a < end; a++) ids[p.page(a)][p.index(a)] = id++;
            }
        });
        if (2L * n <= 3L * p.length) {
            reverseByCursors(ids);
            return;
        }
        IntStream.range(0, count).parallel().forEach(b -> {
            for (int r = blocks[b]; r < blocks[b + 1]; r++) {
                for (long a = start(r), end = firstUpper(r); a < end; a++) {
                    long back = lowerBound(col(a), r);
                    ids[p.page(a)][p.index(a)] = ids[p.page(back)][p.index(back)];
                }
            }
        });
    }

    /**
     * Each arc (v, u < v) takes the id of arc u -> v, the next arc of row v to a smaller vertex (row v lists them
     * ascending, as the rows u are met in order): each task owns a range of rows v, [lo, hi), and reads, in every row
     * u before hi, the arcs to its range (from the first to a target at least max(lo, u + 1), by a binary search, to
     * the first at or past hi), so each task writes its own rows only.
     */
    private void reverseByCursors(int[][] ids) {
        int[] cursor = new int[n];
        asm.allocate(4L * n);
        int[] ranges = ranges(Math.max(1, Math.min(n, parts)));   // each task visits every row before its end: few tasks
        Paging p = paging;
        IntStream.range(0, ranges.length - 1).parallel().forEach(k -> {
            int lo = ranges[k], hi = ranges[k + 1];
            for (int u = 0; u < hi; u++) {
                for (long a = lowerBound(u, Math.max(lo, u + 1)), end = start(u + 1); a < end; a++) {
                    int v = col(a);
                    if (v >= hi) break;
                    long back = start(v) + cursor[v]++;
                    ids[p.page(back)][p.index(back)] = ids[p.page(a)][p.index(a)];
                }
            }
        });
        asm.release(4L * n);
    }
}
