package org.frontiergraph.kernels.mst;

import java.util.List;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * MST SUMMARY answers on the GPU (issue 10: reduced on the device, 16 bytes copied back): the forest is found by the
 * launcher of {@link Mst#SPEC}'s default for the graph ({@link EclMst} or {@link GpuMst}; the variant's options pass
 * through), then {@code mst_summary} (mst.cu) counts the chosen edges and
 * sums their integer weights exactly in 64 bits. Where the weight keys are not the integer weights (fractional or
 * large weights: ranks), the whole answer is copied back and summarized on the host. Call inside
 * a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuMstSummary implements GpuLauncher<WholeGraph, MstSummary> {
    static final GpuAlgorithm<WholeGraph, MstSummary> IMPLEMENTATION = new GpuAlgorithm<>(List.of("default"), false,
            g -> 16L * SummaryBuffer.INITIAL, GpuMstSummary::new).reads(GpuAlgorithm.Layout.OWN).followingHost()
            .wideCapable();

    private final DeviceGraph device;
    private final SummaryBuffer out;
    private final DeviceTimer timer;

    private GpuMstSummary(DeviceGraph device) {
        this.device = device;
        this.out = new SummaryBuffer(device);
        this.timer = new DeviceTimer(device.context());
    }

    @Override
    @SuppressWarnings("unchecked")   // Mst.SPEC's GPU implementations are GpuAlgorithms of its own types
    public MstSummary run(WholeGraph query, Variant variant) {
        CsrGraph g = device.graph();
        // the launcher Mst.SPEC answers a default MST query with on this graph (its implementations are DeviceMst)
        GpuAlgorithm<WholeGraph, MstResult> whole =
                (GpuAlgorithm<WholeGraph, MstResult>) Mst.SPEC.choose(GpuBackend.NAME, null, g).implementation();
        GpuLauncher<WholeGraph, MstResult> launcher = device.launcher(whole);
        DeviceMst mst = (DeviceMst) launcher;
        if (!mst.integerKeys()) return MstSummary.of(launcher.run(query, variant));
        int m = mst.edgeCount();
        out.zeroed(1);
        timer.start();
        mst.solve(variant);
        if (m > 0) {
            device.context().module("mst").kernel("mst_summary").launch(SummaryBuffer.blocks(m), mst.edgeList(),
                    (long) m, mst.chosen(), out.slot(0));
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        long[] r = out.read(1);
        int edges = (int) r[0];
        return new MstSummary((double) r[1], edges, g.vertexCount() - edges, new Timing(compute, System.nanoTime() - t0));
    }

    @Override
    public void close() {
        timer.close();
        out.close();
    }
}
