package org.frontiergraph.kernels.contract;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.gpu.GpuBackend;

/** Opens the GPU engine for a test, or skips the test (a JUnit assumption) where none can open here. */
public final class GpuOrSkip {
    private GpuOrSkip() {}

    public static GpuBackend open() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(),
                () -> "no GPU backend here: " + GpuBackend.unavailableReason().orElse(""));
        return Backends.gpu();
    }
}
