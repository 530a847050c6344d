package org.frontiergraph.kernels.cc;

import java.util.List;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.KernelModule;
import org.frontiergraph.kernels.gpu.SummaryBuffer;

/**
 * GPU CC launcher (kernels in src/main/cuda/cc.cu): ECL-CC over the resident CSR, five launches on the lane's
 * stream (init, the thread/warp/block-per-vertex hooking passes, flattening), no host round trip between them; the
 * labels come out canonical (each component's smallest vertex). The FULL answer then counts the components on the
 * device ({@code cc_sizes}, {@code cc_summary}: 16 bytes back) and copies the labels back; {@link GpuCcReads} reads
 * the same labels as a SUMMARY or at TARGETS. Variant {@code ecl}. Runs on compact copies only (the default; a slack
 * copy is made compact first). Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuCc implements GpuLauncher<WholeGraph, CcResult> {
    static final GpuAlgorithm<WholeGraph, CcResult> IMPLEMENTATION = new GpuAlgorithm<>(List.of("ecl"), false,
            g -> DeviceBuffer.total(sizes(g.vertexCount())) + 16L * SummaryBuffer.INITIAL, GpuCc::new).wideCapable();

    private final DeviceGraph device;
    private final int n;
    /** Labels (ECL-CC's nstat), the worklist (then the component sizes), the worklist's two counters. */
    private final DeviceBuffer labels, work, counters;
    private final SummaryBuffer summary;
    private final DeviceTimer timer;

    private GpuCc(DeviceGraph device) {
        this.device = device;
        this.n = device.csr().vertexCount;
        DeviceBuffer[] b = device.allocate(sizes(n));
        labels = b[0];
        work = b[1];
        counters = b[2];
        summary = new SummaryBuffer(device);
        timer = new DeviceTimer(device.context());
    }

    /** Device bytes: labels and worklist (4 bytes a vertex each), two counters (the summary slots beside). */
    private static long[] sizes(int n) {
        return new long[] {4L * Math.max(1, n), 4L * Math.max(1, n), 8};
    }

    @Override
    public CcResult run(WholeGraph query, Variant variant) {
        timer.start();
        solve();
        count();
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        long[] c = summary.read(1);
        int[] out = new int[n];
        if (n > 0) labels.download(out);
        return new CcResult(out, (int) c[0], (int) c[1], new Timing(compute, System.nanoTime() - t0));
    }

    /** Queues ECL-CC on the lane's stream: {@link #labels()} then holds the canonical labels. */
    void solve() {
        if (n == 0) return;
        DeviceCsr csr = device.csr();
        KernelModule cc = device.context().module("cc");
        int symmetric = csr.directed ? 0 : 1;
        long blocks = Kernel.blocksFor(n);
        cc.kernel(csr.offsetEntry("cc_init")).launch(blocks, csr.rowOffsets, csr.columns, n, labels, counters);
        cc.kernel(csr.offsetEntry("cc_compute1")).launch(blocks, csr.rowOffsets, csr.columns, n, symmetric, labels, work, counters);
        int sms = device.context().multiprocessors();
        cc.kernel(csr.offsetEntry("cc_compute2")).launch(sms * 8L, csr.rowOffsets, csr.columns, symmetric, labels, work, counters);
        cc.kernel(csr.offsetEntry("cc_compute3")).launch(sms * 4L, csr.rowOffsets, csr.columns, n, symmetric, labels, work, counters);
        cc.kernel("cc_flatten").launch(blocks, n, labels);
    }

    /** Queues the count after {@link #solve}: slot 0 of the summary buffer gets (components, largest size). */
    void count() {
        summary.zeroed(1);
        if (n == 0) return;
        KernelModule cc = device.context().module("cc");
        work.fill32(0, n, 0);
        cc.kernel("cc_sizes").launch(SummaryBuffer.blocks(n), labels, n, work);
        cc.kernel("cc_summary").launch(SummaryBuffer.blocks(n), labels, work, n, summary.slot(0));
    }

    /** The labels on the device, one int per vertex, after {@link #solve}. */
    DeviceBuffer labels() { return labels; }

    SummaryBuffer summary() { return summary; }

    DeviceTimer timer() { return timer; }

    @Override
    public void close() {
        timer.close();
        summary.close();
        counters.close();
        work.close();
        labels.close();
    }
}
