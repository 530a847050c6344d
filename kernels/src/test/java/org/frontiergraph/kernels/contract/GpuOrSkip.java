package org.frontiergraph.kernels.contract;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuSettings;

/** Opens the GPU engine for a test, or skips the test (a JUnit assumption) where none can open here. */
public final class GpuOrSkip {
    private GpuOrSkip() {}

    public static GpuBackend open() {
        return open(GpuSettings.DEFAULTS);
    }

    /** The GPU engine tuned by {@code settings}, or a skip. */
    public static GpuBackend open(GpuSettings settings) {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(),
                () -> "no GPU backend here: " + GpuBackend.unavailableReason().orElse(""));
        return Backends.gpu(settings);
    }
}
