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

    /** The id of edge {a, b} ({@code a < b}), or -1 when there is none: a binary search over the (u, v) order. */
    public int idOf(int a, int b) {
        int lo = 0, hi = u.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = u[mid] != a ? Integer.compare(u[mid], a) : Integer.compare(v[mid], b);
            if (c < 0) lo = mid + 1; else if (c > 0) hi = mid - 1; else return mid;
        }
        return -1;
    }

    /**
     * The weight this list gives edge {a, b} ({@code a < b}) of {@code g}, read from g's arcs in O(log degree)
     * without building the list; NaN when g has no arc between a and b. On a directed graph it is the smaller of the
     * arcs' weights, a->b's when neither is smaller (the builder's merge keeps the first of equal weights, which
     * matters only for -0.0 against 0.0).
     */
    public static double weightOf(CsrGraph g, int a, int b) {
        long ab = g.findArcLong(a, b);
        double wab = ab < 0 ? Double.NaN : g.weightAt(ab);
        if (!g.directed()) return wab;
        long ba = g.findArcLong(b, a);
        if (ba < 0) return wab;
        double wba = g.weightAt(ba);
        return ab < 0 || wba < wab ? wba : wab;
    }

    /** This list after a merge of an undirected graph: kept runs moved, added edges written (O(m) copying). */
    UndirectedEdges moved(ChangeLog.EdgeMoves moves, int n, int m) {
        int[] nu = new int[m], nv = new int[m];
        double[] nw = new double[m];
        int[] runs = moves.runs();
        for (int i = 0; i < runs.length; i += 3) {
            System.arraycopy(u, runs[i], nu, runs[i + 1], runs[i + 2]);
            System.arraycopy(v, runs[i], nv, runs[i + 1], runs[i + 2]);
            System.arraycopy(w, runs[i], nw, runs[i + 1], runs[i + 2]);
        }
        int[] ids = moves.addedIds();
        for (int i = 0; i < ids.length; i++) {
            nu[ids[i]] = (int) (moves.addedKeys()[i] >>> 32);
            nv[ids[i]] = (int) moves.addedKeys()[i];
            nw[ids[i]] = moves.addedWeights()[i];
        }
        return new UndirectedEdges(n, nu, nv, nw);
    }

    static UndirectedEdges of(CsrGraph g) {
        if (g.wide()) return g.directed() ? GraphBuilder.build(WideArcs.arcList(g)).undirectedEdges() : WideArcs.undirected(g);
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
