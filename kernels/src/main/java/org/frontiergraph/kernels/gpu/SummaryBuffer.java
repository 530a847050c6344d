package org.frontiergraph.kernels.gpu;

import jcuda.driver.CUdeviceptr;

/**
 * Two u64 per source of a batch, on the device: where the summary kernels ({@code bfs_summary}, {@code
 * sssp_summary_listed}) accumulate a count and a maximum; zeroed before a batch, read back in one copy after it. Grows
 * (in the graph's ledger) when a batch is larger than it.
 */
public final class SummaryBuffer implements AutoCloseable {
    /** Sources the first buffer holds. */
    public static final int INITIAL = 64;

    private final DeviceGraph device;
    private DeviceBuffer buffer;
    private int capacity;

    public SummaryBuffer(DeviceGraph device) {
        this.device = device;
        this.capacity = INITIAL;
        this.buffer = device.allocate(16L * INITIAL)[0];
    }

    /** The buffer, with room for {@code sources} slots, all zero. */
    public DeviceBuffer zeroed(int sources) {
        if (sources > capacity) {
            DeviceBuffer bigger = device.allocate(16L * sources)[0];
            buffer.close();
            buffer = bigger;
            capacity = sources;
        }
        buffer.fill32(0, 4L * sources, 0);
        return buffer;
    }

    /** The device address of slot {@code i} (its two u64), a kernel argument. */
    public CUdeviceptr slot(int i) {
        return buffer.pointer().withByteOffset(16L * i);
    }

    /** The first {@code sources} slots: count and maximum of each, in order. */
    public long[] read(int sources) {
        long[] all = new long[2 * sources];
        buffer.download(all);
        return all;
    }

    /** Blocks for a summary kernel over {@code n} items: enough to fill the device, few enough that atomics stay rare. */
    public static long blocks(int n) {
        return Math.max(1, Math.min(Kernel.blocksFor(n), 1024));
    }

    @Override
    public void close() {
        buffer.close();
    }
}
