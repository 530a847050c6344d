package org.frontiergraph.kernels.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Implementation;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * The GPU engine (JCuda driver API): the one owner of a CUDA context on device 0 (or
 * {@link GpuSettings#device()}), graphs uploaded once and kept resident until closed, each on a lane of its own
 * ({@link GpuLane}: the device work of different graphs runs concurrently; {@link GpuSettings#lanes()} off puts
 * them all on one). Open it through {@code org.frontiergraph.kernels.Backends}, which passes the registered
 * algorithms.
 */
public final class GpuBackend implements ComputeBackend {
    public static final String NAME = "gpu";
    /** Device memory left free for the driver and kernels' launch state when deciding whether a graph fits. */
    static final long RESERVE_BYTES = 256L << 20;

    private final CudaContext context;
    /** Implementations whose launchers are opened with every graph. */
    private final List<GpuAlgorithm<?, ?>> atLoad = new ArrayList<>();

    private GpuBackend(CudaContext context, List<AlgorithmSpec<?, ?>> algorithms) {
        this.context = context;
        for (AlgorithmSpec<?, ?> a : algorithms) {
            for (Implementation<?, ?> impl : a.implementations()) {
                if (impl instanceof GpuAlgorithm<?, ?> g && g.atLoad()) atLoad.add(g);
            }
        }
    }

    /** Why no GPU backend can be opened here (no driver, no device, kernels not built), or empty when one can. */
    public static Optional<String> unavailableReason() {
        return Cuda.unavailableReason();
    }

    /**
     * Opens the GPU engine for {@code algorithms} (those whose GPU implementation is {@code atLoad} get their working
     * memory with every graph), tuned by {@code settings}. @throws IllegalStateException when
     * {@link #unavailableReason()} is present
     */
    public static GpuBackend open(List<AlgorithmSpec<?, ?>> algorithms, GpuSettings settings) {
        Optional<String> why = unavailableReason();
        if (why.isPresent()) throw new IllegalStateException(why.get());
        return new GpuBackend(CudaContext.open(settings), algorithms);
    }

    /** The switches it was opened with. */
    public GpuSettings settings() { return context.settings(); }

    @Override
    public String name() { return NAME; }

    /** The device, e.g. "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 81008 MiB)". */
    public String device() { return context.toString(); }

    /** Whether each resident graph runs on a lane of its own ({@link GpuSettings#lanes()}). */
    public boolean lanes() { return context.lanes(); }

    /** Device bytes held by every resident graph of this backend. */
    public long deviceBytesInUse() { return context.bytesInUse(); }

    /** The device's memory in all, in bytes. */
    public long deviceBytesTotal() { return context.totalBytes(); }

    /**
     * Device bytes free as the driver reports them (other processes' allocations count too), or empty while a graph's
     * memory check and allocation run: never waits. For metrics.
     */
    public OptionalLong deviceBytesFree() { return context.freeBytesIfIdle(); }

    CudaContext context() { return context; }

    /**
     * Uploads {@code graph} and opens the at-load launchers (BFS and SSSP work arrays); others open on first use.
     *
     * @throws GraphTooLargeException when the graph does not fit in the device memory that is free
     */
    @Override
    public ResidentGraph load(CsrGraph graph) {
        GpuLane lane = context.newLane();
        try {
            return lane.call(() -> context.allocating(() -> {
                long need = DeviceCsr.bytesFor(graph);
                for (GpuAlgorithm<?, ?> g : atLoad) if (g.runsOn(graph)) need += g.deviceBytes(graph);
                requireFree(need, "graph");
                return new GpuResidentGraph(this, lane, graph, atLoad);
            }));
        } catch (RuntimeException e) {
            lane.close();
            throw e;
        }
    }

    /**
     * @throws GraphTooLargeException when {@code need} bytes (plus the reserve) are not free. Inside a lane's call and
     * {@link CudaContext#allocating}, with the allocations it admits.
     */
    void requireFree(long need, String what) {
        if (!context.allocatingHere()) throw new IllegalStateException("a free-memory check outside CudaContext.allocating");
        long free = context.freeBytes();
        if (need + RESERVE_BYTES > free) {
            throw new GraphTooLargeException(what + " needs " + need + " bytes on " + context.deviceName()
                    + " but only " + free + " are free (" + RESERVE_BYTES + " kept in reserve)");
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
