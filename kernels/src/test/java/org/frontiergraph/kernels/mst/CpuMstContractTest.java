package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;

class CpuMstContractTest extends MstContract {
    @Override
    protected ComputeBackend createBackend() {
        return new CpuBackend();
    }
}
