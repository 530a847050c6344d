package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.contract.MstContract;
import org.frontiergraph.kernels.engine.ComputeBackend;

/** The shared MST contract on the GPU backend; skipped where no GPU backend can open. */
class GpuMstContractTest extends MstContract {
    @Override
    protected ComputeBackend createBackend() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(),
                () -> "no GPU backend here: " + GpuBackend.unavailableReason().orElse(""));
        return GpuBackend.open();
    }
}
