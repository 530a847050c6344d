package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * What a {@link GpuLauncher} is opened on: the context, the resident graph's ledger of device bytes (every buffer
 * the launcher allocates is counted there), the graph on the device and on the host, and the graph's other
 * launchers (a batched launcher runs the single-source one it builds on; it asks for it on every run, since a new
 * version may have replaced it).
 */
public record DeviceGraph(CudaContext context, AtomicLong ledger, DeviceCsr csr, CsrGraph graph, Launchers launchers) {
    /** The launchers open on one resident graph. */
    @FunctionalInterface
    public interface Launchers {
        /** The launcher of {@code implementation} on this graph, opened now if it is not yet (memory checked). */
        <Q, R> GpuLauncher<Q, R> launcher(GpuAlgorithm<Q, R> implementation);
    }

    /** Buffers of the given sizes in this graph's ledger, all or none. */
    public DeviceBuffer[] allocate(long... bytes) {
        return DeviceBuffer.allocateAll(context, ledger, bytes);
    }

    /**
     * {@code data} uploaded into {@code buffer}, or into a larger buffer in this graph's ledger that replaces it
     * (closed here) when it does not fit; returns the buffer holding the data. For lists whose length varies per run
     * (a batch's sources).
     */
    public DeviceBuffer uploadGrowing(DeviceBuffer buffer, int[] data) {
        if (4L * data.length > buffer.bytes()) {
            DeviceBuffer bigger = allocate(4L * data.length)[0];
            buffer.close();
            buffer = bigger;
        }
        buffer.upload(data);
        return buffer;
    }

    /** The launcher of {@code implementation} on this graph (see {@link Launchers#launcher}). */
    public <Q, R> GpuLauncher<Q, R> launcher(GpuAlgorithm<Q, R> implementation) {
        return launchers.launcher(implementation);
    }
}
