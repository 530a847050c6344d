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
 */
public final class CsrGraph {
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
    private int nonIntegralArcs;
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
    /** Stored arcs: edgeCount for directed graphs, 2 * edgeCount for undirected ones. */
    public int arcCount() { return columns.length; }
    /** Distinct edges after the storage policy. */
    public int edgeCount() { return edgeCount; }
    public boolean directed() { return directed; }
    /** True when every weight is an integer below 2^31 (kernels may then use int32 weights exactly). */
    public boolean integralWeights() { return nonIntegralArcs == 0; }

    /** The sum of all arc weights (kept up to date by in-place re-weights). */
    public double weightSum() {
        double s = weightSum;
        if (Double.isNaN(s)) {
            s = 0;
            for (double w : weights) s += w;
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
            b = 0;
            for (double w : weights) if (w > b) b = w;
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
    void setWeight(int arc, int source, double w) {
        if (pendingTranspose != null) transpose();   // derived from the weights before this change
        double old = weights[arc];
        if (nonIntegralArcs < 0) {
            int count = 0;
            for (double x : weights) if (!integral(x)) count++;
            nonIntegralArcs = count;
        }
        nonIntegralArcs += (integral(w) ? 0 : 1) - (integral(old) ? 0 : 1);
        if (!Double.isNaN(weightSum)) weightSum += w - old;
        if (w > weightBound) weightBound = w;   // false while unknown (NaN)
        weights[arc] = w;
        CsrGraph t = transposed;
        if (t != null && t != this) {
            int back = t.findArc(columns[arc], source);
            t.setWeight(back, columns[arc], w);
        }
        UndirectedEdges u = undirected;
        if (u != null) {
            if (!directed) {
                u.w[arcEdgeIds[arc]] = w;
            } else {   // the edge's weight is the smaller of its two arcs'
                int a = Math.min(source, columns[arc]), b = Math.max(source, columns[arc]);
                u.w[u.idOf(a, b)] = UndirectedEdges.weightOf(this, a, b);
            }
        }
    }

    /** Arcs whose weight is not an integer below 2^31, or -1 when not yet counted. */
    int nonIntegralArcsIfKnown() { return nonIntegralArcs; }

    /** The weight sum when known, else NaN. */
    double weightSumIfKnown() { return weightSum; }

    /** The cached undirected edge list, or null when none was built. */
    UndirectedEdges cachedUndirectedEdges() { return undirected; }

    /** Caches an undirected edge list a merge derived from the previous version's. */
    void cacheUndirectedEdges(UndirectedEdges list) { undirected = list; }

    /** Sets totals a builder already knows (a merge derives them from the previous version). */
    void knownTotals(int nonIntegral, double sum) {
        if (nonIntegral >= 0) nonIntegralArcs = nonIntegral;
        weightSum = sum;
    }

    public int degree(int v) { return rowOffsets[v + 1] - rowOffsets[v]; }

    /** The largest out-degree (0 for an edgeless graph). Cached. */
    public int maxDegree() {
        int m = maxDegree;
        if (m < 0) {
            m = 0;
            for (int v = 0; v < vertexCount; v++) m = Math.max(m, rowOffsets[v + 1] - rowOffsets[v]);
            maxDegree = m;
        }
        return m;
    }
    public int rowStart(int v) { return rowOffsets[v]; }
    public int rowEnd(int v) { return rowOffsets[v + 1]; }

    /** Shared, read-only views of the arrays (length n+1, arcCount, arcCount, arcCount). Do not modify. */
    public int[] rowOffsets() { return rowOffsets; }
    public int[] columns() { return columns; }
    public double[] weights() { return weights; }
    public int[] arcEdgeIds() { return arcEdgeIds; }

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

    /** The vertex whose row holds {@code arc} (binary search over the row offsets). */
    public int sourceOf(int arc) {
        int lo = 0, hi = vertexCount - 1;
        while (lo < hi) {   // the last row starting at or before arc; empty rows share its start
            int mid = (lo + hi + 1) >>> 1;
            if (rowOffsets[mid] <= arc) lo = mid; else hi = mid - 1;
        }
        while (rowOffsets[lo + 1] <= arc) lo++;
        return lo;
    }

    /** Index of arc u->v, or -1. */
    public int findArc(int u, int v) {
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
            t = p != null ? p.apply(this) : GraphBuilder.transpose(this);
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
        return other != null && rowOffsets == other.rowOffsets && columns == other.columns;
    }

    /** Bytes held by the arrays of this graph (not counting caches). */
    public long bytes() {
        return 4L * rowOffsets.length + 4L * columns.length + 8L * weights.length + 4L * arcEdgeIds.length;
    }

    @Override
    public String toString() {
        return "CsrGraph[n=" + vertexCount + ", edges=" + edgeCount + ", arcs=" + arcCount()
                + (directed ? ", directed" : ", undirected") + "]";
    }
}
