package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.engine.Timing;

/**
 * Breadth-first search from {@code source}. {@code hops[v]} is the number of arcs on a shortest path, or
 * {@link #UNREACHED}; {@code parents[v]} is v's predecessor on such a path, {@code parents[source] == source},
 * and {@link #UNREACHED} for unreached vertices. Any parent that satisfies the verifier's rules is valid.
 */
public record BfsResult(int source, int[] hops, int[] parents, Timing timing) {
    public static final int UNREACHED = -1;
}
