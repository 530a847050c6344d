package org.frontiergraph.kernels.sssp;

import java.util.List;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.Gather;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.engine.Variant;

/**
 * SSSP TARGETS answers on the GPU: the graph's default SSSP variant ({@link Sssp#SPEC}) runs on its launcher, its
 * parents pass too, and only the distances and parents of the targets are gathered and copied back (12 bytes a
 * target). On a graph with zero-weight arcs (parents built on the host) the full answer is read instead.
 * Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuSsspTargets implements GpuLauncher<Targets, SsspAtTargets> {
    static final GpuAlgorithm<Targets, SsspAtTargets> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("default"), false, g -> 0L, GpuSsspTargets::new).reads(GpuAlgorithm.Layout.ANY).wideCapable();

    private final DeviceGraph device;
    private final DeviceTimer timer;

    private GpuSsspTargets(DeviceGraph device) {
        this.device = device;
        this.timer = new DeviceTimer(device.context());
    }

    @Override
    @SuppressWarnings("unchecked")
    public SsspAtTargets run(Targets query, Variant variant) {
        AlgorithmSpec.Choice<Source, SsspResult> single = Sssp.SPEC.choose(GpuBackend.NAME, null, device.graph());
        GpuLauncher<Source, SsspResult> launcher =
                device.launcher((GpuAlgorithm<Source, SsspResult>) single.implementation());
        DeviceSssp sssp = (DeviceSssp) launcher;
        int source = query.source();
        int[] targets = query.vertices();
        if (sssp.zeroWeights()) return SsspAtTargets.of(launcher.run(new Source(source), single.variant()), targets);
        timer.start();
        sssp.solveDistances(source, single.variant());
        DeviceBuffer parentsOnDevice = sssp.solveParents(source);
        timer.stop();
        long compute = timer.elapsedNanos();
        sssp.completed();
        long t0 = System.nanoTime();
        long[] keys = Gather.longs(device.context(), device.ledger(), sssp.distanceKeys(), targets);
        int[] parents = Gather.ints(device.context(), device.ledger(), parentsOnDevice, targets);
        double[] distances = SeedSssp.distances(keys, sssp.integerKeys());
        for (int i = 0; i < targets.length; i++) if (targets[i] == source) parents[i] = source;
        return new SsspAtTargets(source, targets, distances, parents, new Timing(compute, System.nanoTime() - t0));
    }

    @Override
    public void close() {
        timer.close();
    }
}
