package org.frontiergraph.kernels.graph;

/**
 * An immutable graph in compressed sparse row form, 0-based vertex ids, built by {@link GraphBuilder}.
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
    private final int edgeCount;
    private final boolean integralWeights;
    private volatile CsrGraph transposed;
    private volatile UndirectedEdges undirected;

    CsrGraph(int vertexCount, boolean directed, int[] rowOffsets, int[] columns, double[] weights,
             int[] arcEdgeIds, int edgeCount, boolean integralWeights) {
        this.vertexCount = vertexCount;
        this.directed = directed;
        this.rowOffsets = rowOffsets;
        this.columns = columns;
        this.weights = weights;
        this.arcEdgeIds = arcEdgeIds;
        this.edgeCount = edgeCount;
        this.integralWeights = integralWeights;
    }

    public int vertexCount() { return vertexCount; }
    /** Stored arcs: edgeCount for directed graphs, 2 * edgeCount for undirected ones. */
    public int arcCount() { return columns.length; }
    /** Distinct edges after the storage policy. */
    public int edgeCount() { return edgeCount; }
    public boolean directed() { return directed; }
    /** True when every weight is an integer below 2^31 (kernels may then use int32 weights exactly). */
    public boolean integralWeights() { return integralWeights; }

    public int degree(int v) { return rowOffsets[v + 1] - rowOffsets[v]; }
    public int rowStart(int v) { return rowOffsets[v]; }
    public int rowEnd(int v) { return rowOffsets[v + 1]; }

    /** Shared, read-only views of the arrays (length n+1, arcCount, arcCount, arcCount). Do not modify. */
    public int[] rowOffsets() { return rowOffsets; }
    public int[] columns() { return columns; }
    public double[] weights() { return weights; }
    public int[] arcEdgeIds() { return arcEdgeIds; }

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

    /** The reverse graph (incoming arcs as rows); the graph itself when undirected. Cached. */
    public CsrGraph transpose() {
        if (!directed) return this;
        CsrGraph t = transposed;
        if (t == null) {
            t = GraphBuilder.transpose(this);
            transposed = t;
        }
        return t;
    }

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
