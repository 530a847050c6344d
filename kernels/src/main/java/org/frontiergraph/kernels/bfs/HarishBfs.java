package org.frontiergraph.kernels.bfs;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.KernelModule;
import org.frontiergraph.kernels.gpu.SeedLauncher;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Harish and Narayanan's BFS (paper 004, Algorithms 1-2; kernels in src/main/cuda/bfs_harish.cu): one thread per
 * vertex, frontier F_a, visited X_a, cost C_a, and a host loop that launches the kernel and reads a 4-byte "frontier
 * not empty" flag back each level. Parents are written by a thread that sets the cost. The next frontier goes to a
 * second array and X_a is set at discovery (see bfs_harish.cu: 004's single F_a races within a level).
 * Variant {@code harish}, no options. Call inside {@link CudaContext#call}.
 */
public final class HarishBfs implements SeedLauncher {
    public static final List<String> VARIANTS = List.of("harish");

    private final CudaContext context;
    private final DeviceCsr csr;
    private final int n;
    private final DeviceBuffer frontier, next, visited, cost, parents, flag;
    private final DeviceTimer timer;
    private long lastLevels;

    public HarishBfs(CudaContext context, AtomicLong ledger, CsrGraph graph, DeviceCsr csr) {
        this.context = context;
        this.csr = csr;
        this.n = graph.vertexCount();
        long b = 4L * n;
        DeviceBuffer[] made = DeviceBuffer.allocateAll(context, ledger, b, b, b, b, b, 4);
        frontier = made[0];
        next = made[1];
        visited = made[2];
        cost = made[3];
        parents = made[4];
        flag = made[5];
        timer = new DeviceTimer(context);
    }

    public BfsResult run(int source, Variant variant) {
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
        lastLevels = levels;
        return new BfsResult(source, hops, p, new Timing(compute, System.nanoTime() - t0));
    }

    /** Kernel launches (levels, the last finding the frontier empty) of the last run. */
    public long lastLevels() { return lastLevels; }

    @Override public void reweighted(CsrGraph next) {}

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
