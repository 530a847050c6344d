package org.frontiergraph.kernels.apsp;

import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;

class CpuApspContractTest extends ApspContract {
    @Override
    protected ApspResult apsp(CsrGraph g, String variant, ApspLimits limits) {
        return CpuApsp.run(g, variant, limits);
    }

    @Override
    protected List<String> variants() {
        return CpuApsp.VARIANTS;
    }
}
