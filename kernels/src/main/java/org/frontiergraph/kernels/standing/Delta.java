package org.frontiergraph.kernels.standing;

import java.util.List;

/**
 * What one repair changed in a standing answer: vertex ids, ascending and distinct (tree answers: their value or
 * parent changed; CC: their label changed, or they are new), or edge pairs ({@code u << 32 | v}, u < v) with weights
 * (MST: a weight when the edge joined the forest or changed weight, NaN when it left); for CC also the components that
 * merged or split ({@code components}, empty for the other kinds). Read only, once made: a subscriber's pending changes
 * share it.
 */
public record Delta(int[] vertices, long[] edges, double[] weights, List<ComponentChange> components) {
    public static final Delta NONE = new Delta(new int[0], new long[0], new double[0], List.of());

    /**
     * A component change of a CC answer, in engine ids. MERGED: the component labeled {@code label} now holds the
     * vertices of the previous components {@code parts} (their labels, ascending); SPLIT: the previous component
     * {@code label} now lies in the components {@code parts} (their labels now, ascending). A new vertex counts as a
     * previous component of its own. Do not modify {@code parts}.
     */
    public record ComponentChange(boolean merged, int label, int[] parts) {}

    public boolean isEmpty() { return vertices.length == 0 && edges.length == 0 && components.isEmpty(); }

    public static Delta ofVertices(int[] vertices) { return new Delta(vertices, NONE.edges, NONE.weights, NONE.components); }

    public static Delta ofEdges(long[] edges, double[] weights) { return new Delta(NONE.vertices, edges, weights, NONE.components); }

    /** The changed vertices of a CC answer and the merges and splits (merges first, each by label ascending). */
    public static Delta ofComponents(int[] vertices, List<ComponentChange> components) {
        return new Delta(vertices, NONE.edges, NONE.weights, List.copyOf(components));
    }

    /** The pair of an edge's endpoints, the smaller first. */
    public static long pair(int u, int v) {
        return u < v ? ((long) u << 32) | (v & 0xffffffffL) : ((long) v << 32) | (u & 0xffffffffL);
    }

    public static int first(long pair) { return (int) (pair >>> 32); }

    public static int second(long pair) { return (int) pair; }
}
