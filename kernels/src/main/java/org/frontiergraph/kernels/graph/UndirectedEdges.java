package org.frontiergraph.kernels.graph;

/**
 * The undirected simple graph underneath a {@link CsrGraph}: each pair {u,v}, u < v, once, with the smallest weight
 * of the arcs between them. Edge i has id i; edges are in (u, v) order. MSTs are defined on this list, with ties
 * broken by (weight, id), which makes the minimum spanning forest unique.
 */
public final class UndirectedEdges {
    public final int vertexCount;
    public final int[] u;
    public final int[] v;
    public final double[] w;

    UndirectedEdges(int vertexCount, int[] u, int[] v, double[] w) {
        this.vertexCount = vertexCount;
        this.u = u;
        this.v = v;
        this.w = w;
    }

    public int size() { return u.length; }

    static UndirectedEdges of(CsrGraph g) {
        if (!g.directed()) {
            int m = g.edgeCount();
            int[] us = new int[m], vs = new int[m];
            double[] ws = new double[m];
            int[] off = g.rowOffsets(), col = g.columns(), ids = g.arcEdgeIds();
            double[] wt = g.weights();
            for (int a = 0; a < g.vertexCount(); a++) {
                for (int e = off[a]; e < off[a + 1]; e++) {
                    int b = col[e];
                    if (a < b) {
                        int id = ids[e];
                        us[id] = a; vs[id] = b; ws[id] = wt[e];
                    }
                }
            }
            return new UndirectedEdges(g.vertexCount(), us, vs, ws);
        }
        EdgeList list = new EdgeList(g.vertexCount(), false, g.arcCount());
        int[] off = g.rowOffsets(), col = g.columns();
        double[] wt = g.weights();
        for (int a = 0; a < g.vertexCount(); a++) {
            for (int e = off[a]; e < off[a + 1]; e++) list.add(a, col[e], wt[e]);
        }
        return GraphBuilder.build(list).undirectedEdges();
    }
}
