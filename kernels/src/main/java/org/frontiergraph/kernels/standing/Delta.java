package org.frontiergraph.kernels.standing;

import java.util.List;

/**
 * What one repair changed in a standing answer: vertex ids, ascending and distinct (tree answers: their value or
 * parent changed; CC: their label changed, or they are new), or edge pairs ({@code u << 32 | v}, u < v) with weights
 * (MST: a weight when the edge joined the forest or changed weight, NaN when it left); and the kind's own content
 * ({@code content}: items only the kind and its form know, such as CC's {@code CcKind.ComponentChange}s; empty for
 * the tree and MST kinds), in order, which a consumer of several repairs concatenates repair after repair and the
 * form encodes into its push. Read only, once made: a subscriber's pending changes share it.
 */
public record Delta(int[] vertices, long[] edges, double[] weights, List<?> content) {
    public static final Delta NONE = new Delta(new int[0], new long[0], new double[0], List.of());

    public boolean isEmpty() { return vertices.length == 0 && edges.length == 0 && content.isEmpty(); }

    public static Delta ofVertices(int[] vertices) { return new Delta(vertices, NONE.edges, NONE.weights, List.of()); }

    public static Delta ofEdges(long[] edges, double[] weights) { return new Delta(NONE.vertices, edges, weights, List.of()); }

    /** Changed vertices with the kind's own content, in order (copied: read only). */
    public static Delta ofVertices(int[] vertices, List<?> content) {
        return new Delta(vertices, NONE.edges, NONE.weights, List.copyOf(content));
    }

    /** The pair of an edge's endpoints, the smaller first. */
    public static long pair(int u, int v) {
        return u < v ? ((long) u << 32) | (v & 0xffffffffL) : ((long) v << 32) | (u & 0xffffffffL);
    }

    public static int first(long pair) { return (int) (pair >>> 32); }

    public static int second(long pair) { return (int) pair; }
}
