package org.frontiergraph.kernels.cc;

import java.util.List;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.Gather;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;

/**
 * CC answers that copy back less than the labels, on the GPU: a SUMMARY (ECL-CC, then the components counted on the
 * device; 16 bytes back) and TARGETS (ECL-CC, then the labels gathered at the targets; 4 bytes a target back). Both
 * run the graph's {@link GpuCc} launcher (opened on first use, shared with FULL answers). Call inside a lane's call
 * ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuCcReads {
    static final GpuAlgorithm<WholeGraph, CcSummary> SUMMARY = new GpuAlgorithm<>(List.of("ecl"), false,
            g -> 0, Summary::new).wideCapable();
    static final GpuAlgorithm<CcAtTargets.Query, CcAtTargets> TARGETS = new GpuAlgorithm<>(List.of("ecl"), false,
            g -> 0, AtTargets::new).wideCapable();

    private GpuCcReads() {}

    private record Summary(DeviceGraph device) implements GpuLauncher<WholeGraph, CcSummary> {
        @Override
        public CcSummary run(WholeGraph query, Variant variant) {
            GpuCc cc = (GpuCc) device.launcher(GpuCc.IMPLEMENTATION);
            cc.timer().start();
            cc.solve();
            cc.count();
            cc.timer().stop();
            long compute = cc.timer().elapsedNanos();
            long t0 = System.nanoTime();
            long[] c = cc.summary().read(1);
            return new CcSummary((int) c[0], (int) c[1], new Timing(compute, System.nanoTime() - t0));
        }

        @Override
        public void close() {}
    }

    private record AtTargets(DeviceGraph device) implements GpuLauncher<CcAtTargets.Query, CcAtTargets> {
        @Override
        public CcAtTargets run(CcAtTargets.Query query, Variant variant) {
            GpuCc cc = (GpuCc) device.launcher(GpuCc.IMPLEMENTATION);
            cc.timer().start();
            cc.solve();
            cc.timer().stop();
            long compute = cc.timer().elapsedNanos();
            long t0 = System.nanoTime();
            int[] targets = query.vertices();
            int[] labels = Gather.ints(device.context(), device.ledger(), cc.labels(), targets);
            return new CcAtTargets(targets, labels, new Timing(compute, System.nanoTime() - t0));
        }

        @Override
        public void close() {}
    }
}
