package org.frontiergraph.kernels.gpu;

import java.util.Optional;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * The GPU engine (JCuda driver API): one CUDA context on device 0 (or {@code -Dfrontier.gpu.device=N}), graphs
 * uploaded once and kept resident until closed. Open it through {@link org.frontiergraph.kernels.engine.Backends}.
 */
public final class GpuBackend implements ComputeBackend {
    public static final String NAME = "gpu";
    /** Device memory left free for the driver and kernels' launch state when deciding whether a graph fits. */
    static final long RESERVE_BYTES = 256L << 20;

    private final CudaContext context;

    private GpuBackend(CudaContext context) {
        this.context = context;
    }

    /** Why no GPU backend can be opened here (no driver, no device, kernels not built), or empty when one can. */
    public static Optional<String> unavailableReason() {
        return Cuda.unavailableReason();
    }

    /** Opens the GPU engine. @throws IllegalStateException when {@link #unavailableReason()} is present */
    public static ComputeBackend open() {
        Optional<String> why = unavailableReason();
        if (why.isPresent()) throw new IllegalStateException(why.get());
        return new GpuBackend(CudaContext.open(Integer.getInteger("frontier.gpu.device", 0)));
    }

    @Override
    public String name() { return NAME; }

    /** The device, e.g. "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 81008 MiB)". */
    public String device() { return context.toString(); }

    /** Device bytes held by every resident graph of this backend. */
    public long deviceBytesInUse() { return context.bytesInUse(); }

    public CudaContext context() { return context; }

    /**
     * Uploads {@code graph}: CSR and the BFS/SSSP work arrays at once, the MST edge list on the first MST query.
     *
     * @throws GraphTooLargeException when the graph does not fit in the device memory that is free
     */
    @Override
    public ResidentGraph load(CsrGraph graph) {
        return context.call(() -> {
            long need = GpuResidentGraph.bytesAtLoad(graph);
            long free = context.freeBytes();
            if (need + RESERVE_BYTES > free) {
                throw new GraphTooLargeException("graph needs " + need + " bytes on " + context.deviceName()
                        + " but only " + free + " are free (" + RESERVE_BYTES + " kept in reserve)");
            }
            return new GpuResidentGraph(this, graph);
        });
    }

    @Override
    public void close() {
        context.close();
    }
}
