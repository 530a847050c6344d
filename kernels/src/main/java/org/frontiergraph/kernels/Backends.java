package org.frontiergraph.kernels;

import java.util.Optional;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.BackendMode;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuSettings;

/**
 * Opens the backends a process uses: the CPU engine always, the GPU engine when asked for or (AUTO) when present.
 * The GPU engine is told every registered algorithm ({@link Algorithms#ALL}) so that it can allocate the working
 * memory of those that are resident from the start.
 */
public final class Backends {
    private Backends() {}

    public static ComputeBackend cpu() {
        return new CpuBackend();
    }

    /**
     * The GPU backend for {@code mode}, tuned by {@code settings}: empty for CPU, and for AUTO where no GPU or kernels
     * are present.
     *
     * @throws IllegalStateException for GPU when no GPU backend can be opened (the message says why)
     */
    public static Optional<ComputeBackend> gpu(BackendMode mode, GpuSettings settings) {
        if (mode == BackendMode.CPU) return Optional.empty();
        Optional<String> why = GpuBackend.unavailableReason();
        if (why.isPresent()) {
            if (mode == BackendMode.GPU) throw new IllegalStateException("backend 'gpu' requested but " + why.get());
            return Optional.empty();
        }
        return Optional.of(gpu(settings));
    }

    /**
     * The GPU engine with the default settings ({@link GpuSettings#DEFAULTS}: benchmarks and tests).
     * @throws IllegalStateException when {@link GpuBackend#unavailableReason()} is present
     */
    public static GpuBackend gpu() {
        return gpu(GpuSettings.DEFAULTS);
    }

    /** The GPU engine tuned by {@code settings}. @throws IllegalStateException when no GPU backend can be opened */
    public static GpuBackend gpu(GpuSettings settings) {
        return GpuBackend.open(Algorithms.ALL, settings);
    }
}
