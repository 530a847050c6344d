package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.GpuApsp;
import org.frontiergraph.kernels.contract.ApspContract;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The shared APSP contract on the GPU backend (floyd-warshall, its blocked option, repeated-sssp); skipped without a GPU. */
class GpuApspContractTest extends ApspContract {
    private static ComputeBackend gpu;

    @BeforeAll
    static void open() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(),
                () -> "no GPU backend here: " + GpuBackend.unavailableReason().orElse(""));
        gpu = GpuBackend.open();
    }

    @AfterAll
    static void close() {
        if (gpu != null) gpu.close();
    }

    @Override
    protected ApspResult apsp(CsrGraph g, String variant, ApspLimits limits) {
        try (ResidentGraph r = gpu.load(g)) {
            return r.apsp(variant, limits);
        }
    }

    @Override
    protected List<String> variants() {
        return List.of(GpuApsp.VARIANTS.get(0), "floyd-warshall,blocked=1", GpuApsp.VARIANTS.get(1),
                "repeated-sssp,batch=7");
    }
}
