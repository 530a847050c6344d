package org.frontiergraph.kernels.graph;

/**
 * A graph in compressed sparse row form, 0-based vertex ids, built by {@link GraphBuilder}. Its arcs never change;
 * its weights change in place only through the {@link MutableGraph} that owns it (O(1) per re-weighted edge), which
 * also patches the cached transpose and undirected edge list; a structural change gives a new CsrGraph, whose
 * transpose is derived from the previous version's when that one had one ({@link TransposeMerge}).
 *
 * <p>Storage policy (see docs/contract.md): self-loops are dropped; parallel edges are merged keeping the
 * smallest weight; an undirected edge {u,v} is stored as two arcs u->v and v->u. Rows are sorted by target,
 * so an arc is found by binary search. Weights are finite and non-negative.
 *
 * <p>Every arc carries the id of its <em>edge</em>: edges are numbered 0..edgeCount-1 in (source, target) order
 * over the canonical edge list (undirected: u < v). Both arcs of an undirected edge carry the same id.
 * MST ties are broken by (weight, edge id) on the undirected edges of {@link #undirectedEdges()}.
 *
 * <p>Two forms, one graph: arcs indexed by int (the arrays {@link #rowOffsets()}, {@link #columns()}, ... that every CPU
 * kernel reads directly), or the wide form ({@link #wide()}) of a graph of more than {@link #MAX_INT_ARCS} arcs: 64-bit
 * row offsets over {@link ArcPages}. Every method not named for int arrays answers the same in both forms (the long
 * accessors {@link #rowStartLong}, {@link #findArcLong}, {@link #sourceOf(long)}, {@link #targetAt}, {@link #weightAt},
 * {@link #edgeIdAt}; sums, bounds, transposes and edge lists over the pages in arc order, {@link WideArcs}); the int
 * accessors throw {@link WideGraphException} on a wide graph. Edges stay fewer than 2^31 in both: edge ids are ints.
 */
public final class CsrGraph {
    /** The most arcs an int-indexed graph holds (a Java array's limit); more are held in the wide form. */
    public static final int MAX_INT_ARCS = Integer.MAX_VALUE - 8;

    private final int vertexCount;
    private final boolean directed;
    private final int[] rowOffsets;
    private final int[] columns;
    private final double[] weights;
    private final int[] arcEdgeIds;
    /** Wide form only (else null): row offsets as longs and the per-arc arrays in pages. */
    private final long[] rowOffsets64;
    private final ArcPages arcPages;
    private final int edgeCount;
    /** Arcs whose weight is not an integer below 2^31; -1 until the first in-place re-weight counts them. */
    private long nonIntegralArcs;
    private double weightSum = Double.NaN;
    /** At least the largest arc weight (more once re-weights lowered the largest); NaN until first asked for. */
    private double weightBound = Double.NaN;
    private volatile CsrGraph transposed;
    /** How {@link #transposed} follows from the previous version's, until first read (a merge sets it). */
    private volatile TransposeMerge pendingTranspose;
    private volatile UndirectedEdges undirected;
    /** The largest degree, -1 until first asked for (the arcs never change). */
    private volatile int maxDegree = -1;

    CsrGraph(int vertexCount, boolean directed, int[] rowOffsets, int[] columns, double[] weights,
             int[] arcEdgeIds, int edgeCount, boolean integralWeights) {
        this.vertexCount = vertexCount;
        this.directed = directed;
        this.rowOffsets = rowOffsets;
        this.columns = columns;
        this.weights = weights;
        this.arcEdgeIds = arcEdgeIds;
        this.rowOffsets64 = null;
        this.arcPages = null;
        this.edgeCount = edgeCount;
        this.nonIntegralArcs = integralWeights ? 0 : -1;
    }

    /** A wide graph: 64-bit row offsets (length n+1) over arcs stored in {@code pages}. */
    CsrGraph(int vertexCount, boolean directed, long[] rowOffsets, ArcPages pages, int edgeCount,
             boolean integralWeights) {
        this.vertexCount = vertexCount;
        this.directed = directed;
        this.rowOffsets = null;
        this.columns = null;
        this.weights = null;
        this.arcEdgeIds = null;
        this.rowOffsets64 = rowOffsets;
        this.arcPages = pages;
        this.edgeCount = edgeCount;
        this.nonIntegralArcs = integralWeights ? 0 : -1;
    }

    public int vertexCount() { return vertexCount; }
    /** Stored arcs: edgeCount for directed graphs, 2 * edgeCount for undirected ones. A wide graph throws: see {@link #arcs()}. */
    public int arcCount() {
        if (columns == null) throw wideRefused("CsrGraph.arcCount()");
        return columns.length;
    }
    /** Distinct edges after the storage policy. */
    public int edgeCount() { return edgeCount; }
    public boolean directed() { return directed; }
    /** True when every weight is an integer below 2^31 (kernels may then use int32 weights exactly). */
    public boolean integralWeights() { return nonIntegralArcs == 0; }

    /** The sum of all arc weights (kept up to date by in-place re-weights). */
    public double weightSum() {
        double s = weightSum;
        if (Double.isNaN(s)) {
            if (weights != null) {
                s = 0;
                for (double w : weights) s += w;
            } else {
                s = WideArcs.sum(arcPages);
            }
            weightSum = s;
        }
        return s;
    }

    /**
     * An upper bound of the arc weights: the largest one when first asked for (O(m) then, cached), raised by in-place
     * re-weights above it and carried over a merge, never lowered (a bound that a lowered weight leaves too high
     * stays valid). 0 for a graph without arcs.
     */
    public double weightBound() {
        double b = weightBound;
        if (Double.isNaN(b)) {
            if (weights != null) {
                b = 0;
                for (double w : weights) if (w > b) b = w;
            } else {
                b = WideArcs.max(arcPages);
            }
            weightBound = b;
        }
        return b;
    }

    /** The weight bound when known, else NaN. */
    double weightBoundIfKnown() { return weightBound; }

    /** Sets a weight bound a builder already knows (a merge: the previous version's and the added weights'). */
    void knownWeightBound(double bound) { weightBound = bound; }

    static boolean integral(double w) {
        return w == Math.rint(w) && w <= Integer.MAX_VALUE;
    }

    /**
     * Sets the weight of {@code arc} in place (and of the same arc in the cached transpose, and the edge's weight in
     * the cached undirected edge list: on a directed graph the smaller of its two arcs', found by binary search, so
     * the list is never rebuilt for a re-weight). Only {@link MutableGraph} calls this, on the thread that owns the
     * graph.
     */
    void setWeight(long arc, int source, double w) {
        if (pendingTranspose != null) transpose();   // derived from the weights before this change
        double old = weightAt(arc);
        if (nonIntegralArcs < 0) {
            if (weights != null) {
                int count = 0;
                for (double x : weights) if (!integral(x)) count++;
                nonIntegralArcs = count;
            } else {
                nonIntegralArcs = WideArcs.nonIntegral(arcPages);
            }
        }
        nonIntegralArcs += (integral(w) ? 0 : 1) - (integral(old) ? 0 : 1);
        if (!Double.isNaN(weightSum)) weightSum += w - old;
        if (w > weightBound) weightBound = w;   // false while unknown (NaN)
        int target;
        if (weights != null) {
            weights[(int) arc] = w;
            target = columns[(int) arc];
        } else {
            WideArcs.setWeight(arcPages, arc, w);
            target = WideArcs.column(arcPages, arc);
        }
        CsrGraph t = transposed;
        if (t != null && t != this) t.setWeight(t.findArcLong(target, source), target, w);
        UndirectedEdges u = undirected;
        if (u != null) {
            if (!directed) {
                u.w[edgeIdAt(arc)] = w;
            } else {   // the edge's weight is the smaller of its two arcs'
                int a = Math.min(source, target), b = Math.max(source, target);
                u.w[u.idOf(a, b)] = UndirectedEdges.weightOf(this, a, b);
            }
        }
    }

    /** Arcs whose weight is not an integer below 2^31, or -1 when not yet counted. */
    long nonIntegralArcsIfKnown() { return nonIntegralArcs; }

    /** The weight sum when known, else NaN. */
    double weightSumIfKnown() { return weightSum; }

    /** The cached undirected edge list, or null when none was built. */
    UndirectedEdges cachedUndirectedEdges() { return undirected; }

    /** Caches an undirected edge list a merge derived from the previous version's. */
    void cacheUndirectedEdges(UndirectedEdges list) { undirected = list; }

    /** Sets totals a builder already knows (a merge derives them from the previous version). */
    void knownTotals(long nonIntegral, double sum) {
        if (nonIntegral >= 0) nonIntegralArcs = nonIntegral;
        weightSum = sum;
    }

    /** The out-degree of {@code v} (an int on a wide graph too: a row holds at most n - 1 arcs). */
    public int degree(int v) {
        if (rowOffsets != null) return rowOffsets[v + 1] - rowOffsets[v];
        return (int) (rowOffsets64[v + 1] - rowOffsets64[v]);
    }

    /** The largest out-degree (0 for an edgeless graph). Cached. */
    public int maxDegree() {
        int m = maxDegree;
        if (m < 0) {
            m = 0;
            for (int v = 0; v < vertexCount; v++) m = Math.max(m, degree(v));
            maxDegree = m;
        }
        return m;
    }

    /** The first arc of {@code v}'s row. A wide graph throws: see {@link #rowStartLong}. */
    public int rowStart(int v) {
        if (rowOffsets == null) throw wideRefused("CsrGraph.rowStart(int)");
        return rowOffsets[v];
    }

    /** The arc after {@code v}'s row. A wide graph throws: see {@link #rowEndLong}. */
    public int rowEnd(int v) {
        if (rowOffsets == null) throw wideRefused("CsrGraph.rowEnd(int)");
        return rowOffsets[v + 1];
    }

    /** The first arc of {@code v}'s row, in either form. */
    public long rowStartLong(int v) { return rowOffsets != null ? rowOffsets[v] : rowOffsets64[v]; }

    /** The arc after {@code v}'s row, in either form. */
    public long rowEndLong(int v) { return rowOffsets != null ? rowOffsets[v + 1] : rowOffsets64[v + 1]; }

    /**
     * Shared, read-only views of the arrays (length n+1, arcCount, arcCount, arcCount). Do not modify. A wide graph
     * has none: these throw {@link WideGraphException}; read it through {@link #rowOffsetsLong()} and {@link #pages()}.
     */
    public int[] rowOffsets() {
        if (rowOffsets == null) throw wideRefused("CsrGraph.rowOffsets()");
        return rowOffsets;
    }

    public int[] columns() {
        if (columns == null) throw wideRefused("CsrGraph.columns()");
        return columns;
    }

    public double[] weights() {
        if (weights == null) throw wideRefused("CsrGraph.weights()");
        return weights;
    }

    public int[] arcEdgeIds() {
        if (arcEdgeIds == null) throw wideRefused("CsrGraph.arcEdgeIds()");
        return arcEdgeIds;
    }

    /** The target of {@code arc}, in either form. */
    public int targetAt(long arc) { return columns != null ? columns[(int) arc] : WideArcs.column(arcPages, arc); }

    /** The weight of {@code arc}, in either form. */
    public double weightAt(long arc) { return weights != null ? weights[(int) arc] : WideArcs.weight(arcPages, arc); }

    /** The edge id of {@code arc}, in either form. */
    public int edgeIdAt(long arc) { return arcEdgeIds != null ? arcEdgeIds[(int) arc] : WideArcs.edgeId(arcPages, arc); }

    /** What an int-indexed accessor throws on a wide graph. */
    private WideGraphException wideRefused(String operation) {
        return new WideGraphException(operation, arcs(), "read it through arcs(), rowOffsetsLong() and pages() (or the"
                + " long accessors rowStartLong, findArcLong, sourceOf(long), targetAt, weightAt, edgeIdAt)");
    }

    /**
     * True when the arcs are indexed by 64-bit offsets: more arcs than one Java array holds (issue 29), or a graph
     * built wide on purpose to exercise that path. A wide graph has no int-indexed arrays ({@link #rowOffsets()},
     * {@link #columns()}, ... throw); read it through {@link #rowOffsetsLong()} and {@link #pages()}.
     */
    public boolean wide() { return arcPages != null; }

    /** Stored arcs, as a long (exceeds {@link Integer#MAX_VALUE} only for a wide graph). */
    public long arcs() { return wide() ? rowOffsets64[vertexCount] : columns.length; }

    /** Row offsets as longs (length n+1): the wide graph's own (do not modify), a fresh widened copy otherwise. */
    public long[] rowOffsetsLong() {
        if (wide()) return rowOffsets64;
        long[] r = new long[rowOffsets.length];
        for (int i = 0; i < r.length; i++) r[i] = rowOffsets[i];
        return r;
    }

    /** The per-arc arrays in pages; one page (the arrays themselves) for a graph indexed by int. */
    public ArcPages pages() {
        if (wide()) return arcPages;
        int page = Math.max(1, columns.length);
        return new ArcPages(page, new int[][] {columns}, new double[][] {weights}, new int[][] {arcEdgeIds});
    }

    /**
     * This graph in the wide form, its arcs cut into pages of {@code pageArcs}: what a graph of more than 2^31 - 8
     * arcs is built as, made from a small one so that tests (and the GPU suite) can run the 64-bit path on any graph.
     * Same vertices, arcs, weights and edge ids.
     */
    public CsrGraph widen(int pageArcs) {
        if (pageArcs < 1) throw new IllegalArgumentException("pageArcs must be positive: " + pageArcs);
        ArcPages from = pages();
        long m = arcs();
        int count = (int) Math.max(1, (m + pageArcs - 1) / pageArcs);
        int[][] cols = new int[count][];
        double[][] wts = new double[count][];
        int[][] ids = new int[count][];
        for (int p = 0; p < count; p++) {
            int len = (int) Math.min(pageArcs, m - (long) p * pageArcs);
            cols[p] = new int[len];
            wts[p] = new double[len];
            ids[p] = new int[len];
            for (int i = 0; i < len; i++) {
                long a = (long) p * pageArcs + i;
                int fp = (int) (a / from.pageArcs()), fi = (int) (a % from.pageArcs());
                cols[p][i] = from.columns()[fp][fi];
                wts[p][i] = from.weights()[fp][fi];
                ids[p][i] = from.edgeIds()[fp][fi];
            }
        }
        long[] rows = rowOffsetsLong();
        return new CsrGraph(vertexCount, directed, wide() ? rows.clone() : rows, new ArcPages(pageArcs, cols, wts, ids),
                edgeCount, integralWeights());
    }

    /** The vertex whose row holds {@code arc} (binary search over the row offsets), in either form. */
    public int sourceOf(long arc) {
        if (rowOffsets != null) return sourceOf((int) arc);
        return WideArcs.sourceOf(rowOffsets64, vertexCount, arc);
    }

    /** The vertex whose row holds {@code arc} (binary search over the row offsets), in either form. */
    public int sourceOf(int arc) {
        if (rowOffsets == null) return WideArcs.sourceOf(rowOffsets64, vertexCount, arc);
        int lo = 0, hi = vertexCount - 1;
        while (lo < hi) {   // the last row starting at or before arc; empty rows share its start
            int mid = (lo + hi + 1) >>> 1;
            if (rowOffsets[mid] <= arc) lo = mid; else hi = mid - 1;
        }
        while (rowOffsets[lo + 1] <= arc) lo++;
        return lo;
    }

    /** Index of arc u->v, or -1, in either form. */
    public long findArcLong(int u, int v) {
        return rowOffsets != null ? findArc(u, v) : WideArcs.findArc(rowOffsets64, arcPages, u, v);
    }

    /** Whether the graph has the arc u->v, in either form. */
    public boolean hasArc(int u, int v) { return findArcLong(u, v) >= 0; }

    /** Index of arc u->v, or -1. A wide graph throws: see {@link #findArcLong}. */
    public int findArc(int u, int v) {
        if (rowOffsets == null) throw wideRefused("CsrGraph.findArc(int, int)");
        int lo = rowOffsets[u], hi = rowOffsets[u + 1] - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = columns[mid];
            if (c < v) lo = mid + 1; else if (c > v) hi = mid - 1; else return mid;
        }
        return -1;
    }

    /**
     * The reverse graph (incoming arcs as rows); the graph itself when undirected. Cached; built on first read, or
     * derived from the previous version's transpose when a merge made this version from one that had a transpose.
     */
    public CsrGraph transpose() {
        if (!directed) return this;
        CsrGraph t = transposed;
        return t != null ? t : buildTranspose();
    }

    private synchronized CsrGraph buildTranspose() {
        CsrGraph t = transposed;
        if (t == null) {
            TransposeMerge p = pendingTranspose;
            t = p != null ? p.apply(this) : wide() ? WideArcs.transpose(this) : GraphBuilder.transpose(this);
            transposed = t;
            pendingTranspose = null;
        }
        return t;
    }

    /** Whether a transpose is cached or will be derived (a merge then derives the next version's from it). */
    boolean keepsTranspose() { return transposed != null || pendingTranspose != null; }

    /** Sets how this version's transpose follows from the previous version's (a merge calls it, before any reader). */
    void deriveTranspose(TransposeMerge p) { pendingTranspose = p; }

    /** The undirected edges underneath this graph, with MST edge ids. Cached. */
    public UndirectedEdges undirectedEdges() {
        UndirectedEdges u = undirected;
        if (u == null) {
            u = UndirectedEdges.of(this);
            undirected = u;
        }
        return u;
    }

    /** True when both graphs share the same vertices and arcs (only weights may differ), e.g. after a re-weight. */
    public boolean sameStructure(CsrGraph other) {
        if (other == null) return false;
        if (wide()) return other.wide() && rowOffsets64 == other.rowOffsets64 && arcPages.columns() == other.arcPages.columns();
        return rowOffsets == other.rowOffsets && columns == other.columns;
    }

    /** A copy with its own weights (the arcs shared), which later in-place re-weights of this one do not touch. */
    CsrGraph withWeightsCopied() {
        return wide()
                ? new CsrGraph(vertexCount, directed, rowOffsets64, WideArcs.withWeightsCopied(arcPages), edgeCount, integralWeights())
                : new CsrGraph(vertexCount, directed, rowOffsets, columns, weights.clone(), arcEdgeIds, edgeCount, integralWeights());
    }

    /**
     * Bytes held by the arrays of this graph (not counting caches): 16 an arc and 4 a vertex, 8 a vertex on a wide
     * graph (its offsets are longs).
     */
    public long bytes() {
        if (wide()) return 8L * rowOffsets64.length + 16L * arcs();
        return 4L * rowOffsets.length + 4L * columns.length + 8L * weights.length + 4L * arcEdgeIds.length;
    }

    @Override
    public String toString() {
        return "CsrGraph[n=" + vertexCount + ", edges=" + edgeCount + ", arcs=" + arcs()
                + (directed ? ", directed" : ", undirected") + (wide() ? ", wide, " + arcPages.pageCount() + " pages of "
                + arcPages.pageArcs() + " arcs" : "") + "]";
    }
}
