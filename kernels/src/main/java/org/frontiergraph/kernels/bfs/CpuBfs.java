package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.graph.CsrGraph;

/** CPU engine BFS. (Placeholder delegating to the reference until the parallel direction-optimizing version lands.) */
public final class CpuBfs {
    private CpuBfs() {}

    public static BfsResult run(CsrGraph g, int source) {
        return BfsReference.run(g, source);
    }
}
