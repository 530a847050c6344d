package org.frontiergraph.kernels.graph;

/**
 * One update of a graph in 0-based ids: {@code addedVertices} new vertices (ids after the current last one), then
 * removals, re-weights and additions, applied in that order by {@link MutableGraph#apply}. Additions may name the
 * new vertices.
 */
public record EdgeEdits(int addedVertices,
                        int[] removeU, int[] removeV,
                        int[] reweightU, int[] reweightV, double[] reweightW,
                        int[] addU, int[] addV, double[] addW) {
    private static final int[] NONE = new int[0];
    private static final double[] NO_WEIGHTS = new double[0];

    public EdgeEdits {
        checkLengths("removed", removeU, removeV, null);
        checkLengths("reweighted", reweightU, reweightV, reweightW);
        checkLengths("added", addU, addV, addW);
        if (addedVertices < 0) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX,
                    "added vertex count " + addedVertices + " is negative");
        }
    }

    public static EdgeEdits reweight(int[] u, int[] v, double[] w) {
        return new EdgeEdits(0, NONE, NONE, u, v, w, NONE, NONE, NO_WEIGHTS);
    }

    public static EdgeEdits reweight(int u, int v, double w) {
        return reweight(new int[] {u}, new int[] {v}, new double[] {w});
    }

    public static EdgeEdits remove(int[] u, int[] v) {
        return new EdgeEdits(0, u, v, NONE, NONE, NO_WEIGHTS, NONE, NONE, NO_WEIGHTS);
    }

    public static EdgeEdits add(int[] u, int[] v, double[] w) {
        return new EdgeEdits(0, NONE, NONE, NONE, NONE, NO_WEIGHTS, u, v, w);
    }

    /** Edits that only change weights (the arcs stay). */
    public boolean reweightsOnly() {
        return addedVertices == 0 && removeU.length == 0 && addU.length == 0;
    }

    /** How many edge edits (removals, re-weights and additions) this update carries. */
    public int size() {
        return removeU.length + reweightU.length + addU.length;
    }

    static void checkLengths(String what, int[] u, int[] v, double[] w) {
        if (u.length != v.length || (w != null && w.length != u.length)) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                    what + " edges: sources, targets" + (w != null ? " and weights" : "") + " differ in length ("
                            + u.length + ", " + v.length + (w != null ? ", " + w.length : "") + ")");
        }
    }
}
