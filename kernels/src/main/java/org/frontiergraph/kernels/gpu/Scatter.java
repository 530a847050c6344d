package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes a few values at given positions of a device array (graph.cu): one upload of the positions and values and
 * one launch, however scattered they are. Used for batches of re-weights. Call inside a lane's call
 * ({@link GpuLane#call}).
 */
public final class Scatter {
    private Scatter() {}

    /** {@code dst[index[i]] = value[i]} on int32 elements. */
    public static void ints(CudaContext context, AtomicLong ledger, DeviceBuffer dst, int[] index, int[] value) {
        if (index.length == 0) return;
        try (DeviceBuffer i = DeviceBuffer.of(context, ledger, index); DeviceBuffer v = DeviceBuffer.of(context, ledger, value)) {
            context.module("graph").kernel("scatter_i32").launch(Kernel.blocksFor(index.length), dst, i, v, index.length);
            context.synchronize();
        }
    }

    /** {@code dst[index[i]] = value[i]} on float64 elements. */
    public static void doubles(CudaContext context, AtomicLong ledger, DeviceBuffer dst, int[] index, double[] value) {
        if (index.length == 0) return;
        try (DeviceBuffer i = DeviceBuffer.of(context, ledger, index); DeviceBuffer v = DeviceBuffer.of(context, ledger, value)) {
            context.module("graph").kernel("scatter_f64").launch(Kernel.blocksFor(index.length), dst, i, v, index.length);
            context.synchronize();
        }
    }
}
