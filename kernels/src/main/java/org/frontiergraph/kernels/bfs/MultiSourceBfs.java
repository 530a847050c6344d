package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Bit-parallel multi-source BFS on the GPU (kernel {@code msbfs_pass}, src/main/cuda/bfs_multi.cu): the SUMMARY of
 * up to {@link #PASS} searches per pass, each pass one cooperative launch that traverses the graph once for all of
 * them (a u64 mask per vertex, one grid barrier per level, top-down and, on undirected graphs, bottom-up levels).
 * Owns its device buffers, in the graph's ledger: per vertex the seen mask, three level masks and three frontier
 * queues (44 bytes), a list of the big vertices, the counters and the sources. Used by {@link GpuBfsSummaries}; call
 * inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class MultiSourceBfs implements AutoCloseable {
    /** Sources one pass searches (bits of a mask). */
    static final int PASS = 64;
    /** Slot of the levels run, summed over the passes (MSBFS_LEVELS in bfs_multi.cu's enum MsBfsCounter). */
    static final int LEVELS = 19;
    /** Slots of the counter array (MSBFS_COUNTERS). */
    static final int COUNTERS = 24;

    private final DeviceGraph device;
    private final DeviceCsr csr;
    private final int bigCapacity;
    private final DeviceBuffer seen, visit, queues, big, counters;
    private DeviceBuffer sources;

    MultiSourceBfs(DeviceGraph device) {
        this.device = device;
        this.csr = device.csr();
        CsrGraph g = device.graph();
        this.bigCapacity = Math.max(1, csr.rowsOfAtLeast(DeviceCsr.BLOCK_EXPAND_DEGREE));   // rows as on the device
        DeviceBuffer[] b = device.allocate(sizes(g.vertexCount(), bigCapacity));
        seen = b[0];
        visit = b[1];
        queues = b[2];
        big = b[3];
        counters = b[4];
        sources = b[5];
    }

    /** Device bytes of seen, the level masks, the queues, the big-vertex lists, the counters and the sources. */
    private static long[] sizes(CsrGraph g) {
        return sizes(g.vertexCount(), bigCapacity(g));
    }

    private static long[] sizes(long n, int bigCapacity) {
        return new long[] {8 * n, 3 * 8 * n, 3 * 4 * n, 3 * 4L * bigCapacity, 8L * COUNTERS, 4L * PASS};
    }

    /** Device bytes this launcher allocates on {@code g} (for a batch of up to {@link #PASS} distinct sources). */
    static long deviceBytes(CsrGraph g) {
        return DeviceBuffer.total(sizes(g));
    }

    /** Vertices of at least BLOCK_EXPAND_DEGREE arcs (the kernel lists them per level), at least 1. */
    private static int bigCapacity(CsrGraph g) {
        int count = 0;
        for (int v = 0; v < g.vertexCount(); v++) {
            if (g.degree(v) >= DeviceCsr.BLOCK_EXPAND_DEGREE) count++;
        }
        return Math.max(1, count);
    }

    /** Default blocks per multiprocessor: a few on sparse (often high-diameter) graphs, as many as fit on dense ones. */
    static int defaultBlocksPerSm(CsrGraph g) {
        return g.arcCount() < 8L * g.vertexCount() ? 2 : 64;
    }

    /**
     * Uploads {@code distinct} (distinct vertices, each with out-arcs) and zeroes the level count: the synchronous
     * copy a batch needs before {@link #launch}, kept out of its device time.
     */
    void prepare(int[] distinct) {
        sources = device.uploadGrowing(sources, distinct);
        counters.fill32(0, 2L * COUNTERS, 0);
    }

    /**
     * Searches from the {@code count} sources of the last {@link #prepare}, {@link #PASS} a pass: slot i of
     * {@code out} (zeroed by the caller) receives source i's reached count and largest hop count. Queued on the
     * graph's lane's stream; returns the passes launched.
     */
    int launch(int count, SummaryBuffer out, int blocksPerSm) {
        Kernel pass = device.context().module("bfs_multi").kernel("msbfs_pass");
        int n = csr.vertexCount;
        int passes = 0;
        for (int first = 0; first < count; first += PASS, passes++) {
            int k = Math.min(PASS, count - first);
            pass.launchCooperative(blocksPerSm, csr.rowOffsets, csr.columns, n, csr.arcCount, seen, visit, queues,
                    big, bigCapacity, counters, sources.pointer().withByteOffset(4L * first), k, out.slot(first),
                    csr.directed ? 0 : 1, csr.hasBigVertices ? 1 : 0);
        }
        return passes;
    }

    /** The levels the passes since the last {@link #prepare} ran, together (a small copy from the device). */
    long levels() {
        long[] c = new long[COUNTERS];
        counters.download(c);
        return c[LEVELS];
    }

    @Override
    public void close() {
        sources.close();
        counters.close();
        big.close();
        queues.close();
        visit.close();
        seen.close();
    }
}
