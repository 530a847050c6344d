package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.graph.CsrGraph;

/** CPU engine MST. (Placeholder delegating to the reference until the fast version lands.) */
public final class CpuMst {
    private CpuMst() {}

    public static MstResult run(CsrGraph g) {
        return KruskalReference.run(g);
    }
}
