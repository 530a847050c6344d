package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a device array at a few positions (graph.cu's {@code gather_u32}/{@code gather_u64}): the positions go up,
 * one launch gathers, and only the gathered values come back, however large the array. Used for TARGETS answers.
 * Call inside a lane's call ({@link GpuLane#call}).
 */
public final class Gather {
    private Gather() {}

    /** {@code src[index[i]]} for each i, 32-bit elements. */
    public static int[] ints(CudaContext context, AtomicLong ledger, DeviceBuffer src, int[] index) {
        int[] out = new int[index.length];
        if (index.length == 0) return out;
        try (DeviceBuffer i = DeviceBuffer.of(context, ledger, index);
             DeviceBuffer d = DeviceBuffer.allocate(context, ledger, 4L * index.length)) {
            context.module("graph").kernel("gather_u32").launch(Kernel.blocksFor(index.length), src, i, index.length, d);
            d.download(out);
        }
        return out;
    }

    /** {@code src[index[i]]} for each i, 64-bit elements. */
    public static long[] longs(CudaContext context, AtomicLong ledger, DeviceBuffer src, int[] index) {
        long[] out = new long[index.length];
        if (index.length == 0) return out;
        try (DeviceBuffer i = DeviceBuffer.of(context, ledger, index);
             DeviceBuffer d = DeviceBuffer.allocate(context, ledger, 8L * index.length)) {
            context.module("graph").kernel("gather_u64").launch(Kernel.blocksFor(index.length), src, i, index.length, d);
            d.download(out);
        }
        return out;
    }
}
