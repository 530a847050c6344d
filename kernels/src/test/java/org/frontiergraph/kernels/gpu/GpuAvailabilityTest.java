package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.engine.BackendMode;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Backend selection with and without a GPU: each test runs only where its premise holds. */
@Tag("gpu")
class GpuAvailabilityTest {
    @Test
    void withoutGpuAutoFallsBackAndGpuModeSaysWhy() {
        Optional<String> why = GpuBackend.unavailableReason();
        assumeTrue(why.isPresent(), "a GPU is present");
        assertFalse(why.get().isBlank());
        assertTrue(Backends.gpu(BackendMode.AUTO, GpuSettings.DEFAULTS).isEmpty());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Backends.gpu(BackendMode.GPU, GpuSettings.DEFAULTS));
        assertTrue(e.getMessage().contains(why.get()), e.getMessage());
    }

    @Test
    void withGpuAutoOpensIt() {
        assumeTrue(GpuBackend.unavailableReason().isEmpty(), "no GPU here");
        Optional<ComputeBackend> b = Backends.gpu(BackendMode.AUTO, GpuSettings.DEFAULTS);
        assertTrue(b.isPresent());
        try (ComputeBackend gpu = b.get()) {
            assertEquals("gpu", gpu.name());
            System.out.println("GPU backend on " + ((GpuBackend) gpu).device());
        }
    }

    @Test
    void cpuModeNeverOpensGpu() {
        assertTrue(Backends.gpu(BackendMode.CPU, GpuSettings.DEFAULTS).isEmpty());
    }
}
