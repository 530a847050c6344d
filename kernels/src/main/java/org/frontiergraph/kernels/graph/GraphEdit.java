package org.frontiergraph.kernels.graph;

/**
 * Applies an update to a graph version, producing the next one (the old version is untouched, so queries in flight
 * keep a consistent graph). Order: removals, then re-weights, then additions. Removing or re-weighting an edge that
 * does not exist is an error; adding an edge that exists follows the snapshot policy (the smaller weight wins).
 * For an undirected graph, (u, v) and (v, u) name the same edge. When an update only re-weights, the new version
 * shares the old one's structure arrays ({@link CsrGraph#sameStructure}), so a GPU copy can be patched in place.
 * Error messages name vertices as the user does: 0-based ids plus {@code firstVertexId}.
 */
public final class GraphEdit {
    private GraphEdit() {}

    public static CsrGraph apply(CsrGraph g,
                                 int[] removeU, int[] removeV,
                                 int[] reweightU, int[] reweightV, double[] reweightW,
                                 int[] addU, int[] addV, double[] addW) {
        return apply(g, 0, removeU, removeV, reweightU, reweightV, reweightW, addU, addV, addW);
    }

    /** As above; messages name vertex v as {@code v + firstVertexId} (the user's id). */
    public static CsrGraph apply(CsrGraph g, int firstVertexId,
                                 int[] removeU, int[] removeV,
                                 int[] reweightU, int[] reweightV, double[] reweightW,
                                 int[] addU, int[] addV, double[] addW) {
        int n = g.vertexCount();
        UserIds names = new UserIds(firstVertexId, n);
        EdgeEdits.checkLengths("removed", removeU, removeV, null);
        EdgeEdits.checkLengths("reweighted", reweightU, reweightV, reweightW);
        EdgeEdits.checkLengths("added", addU, addV, addW);
        boolean[] removed = new boolean[g.edgeCount()];
        for (int i = 0; i < removeU.length; i++) removed[edgeId(g, names, "remove", removeU[i], removeV[i])] = true;
        for (int i = 0; i < addU.length; i++) {
            if (addU[i] < 0 || addU[i] >= n || addV[i] < 0 || addV[i] >= n) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX, "add of edge "
                        + names.edge(addU[i], addV[i]) + ": vertex outside " + names.range());
            }
        }

        double[] weights = g.weights().clone();
        int[] cols = g.columns(), ids = g.arcEdgeIds();
        for (int i = 0; i < reweightU.length; i++) {
            double w = reweightW[i];
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT,
                        "re-weight of " + names.edge(reweightU[i], reweightV[i]) + " to " + w
                                + ": weights must be finite and non-negative");
            }
            int id = edgeId(g, names, "re-weight", reweightU[i], reweightV[i]);
            if (removed[id]) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                        "edge " + names.edge(reweightU[i], reweightV[i]) + " is both removed and re-weighted");
            }
            weights[g.findArc(reweightU[i], reweightV[i])] = w;
            if (!g.directed()) weights[g.findArc(reweightV[i], reweightU[i])] = w;
        }
        if (removeU.length == 0 && addU.length == 0) {
            boolean integral = true;
            for (int e = 0; e < weights.length && integral; e++) integral = weights[e] == Math.rint(weights[e]) && weights[e] <= Integer.MAX_VALUE;
            return new CsrGraph(n, g.directed(), g.rowOffsets(), cols, weights, ids, g.edgeCount(), integral);
        }
        EdgeList list = new EdgeList(n, g.directed(), g.edgeCount() + addU.length);
        int[] off = g.rowOffsets();
        for (int u = 0; u < n; u++) {
            for (int e = off[u]; e < off[u + 1]; e++) {
                int v = cols[e];
                if ((g.directed() || u < v) && !removed[ids[e]]) list.add(u, v, weights[e]);
            }
        }
        for (int i = 0; i < addU.length; i++) list.add(addU[i], addV[i], addW[i]);
        return GraphBuilder.build(list);
    }

    private static int edgeId(CsrGraph g, UserIds names, String what, int u, int v) {
        int n = g.vertexCount();
        if (u < 0 || u >= n || v < 0 || v >= n) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX,
                    what + " of edge " + names.edge(u, v) + ": vertex outside " + names.range());
        }
        int arc = g.findArc(u, v);
        if (arc < 0) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                    what + " of edge " + names.edge(u, v) + ": no such edge in the current version");
        }
        return g.arcEdgeIds()[arc];
    }

    static int[] empty() { return new int[0]; }

    static double[] emptyWeights() { return new double[0]; }

    /** Convenience for tests: a re-weight-only edit. */
    public static CsrGraph reweight(CsrGraph g, int[] u, int[] v, double[] w) {
        return apply(g, empty(), empty(), u, v, w, empty(), empty(), emptyWeights());
    }

}
