package org.frontiergraph.kernels.apsp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The shared APSP contract on the GPU backend (floyd-warshall, its blocked option, repeated-sssp); skipped without a GPU. */
@Tag("gpu")
class GpuApspContractTest extends ApspContract {
    private static ComputeBackend gpu;

    @BeforeAll
    static void open() {
        gpu = GpuOrSkip.open();
    }

    @AfterAll
    static void close() {
        if (gpu != null) gpu.close();
    }

    @Override
    protected ApspResult apsp(CsrGraph g, String variant, ApspLimits limits) {
        try (ResidentGraph r = gpu.load(g)) {
            return Apsp.run(r, variant, limits);
        }
    }

    @Override
    protected List<String> variants() {
        return List.of("floyd-warshall", "floyd-warshall,blocked=1", "repeated-sssp",
                "repeated-sssp,batch=7");
    }
}
