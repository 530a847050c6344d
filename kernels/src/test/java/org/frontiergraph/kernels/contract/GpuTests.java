package org.frontiergraph.kernels.contract;

import org.frontiergraph.kernels.gpu.GpuBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the GPU test classes that share one engine: {@link #gpu} is opened before the class's tests (the class is
 * skipped where no GPU engine opens here, see {@link GpuOrSkip}) and closed after them.
 */
public abstract class GpuTests {
    protected static GpuBackend gpu;

    @BeforeAll
    protected static void openGpu() {
        gpu = GpuOrSkip.open();
    }

    @AfterAll
    protected static void closeGpu() {
        if (gpu != null) gpu.close();
        gpu = null;
    }
}
