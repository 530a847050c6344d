package org.frontiergraph.kernels.apsp;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;

/**
 * All-pairs shortest paths with non-negative weights: {@code distances[s * n + v]} is the length of a shortest path
 * from s to v (row-major, n * n entries), {@link Double#POSITIVE_INFINITY} when v is unreachable from s, 0 on the
 * diagonal. With integral weights every entry is exact and every correct implementation gives the same doubles; with
 * fractional weights implementations add a path's weights in different orders (see {@link ApspVerifier}).
 */
public record ApspResult(int vertexCount, double[] distances, Timing timing) {
    public ApspResult {
        if (distances.length != (long) vertexCount * vertexCount) {
            throw new IllegalArgumentException("expected " + (long) vertexCount * vertexCount + " distances for "
                    + vertexCount + " vertices, got " + distances.length);
        }
    }

    /** The distance from {@code source} to {@code target}. */
    public double distance(int source, int target) {
        return distances[source * vertexCount + target];
    }

    /** A copy of the distances from {@code source}. */
    public double[] row(int source) {
        int from = source * vertexCount;
        return Arrays.copyOfRange(distances, from, from + vertexCount);
    }
}
