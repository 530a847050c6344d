package org.frontiergraph.kernels.bfs;

import java.util.List;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.SummaryBuffer;

/**
 * BFS SUMMARY answers for a batch of sources on the GPU: each search runs on the graph's {@link GpuBfs} launcher
 * (the variant's options, e.g. {@code bps}, pass through) and {@code bfs_summary} (bfs.cu) reduces its hop array on
 * the device; the batch's summaries come back in one copy of 16 bytes a source. Call inside
 * {@link org.frontiergraph.kernels.gpu.CudaContext#call}.
 */
final class GpuBfsSummaries implements GpuLauncher<Sources, BfsSummaries> {
    static final GpuAlgorithm<Sources, BfsSummaries> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("default"), false, g -> 16L * SummaryBuffer.INITIAL, GpuBfsSummaries::new);

    private final DeviceGraph device;
    private final SummaryBuffer out;
    private final DeviceTimer timer;

    private GpuBfsSummaries(DeviceGraph device) {
        this.device = device;
        this.out = new SummaryBuffer(device);
        this.timer = new DeviceTimer(device.context());
    }

    @Override
    public BfsSummaries run(Sources query, Variant variant) {
        int[] sources = query.vertices();
        int k = sources.length;
        GpuBfs bfs = (GpuBfs) device.launcher(GpuBfs.IMPLEMENTATION);
        int n = device.graph().vertexCount();
        out.zeroed(k);
        Kernel reduce = device.context().module("bfs").kernel("bfs_summary");
        timer.start();
        for (int i = 0; i < k; i++) {
            bfs.solve(sources[i], variant);
            reduce.launch(SummaryBuffer.blocks(n), bfs.hops(), n, out.slot(i));
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        long[] pairs = out.read(k);
        long[] reached = new long[k];
        int[] max = new int[k];
        for (int i = 0; i < k; i++) {
            reached[i] = pairs[2 * i];
            max[i] = (int) pairs[2 * i + 1];
        }
        return new BfsSummaries(sources.clone(), reached, max, new Timing(compute, System.nanoTime() - t0));
    }

    @Override
    public void close() {
        timer.close();
        out.close();
    }
}
