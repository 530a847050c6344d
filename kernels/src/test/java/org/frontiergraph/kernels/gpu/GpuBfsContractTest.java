package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.contract.BfsContract;
import org.frontiergraph.kernels.engine.ComputeBackend;

/** The shared BFS contract on the GPU backend; skipped where no GPU backend can open. */
class GpuBfsContractTest extends BfsContract {
    @Override
    protected ComputeBackend createBackend() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(),
                () -> "no GPU backend here: " + GpuBackend.unavailableReason().orElse(""));
        return GpuBackend.open();
    }
}
