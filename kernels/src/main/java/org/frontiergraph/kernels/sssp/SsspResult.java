package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.Timing;

/**
 * Single-source shortest paths from {@code source} with non-negative weights. {@code distances[v]} is exact
 * (the same double every correct implementation computes), {@link Double#POSITIVE_INFINITY} when unreachable;
 * {@code parents[v]} is v's predecessor on a shortest path, {@code parents[source] == source}, -1 when unreachable.
 */
public record SsspResult(int source, double[] distances, int[] parents, Timing timing) {
    public static final int NO_PARENT = -1;
}
