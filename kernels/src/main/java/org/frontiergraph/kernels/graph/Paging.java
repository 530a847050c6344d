package org.frontiergraph.kernels.graph;

/**
 * How {@link CsrLayout} addresses a per-arc array of {@code length} arcs by a 64-bit arc index: cut into pages of
 * {@code pageArcs} arcs (the last one shorter), arc {@code a} at {@code [a / pageArcs][a % pageArcs]}. The narrow form
 * is one page ({@link #narrow}: every index below 2^31, page 0); a wide one uses a shift where the page size is a
 * power of two (2^30 in production) and a division otherwise (tests' pages of a few arcs).
 */
final class Paging {
    final long length;
    /** Arcs a page, as {@link ArcPages#pageArcs()}: the length itself (at least 1) for the narrow form. */
    final int pageArcs;
    /** log2 of the page size when it is a power of two (31 for the narrow form), else -1. */
    private final int shift;
    private final long size;
    private final long mask;

    private Paging(long length, int pageArcs, int shift, long size) {
        this.length = length;
        this.pageArcs = pageArcs;
        this.shift = shift;
        this.size = size;
        this.mask = size - 1;
    }

    /** One page of {@code length} (at most {@link CsrAssembly#MAX_ARCS}) arcs. */
    static Paging narrow(long length) {
        if (length > CsrAssembly.MAX_ARCS) throw new IllegalArgumentException(length + " arcs do not fit one array");
        return new Paging(length, (int) Math.max(1, length), 31, 1L << 31);
    }

    /** Pages of {@code pageArcs} arcs. */
    static Paging wide(long length, int pageArcs) {
        if (pageArcs < 1) throw new IllegalArgumentException("pageArcs must be positive: " + pageArcs);
        int shift = Integer.bitCount(pageArcs) == 1 ? Integer.numberOfTrailingZeros(pageArcs) : -1;
        return new Paging(length, pageArcs, shift, pageArcs);
    }

    boolean isNarrow() { return shift == 31; }

    int page(long a) { return shift >= 0 ? (int) (a >>> shift) : (int) (a / size); }

    int index(long a) { return shift >= 0 ? (int) (a & mask) : (int) (a % size); }

    /** Pages: at least one (an empty graph has one empty page, as {@link CsrGraph#widen} gives). */
    int pages() { return (int) Math.max(1, (length + size - 1) / size); }

    /** Arcs of page {@code p}. */
    int pageLength(int p) { return (int) Math.min(size, length - p * size); }

    long firstArc(int p) { return p * size; }

    int[][] newInts() {
        int[][] pages = new int[pages()][];
        for (int p = 0; p < pages.length; p++) pages[p] = new int[pageLength(p)];
        return pages;
    }

    double[][] newDoubles() {
        double[][] pages = new double[pages()][];
        for (int p = 0; p < pages.length; p++) pages[p] = new double[pageLength(p)];
        return pages;
    }

    /** Whether arcs {@code lo} to {@code hi - 1} lie in one page (an empty run does). */
    boolean onePage(long lo, long hi) { return hi - lo < 2 || page(lo) == page(hi - 1); }

    /**
     * Copies {@code len} arcs from {@code src} (pages of this paging) at {@code from} to {@code dst} (pages of
     * {@code to}'s paging) at {@code at}: arrays of one type, int[][] or double[][], copied a run within a page at a time.
     */
    void copy(Object[] src, long from, Paging to, Object[] dst, long at, long len) {
        while (len > 0) {
            int sp = page(from), si = index(from), dp = to.page(at), di = to.index(at);
            long run = Math.min(len, Math.min(pageLength(sp) - si, to.pageLength(dp) - di));
            System.arraycopy(src[sp], si, dst[dp], di, (int) run);
            from += run;
            at += run;
            len -= run;
        }
    }
}
