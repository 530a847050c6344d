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
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * GPU BFS launcher (kernels in src/main/cuda/bfs.cu): direction-optimizing, queue-based.
 * Variants: {@code persistent} (default: the whole search in one cooperative launch, one grid barrier per level)
 * and {@code hostloop} (one launch per level, the host reads the frontier size back each level). Option
 * {@code bps=N}: blocks per multiprocessor of the persistent grid. Call inside {@link CudaContext#call}.
 */
public final class GpuBfs implements AutoCloseable {
    public static final List<String> VARIANTS = List.of("persistent", "hostloop");
    // Beamer's switch thresholds, the same as bfs.cu
    private static final long ALPHA = 15, BETA = 18;

    private final CudaContext context;
    private CsrGraph graph;
    private final DeviceCsr csr;
    private final DeviceBuffer hops, parents, queueA, queueB, counters;
    private final DeviceTimer timer;
    private long lastLevels;

    public GpuBfs(CudaContext context, AtomicLong ledger, CsrGraph graph, DeviceCsr csr) {
        this.context = context;
        this.graph = graph;
        this.csr = csr;
        long n = graph.vertexCount();
        hops = DeviceBuffer.allocate(context, ledger, 4 * n);
        parents = DeviceBuffer.allocate(context, ledger, 4 * n);
        queueA = DeviceBuffer.allocate(context, ledger, 4 * n);
        queueB = DeviceBuffer.allocate(context, ledger, 4 * n);
        counters = DeviceBuffer.allocate(context, ledger, 8 * 16);
        timer = new DeviceTimer(context);
    }

    /** Default blocks per multiprocessor: few for sparse (often high-diameter) graphs, so a level's barrier is cheap. */
    static int defaultBlocksPerSm(CsrGraph g) {
        return g.arcCount() < 8L * g.vertexCount() ? 1 : 64;
    }

    public BfsResult run(int source, String variantText) {
        Variant variant = Variant.parse("BFS", variantText, "persistent", VARIANTS);
        int n = graph.vertexCount();
        KernelModule module = context.module("bfs");
        timer.start();
        if (variant.name().equals("hostloop")) {
            hostLoop(module, source);
        } else {
            Kernel k = module.kernel("bfs_persistent");
            k.launchCooperative(variant.intOption("bps", defaultBlocksPerSm(graph)), csr.rowOffsets, csr.columns, n,
                    csr.arcCount, hops, parents, queueA, queueB, counters, source, csr.directed ? 0 : 1,
                    csr.hasBigVertices ? 1 : 0);
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] h = new int[n], p = new int[n];
        hops.download(h);
        parents.download(p);
        if (!variant.name().equals("hostloop")) {
            long[] c = new long[16];
            counters.download(c);
            lastLevels = c[6];
        }
        return new BfsResult(source, h, p, new Timing(compute, System.nanoTime() - t0));
    }

    /** A new version with the same arcs (BFS ignores weights). */
    public void reweighted(CsrGraph next) {
        graph = next;
    }

    /** BFS levels the last run took (the number of frontiers expanded). */
    public long lastLevels() { return lastLevels; }

    private void hostLoop(KernelModule module, int source) {
        int n = graph.vertexCount();
        Kernel init = module.kernel("bfs_init");
        Kernel level = module.kernel("bfs_level");
        init.launch(Kernel.blocksFor(n), csr.rowOffsets, n, hops, parents, queueA, counters, source);
        DeviceBuffer cur = queueA, next = queueB;
        long count = 1, frontierArcs = graph.degree(source), explored = frontierArcs;
        boolean bottomUp = false;
        long[] c = new long[16];
        int l = 0;
        while (count > 0) {
            int s = l % 3;
            counters.fill32(2L * s, 2, 0);
            counters.fill32(2L * (3 + s), 2, 0);
            if (!csr.directed) {
                long unexplored = Math.max(0, csr.arcCount - explored);
                if (!bottomUp && frontierArcs * ALPHA > unexplored) bottomUp = true;
                else if (bottomUp && count * BETA < n) bottomUp = false;
            }
            long blocks = bottomUp ? Kernel.blocksFor(n) : Kernel.blocksFor(count * 32);
            level.launch(blocks, csr.rowOffsets, csr.columns, n, hops, parents, cur, (int) count, next, counters, l,
                    bottomUp ? 1 : 0, csr.hasBigVertices ? 1 : 0);
            counters.download(c);
            count = c[s];
            frontierArcs = c[3 + s];
            explored += frontierArcs;
            DeviceBuffer t = cur;
            cur = next;
            next = t;
            l++;
        }
        lastLevels = l;
    }

    @Override
    public void close() {
        timer.close();
        counters.close();
        queueB.close();
        queueA.close();
        parents.close();
        hops.close();
    }
}
