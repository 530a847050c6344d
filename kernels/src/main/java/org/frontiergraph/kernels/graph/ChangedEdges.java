package org.frontiergraph.kernels.graph;

/**
 * What a run of updates changed, for an incremental algorithm to repair its previous answer from: the vertex count
 * before the run (vertices from there on are new) and the edges any update of the run removed, re-weighted or added,
 * as endpoint pairs in 0-based ids. A pair may repeat; on an undirected graph a pair stands for both arcs, and on a
 * directed one for the arc {@code u -> v}. Weights are not carried: the graph after the run has them (an absent arc
 * was removed), and the previous answer tells what held before.
 */
public record ChangedEdges(int vertexCountBefore, int[] u, int[] v) {
    public ChangedEdges {
        if (u.length != v.length) throw new IllegalArgumentException("endpoint arrays differ in length");
    }

    public int size() { return u.length; }

    /** Nothing changed: no edge, no new vertex, on a graph of {@code vertexCount} vertices. */
    public boolean isEmpty(int vertexCount) { return u.length == 0 && vertexCount == vertexCountBefore; }
}
