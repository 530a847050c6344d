package org.frontiergraph.kernels.sssp;

import java.util.List;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.SummaryBuffer;

/**
 * SSSP SUMMARY answers for a batch of sources on the GPU: each source runs on the launcher of the graph's default
 * SSSP variant ({@code async} on sparse graphs, {@code nearfar} on dense ones: {@link Sssp#SPEC}), distances only
 * (no parents pass), and {@code sssp_summary} (sssp.cu) reduces them on the device; the batch's summaries come
 * back in one copy of 16 bytes a source. Call inside {@link org.frontiergraph.kernels.gpu.CudaContext#call}.
 */
final class GpuSsspSummaries implements GpuLauncher<Sources, SsspSummaries> {
    static final GpuAlgorithm<Sources, SsspSummaries> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("default"), false, g -> 16L * SummaryBuffer.INITIAL, GpuSsspSummaries::new);

    private final DeviceGraph device;
    private final SummaryBuffer out;
    private final DeviceTimer timer;

    private GpuSsspSummaries(DeviceGraph device) {
        this.device = device;
        this.out = new SummaryBuffer(device);
        this.timer = new DeviceTimer(device.context());
    }

    @Override
    @SuppressWarnings("unchecked")
    public SsspSummaries run(Sources query, Variant variant) {
        int[] sources = query.vertices();
        int k = sources.length;
        int n = device.graph().vertexCount();
        AlgorithmSpec.Choice<Source, SsspResult> single = Sssp.SPEC.choose(GpuBackend.NAME, null, device.graph());
        DeviceSssp sssp = (DeviceSssp) device.launcher((GpuAlgorithm<Source, SsspResult>) single.implementation());
        boolean ints = sssp.integerKeys();
        long inf = SeedSssp.infKey(ints);
        out.zeroed(k);
        Kernel reduce = device.context().module("sssp").kernel("sssp_summary");
        timer.start();
        for (int i = 0; i < k; i++) {
            sssp.solveDistances(sources[i], single.variant());
            reduce.launch(SummaryBuffer.blocks(n), sssp.distanceKeys(), n, inf, out.slot(i));
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        sssp.completed();
        long t0 = System.nanoTime();
        long[] pairs = out.read(k);
        long[] reached = new long[k];
        double[] max = new double[k];
        for (int i = 0; i < k; i++) {
            reached[i] = pairs[2 * i];
            long key = pairs[2 * i + 1];
            max[i] = ints ? (double) key : Double.longBitsToDouble(key);
        }
        return new SsspSummaries(sources.clone(), reached, max, new Timing(compute, System.nanoTime() - t0));
    }

    @Override
    public void close() {
        timer.close();
        out.close();
    }
}
