package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.graph.CsrGraph;

/** CPU engine SSSP. (Placeholder delegating to the reference until the fast version lands.) */
public final class CpuSssp {
    private CpuSssp() {}

    public static SsspResult run(CsrGraph g, int source) {
        return DijkstraReference.run(g, source);
    }
}
