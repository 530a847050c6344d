package org.frontiergraph.kernels.bfs;

import java.util.List;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.Gather;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;

/**
 * BFS TARGETS answers on the GPU: the search runs on the graph's {@link GpuBfs} launcher (the variant's options
 * pass through) and only the hops and parents of the targets are gathered and copied back (8 bytes a target).
 * Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuBfsTargets implements GpuLauncher<Targets, BfsAtTargets> {
    static final GpuAlgorithm<Targets, BfsAtTargets> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("default"), false, g -> 0L, GpuBfsTargets::new).reads(GpuAlgorithm.Layout.ANY).wideCapable();

    private final DeviceGraph device;
    private final DeviceTimer timer;

    private GpuBfsTargets(DeviceGraph device) {
        this.device = device;
        this.timer = new DeviceTimer(device.context());
    }

    @Override
    public BfsAtTargets run(Targets query, Variant variant) {
        GpuBfs bfs = (GpuBfs) device.launcher(GpuBfs.IMPLEMENTATION);
        timer.start();
        bfs.solve(query.source(), variant);
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] targets = query.vertices();
        int[] hops = Gather.ints(device.context(), device.ledger(), bfs.hops(), targets);
        int[] parents = Gather.ints(device.context(), device.ledger(), bfs.parents(), targets);
        return new BfsAtTargets(query.source(), targets, hops, parents, new Timing(compute, System.nanoTime() - t0));
    }

    @Override
    public void close() {
        timer.close();
    }
}
