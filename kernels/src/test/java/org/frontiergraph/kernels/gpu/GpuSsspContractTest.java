package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.contract.SsspContract;
import org.frontiergraph.kernels.engine.ComputeBackend;

/** The shared SSSP contract on the GPU backend; skipped where no GPU backend can open. */
class GpuSsspContractTest extends SsspContract {
    @Override
    protected ComputeBackend createBackend() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(),
                () -> "no GPU backend here: " + GpuBackend.unavailableReason().orElse(""));
        return GpuBackend.open();
    }
}
