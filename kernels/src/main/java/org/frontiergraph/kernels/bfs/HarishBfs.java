package org.frontiergraph.kernels.bfs;

import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.KernelModule;

/**
 * Harish and Narayanan's BFS (paper 004, Algorithms 1-2; kernels in src/main/cuda/bfs_harish.cu): one thread per
 * vertex, frontier F_a, visited X_a, cost C_a, and a host loop that launches the kernel and reads a 4-byte "frontier
 * not empty" flag back each level. Parents are written by a thread that sets the cost. The next frontier goes to a
 * second array and X_a is set at discovery (see bfs_harish.cu: 004's single F_a races within a level).
 * Variant {@code harish}, no options. Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class HarishBfs implements GpuLauncher<Source, BfsResult> {
    static final GpuAlgorithm<Source, BfsResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("harish"), false, g -> DeviceBuffer.total(sizes(g.vertexCount())), HarishBfs::new).reads(GpuAlgorithm.Layout.ANY);

    private final CudaContext context;
    private final DeviceCsr csr;
    private final int n;
    private final DeviceBuffer frontier, next, visited, cost, parents, flag;
    private final DeviceTimer timer;

    private HarishBfs(DeviceGraph g) {
        this.context = g.context();
        this.csr = g.csr();
        this.n = g.graph().vertexCount();
        DeviceBuffer[] made = g.allocate(sizes(n));
        frontier = made[0];
        next = made[1];
        visited = made[2];
        cost = made[3];
        parents = made[4];
        flag = made[5];
        timer = new DeviceTimer(context);
    }

    /** Device bytes of F_a, the next frontier, X_a, C_a, the parents and the flag, in that order. */
    private static long[] sizes(int n) {
        long b = 4L * n;
        return new long[] {b, b, b, b, b, 4};
    }

    @Override
    public BfsResult run(Source query, Variant variant) {
        int source = query.vertex();
        if (source < 0 || source >= n) throw new IllegalArgumentException("source " + source + " not in [0, " + n + ")");
        KernelModule module = context.module("bfs_harish");
        Kernel kernel = module.kernel("harish_bfs_kernel");
        long blocks = Kernel.blocksFor(n);
        int[] f = new int[1];
        timer.start();
        module.kernel("harish_bfs_init").launch(blocks, n, frontier, next, visited, cost, parents, source);
        DeviceBuffer cur = frontier, nxt = next;
        long levels = 0;
        while (true) {  // Algorithm 1: while F_a not empty
            flag.fill32(0, 1, 0);
            kernel.launch(blocks, csr.rowOffsets, csr.columns, n, cur, nxt, visited, cost, parents, flag);
            levels++;
            flag.download(f);
            if (f[0] == 0) break;
            DeviceBuffer t = cur;
            cur = nxt;
            nxt = t;
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] hops = new int[n], p = new int[n];
        cost.download(hops);
        parents.download(p);
        // levels: kernel launches, the last finding the frontier empty
        return new BfsResult(source, hops, p, new Timing(compute, System.nanoTime() - t0, Map.of("levels", levels)));
    }

    @Override
    public void close() {
        timer.close();
        flag.close();
        parents.close();
        cost.close();
        visited.close();
        next.close();
        frontier.close();
    }
}
