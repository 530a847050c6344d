package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * What a {@link GpuLauncher} is opened on: the context, the resident graph's ledger of device bytes (every buffer
 * the launcher allocates is counted there), the graph on the device and on the host.
 */
public record DeviceGraph(CudaContext context, AtomicLong ledger, DeviceCsr csr, CsrGraph graph) {
    /** Buffers of the given sizes in this graph's ledger, all or none. */
    public DeviceBuffer[] allocate(long... bytes) {
        return DeviceBuffer.allocateAll(context, ledger, bytes);
    }
}
