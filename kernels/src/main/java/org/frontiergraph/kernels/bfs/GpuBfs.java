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
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * GPU BFS launcher (kernels in src/main/cuda/bfs.cu): direction-optimizing, queue-based.
 * Variants: {@code persistent} (default: the whole search in one cooperative launch, one grid barrier per level)
 * and {@code hostloop} (one launch per level, the host reads the frontier size back each level). Option
 * {@code bps=N}: blocks per multiprocessor of the persistent grid; {@code blocks=N}: N blocks in all instead (fewer
 * than the multiprocessors: a cheaper grid barrier per level); {@code check=0|1}: read a head's hop count before
 * claiming it (default 0: the read costs a dependent round trip a level and saved nothing measurable in atomics;
 * H200, 2026-11-26, kernel ms: NY 1.87 -> 1.70, kron22 0.81 -> 0.74, uniform22 0.53 -> 0.54); {@code small=A}: a
 * frontier of at most 256 vertices and A arcs is expanded by one block alone, level after level, while the grid
 * waits at one barrier (default {@value #DEFAULT_SMALL}; 0: never). Work is in proportion to what is reached: a
 * search clears only what the one before it reached (the frontiers it queued), so between searches the hops and
 * parents hold the last answer and -1 elsewhere; only the first search of a launcher clears all n. Reports counter
 * {@code levels}. Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuBfs implements GpuLauncher<Source, BfsResult> {
    static final GpuAlgorithm<Source, BfsResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("persistent", "hostloop"), true, g -> DeviceBuffer.total(sizes(g)), GpuBfs::new).reads(GpuAlgorithm.Layout.ANY)
            .wideCapable();
    // Beamer's switch thresholds, the same as bfs.cu
    private static final long ALPHA = 15, BETA = 18;

    private final CudaContext context;
    private CsrGraph graph;
    private final DeviceCsr csr;
    /** The most arcs of a frontier that one block expands alone, by default. */
    static final int DEFAULT_SMALL = 256;

    private final DeviceBuffer hops, parents, order, counters;
    private final DeviceTimer timer;
    /** Whether the buffers may hold anything but the last search's answer (a new launcher, a failed launch). */
    private boolean fresh = true;

    private GpuBfs(DeviceGraph g) {
        this.context = g.context();
        this.graph = g.graph();
        this.csr = g.csr();
        DeviceBuffer[] b = g.allocate(sizes(graph));
        hops = b[0];
        parents = b[1];
        order = b[2];
        counters = b[3];
        timer = new DeviceTimer(context);
    }

    /** Device bytes of hops, parents, the queue of every frontier in turn and the counters, in that order. */
    private static long[] sizes(CsrGraph g) {
        long n = g.vertexCount();
        return new long[] {4 * n, 4 * n, 4 * n, 8L * BfsCounters.COUNT};
    }

    /** Default blocks per multiprocessor: few for sparse (often high-diameter) graphs, so a level's barrier is cheap. */
    static int defaultBlocksPerSm(CsrGraph g) {
        return g.arcs() < 8L * g.vertexCount() ? 1 : 64;
    }

    @Override
    public BfsResult run(Source query, Variant variant) {
        int source = query.vertex();
        int n = graph.vertexCount();
        timer.start();
        long levels = solve(source, variant);
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] h = new int[n], p = new int[n];
        hops.download(h);
        parents.download(p);
        if (levels < 0) levels = levels();
        return new BfsResult(source, h, p, new Timing(compute, System.nanoTime() - t0, Map.of("levels", levels)));
    }

    /**
     * Runs the search from {@code source} and leaves its answer on the device ({@link #hops()}, parents); returns
     * the levels when the host counted them, else -1 ({@link #levels()} reads the device's count). Not timed.
     */
    long solve(int source, Variant variant) {
        int wasFresh = fresh ? 1 : 0;
        fresh = true;   // until the launches are issued
        long levels = variant.is("hostloop") ? hostLoop(context.module("bfs"), source, variant, wasFresh)
                : persistent(source, variant, wasFresh);
        fresh = false;
        return levels;
    }

    private long persistent(int source, Variant variant, int wasFresh) {
        Kernel k = context.module("bfs").kernel(csr.offsetEntry("bfs_persistent"));
        Object[] args = {csr.rowOffsets, csr.columns, graph.vertexCount(), csr.arcCount, hops, parents, order,
                counters, source, wasFresh, csr.directed ? 0 : 1, csr.hasBigVertices ? 1 : 0, check(variant),
                (long) variant.intOption("small", DEFAULT_SMALL)};
        int blocks = variant.intOption("blocks", 0);
        if (blocks > 0) k.launchCooperativeBlocks(blocks, args);
        else k.launchCooperative(variant.intOption("bps", defaultBlocksPerSm(graph)), args);
        return -1;
    }

    /** The variant's {@code check} option (default 0). */
    private static int check(Variant variant) {
        return variant.intOption("check", 0) != 0 ? 1 : 0;
    }

    /** The hop counts of the last {@link #solve}, on the device. */
    DeviceBuffer hops() {
        return hops;
    }

    /** The parents of the last {@link #solve}, on the device. */
    DeviceBuffer parents() {
        return parents;
    }

    /** The counters of the last {@link #solve} (levels and vertices reached: bfs.cu's bfs_summary reads them). */
    DeviceBuffer counters() {
        return counters;
    }

    /** The levels the last persistent {@link #solve} ran (a small copy from the device). */
    private long levels() {
        long[] c = new long[BfsCounters.COUNT];
        counters.download(c);
        return c[BfsCounters.LEVELS];
    }

    /** A new version with the same arcs (BFS ignores weights). */
    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        graph = next;
        return true;
    }

    /** Runs one launch per level; returns the levels (frontiers expanded). */
    private long hostLoop(KernelModule module, int source, Variant variant, int wasFresh) {
        int n = graph.vertexCount();
        Kernel init = module.kernel("bfs_init");
        Kernel level = module.kernel(csr.offsetEntry("bfs_level"));
        // a fresh start clears all n; otherwise the last search's vertices, a grid-stride loop on a bounded grid
        long initBlocks = wasFresh != 0 ? Kernel.blocksFor(n)
                : Math.min(Kernel.blocksFor(n), 4L * context.multiprocessors());
        init.launch(initBlocks, n, hops, parents, order, counters, source, wasFresh);
        long offset = 0, count = 1, frontierArcs = graph.degree(source), explored = frontierArcs;
        boolean bottomUp = false;
        long[] c = new long[BfsCounters.COUNT];
        int l = 0, check = check(variant);
        while (count > 0) {
            int s = l % 3;
            counters.fill32(2L * (BfsCounters.NEXT_COUNT + s), 2, 0);  // a u64 slot is two 32-bit words
            counters.fill32(2L * (BfsCounters.NEXT_ARCS + s), 2, 0);
            if (!csr.directed) {
                long unexplored = Math.max(0, csr.arcCount - explored);
                if (!bottomUp && frontierArcs * ALPHA > unexplored) bottomUp = true;
                else if (bottomUp && count * BETA < n) bottomUp = false;
            }
            long blocks = bottomUp ? Kernel.blocksFor(n) : Kernel.blocksFor(count * 32);
            level.launch(blocks, csr.rowOffsets, csr.columns, n, hops, parents, order, offset, (int) count, counters, l,
                    bottomUp ? 1 : 0, csr.hasBigVertices ? 1 : 0, check);
            counters.download(c);
            offset += count;
            count = c[BfsCounters.NEXT_COUNT + s];
            frontierArcs = c[BfsCounters.NEXT_ARCS + s];
            explored += frontierArcs;
            l++;
        }
        setCounter(BfsCounters.LEVELS, l);
        setCounter(BfsCounters.REACHED, offset);   // what the next search clears
        return l;
    }

    /** Writes a u64 counter slot (below 2^31) as its two 32-bit words. */
    private void setCounter(int slot, long value) {
        counters.fill32(2L * slot, 1, (int) value);
        counters.fill32(2L * slot + 1, 1, 0);
    }

    @Override
    public void close() {
        timer.close();
        counters.close();
        order.close();
        parents.close();
        hops.close();
    }
}
