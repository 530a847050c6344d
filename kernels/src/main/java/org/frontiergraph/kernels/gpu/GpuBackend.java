package org.frontiergraph.kernels.gpu;

import java.util.Optional;
import org.frontiergraph.kernels.engine.ComputeBackend;

/** The GPU engine (JCuda driver API). Placeholder until the GPU engine lands: never available. */
public final class GpuBackend {
    private GpuBackend() {}

    /** Why no GPU backend can be opened here, or empty when one can. */
    public static Optional<String> unavailableReason() {
        return Optional.of("GPU engine not built into this version");
    }

    public static ComputeBackend open() {
        throw new IllegalStateException(unavailableReason().orElse("GPU unavailable"));
    }
}
