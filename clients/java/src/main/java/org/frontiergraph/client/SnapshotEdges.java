package org.frontiergraph.client;

/**
 * The edges of one snapshot version as {@link FrontierClient#publishSnapshot} sends them: the first {@code size}
 * entries of three parallel arrays, vertex ids from 0 (the client shifts them to the user's ids, from
 * {@code firstVertexId}); the weights are sent only when the snapshot is weighted. The arrays are read, not copied:
 * leave them unchanged until the snapshot is published.
 */
public record SnapshotEdges(int vertexCount, boolean directed, int size, int[] sources, int[] targets, double[] weights) {
    public SnapshotEdges {
        if (vertexCount < 0) throw new IllegalArgumentException("vertexCount must be >= 0, got " + vertexCount);
        if (size < 0 || sources.length < size || targets.length < size || weights.length < size) {
            throw new IllegalArgumentException("size " + size + " does not fit the arrays (" + sources.length + " sources, "
                    + targets.length + " targets, " + weights.length + " weights)");
        }
    }

    /** Every edge the arrays hold (size = their length, which must be the same). */
    public static SnapshotEdges of(int vertexCount, boolean directed, int[] sources, int[] targets, double[] weights) {
        if (targets.length != sources.length || weights.length != sources.length) {
            throw new IllegalArgumentException("sources, targets and weights differ in length (" + sources.length + ", "
                    + targets.length + ", " + weights.length + ")");
        }
        return new SnapshotEdges(vertexCount, directed, sources.length, sources, targets, weights);
    }
}
