package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;

class CpuSsspContractTest extends SsspContract {
    @Override
    protected ComputeBackend createBackend() {
        return new CpuBackend();
    }
}
