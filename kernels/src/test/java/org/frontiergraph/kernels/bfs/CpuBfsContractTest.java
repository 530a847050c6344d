package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;

class CpuBfsContractTest extends BfsContract {
    @Override
    protected ComputeBackend createBackend() {
        return new CpuBackend();
    }
}
