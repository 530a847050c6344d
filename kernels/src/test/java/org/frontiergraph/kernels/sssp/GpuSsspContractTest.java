package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.junit.jupiter.api.Tag;

/** The shared SSSP contract on the GPU backend; skipped where no GPU backend can open. */
@Tag("gpu")
class GpuSsspContractTest extends SsspContract {
    @Override
    protected ComputeBackend createBackend() {
        return GpuOrSkip.open();
    }
}
