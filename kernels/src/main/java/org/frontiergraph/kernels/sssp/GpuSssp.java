package org.frontiergraph.kernels.sssp;

import java.util.List;
import java.util.Map;
import jcuda.driver.CUdeviceptr;
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
 * GPU SSSP launcher (kernels in src/main/cuda/sssp.cu): near-far delta-stepping in one cooperative launch, then a
 * pass that picks each vertex's parent among its tight arcs. Distances are exact (see sssp.cu). Variant
 * {@code nearfar} with options {@code delta=D} (absolute bucket width), {@code df=F} (delta = F * mean weight / mean
 * degree; default 512 on sparse graphs (mean degree < 8, road-like: fewer, fuller iterations pay), 8 on dense ones;
 * measured on an H200, see docs/benchmarks.md), {@code bps=N} (blocks per multiprocessor) or {@code blocks=N} (N in all). Reports counters
 * {@code iterations} and {@code filters}. Work is in proportion to what is reached: a search lists the vertices it
 * reaches and the next one resets only those (all n on the first search, or after a launch that failed), and the
 * parents pass and the SUMMARY read that list ({@link DeviceSssp}); from a source of at most {@code small=A} arcs
 * (default {@value #DEFAULT_SMALL}; 0: never) block 0 alone relaxes in rounds while they stay within 256 vertices and
 * A arcs, so a search that reaches few vertices over many steps pays no grid barrier a step (sssp.cu's header).
 * Call inside a lane's call
 * ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuSssp implements GpuLauncher<Source, SsspResult>, DeviceSssp {
    static final GpuAlgorithm<Source, SsspResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("nearfar"), true, g -> DeviceBuffer.total(sizes(g.vertexCount(), bigCapacity(g), g.wide())),
            GpuSssp::new).reads(GpuAlgorithm.Layout.ANY).wideCapable();
    // dense: 8 until 2026-11-26; 4 measured 4% faster on uniform22 (10.65 -> 10.20 ms) and kron22 (16.8 -> 16.2), H200
    static final double SPARSE_DELTA_FACTOR = 512, DENSE_DELTA_FACTOR = 4;
    /** The most arcs of a round that block 0 relaxes alone, by default (GpuBfs's small frontiers: the same). */
    static final int DEFAULT_SMALL = 256;

    private final CudaContext context;
    private CsrGraph graph;
    private final DeviceCsr csr;
    private final DeviceBuffer dist, parents, queueA, queueB, far, nearMark, farMark, counters, bigList, reached;
    private final int bigCapacity;
    private final DeviceTimer timer;
    /** Whether the arrays may hold anything but the last search's answer (a new launcher, a launch that failed). */
    private boolean fresh = true;

    private GpuSssp(DeviceGraph g) {
        this.context = g.context();
        this.graph = g.graph();
        this.csr = g.csr();
        bigCapacity = capacity(csr.rowsOfAtLeast(DeviceCsr.BLOCK_EXPAND_DEGREE), csr.wide);   // rows as on the device
        DeviceBuffer[] b = g.allocate(sizes(graph.vertexCount(), bigCapacity, csr.wide));
        dist = b[0];
        parents = b[1];
        queueA = b[2];
        queueB = b[3];
        far = b[4];
        nearMark = b[5];
        farMark = b[6];
        counters = b[7];
        bigList = b[8];
        reached = b[9];
        timer = new DeviceTimer(context);
    }

    /** Device bytes of dist, parents, the two near queues, the three far piles, the two marks, the counters,
     *  the big-vertex list (a vertex and an arc offset each: 8-byte offsets when {@code wide}) and the list of reached
     *  vertices, in that order. */
    private static long[] sizes(long n, int bigCapacity, boolean wide) {
        return new long[] {8 * n, 4 * n, 4 * n, 4 * n, 3 * 4 * n, 4 * n, 4 * n, 8L * SsspCounters.COUNT,
                (4L + (wide ? 8 : 4)) * bigCapacity, 4 * n};
    }

    private static int bigCapacity(CsrGraph g) {
        return capacity(bigVertexCount(g), g.wide());
    }

    /** At least 1; even when {@code wide} (the 8-byte offsets after the int vertices then start 8-byte aligned). */
    private static int capacity(int big, boolean wide) {
        return wide ? Math.max(2, big + (big & 1)) : Math.max(1, big);
    }

    /** Vertices with at least BLOCK_EXPAND_DEGREE arcs: the most an iteration lists for edge-balanced expansion. */
    static int bigVertexCount(CsrGraph g) {
        int count = 0;
        for (int v = 0; v < g.vertexCount(); v++) if (g.degree(v) >= DeviceCsr.BLOCK_EXPAND_DEGREE) count++;
        return count;
    }

    /** A new version with the same arcs and new weights (already on the device, with their mean, in {@link DeviceCsr}). */
    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        graph = next;
        return true;
    }

    @Override
    public SsspResult run(Source query, Variant variant) {
        int source = query.vertex();
        int n = graph.vertexCount();
        boolean ints = csr.intWeights();
        timer.start();
        solveDistances(source, variant);
        if (!csr.zeroWeights()) solveParents(source);
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        double[] d = SeedSssp.distances(dist, n, ints);
        int[] p = new int[n];
        if (csr.zeroWeights()) SeedSssp.tightTree(graph, d, source, p);
        else parents.download(p);
        p[source] = source;
        long[] c = new long[SsspCounters.COUNT];
        counters.download(c);
        // iterations: near-queue expansions and far-pile splits; filters: far-pile splits
        return new SsspResult(source, d, p, new Timing(compute, System.nanoTime() - t0,
                Map.of("iterations", c[SsspCounters.ITERATIONS], "filters", c[SsspCounters.FILTERS])));
    }

    @Override
    public void solveDistances(int source, Variant variant) {
        int n = graph.vertexCount();
        double meanDegree = SeedSssp.meanDegree(graph);
        boolean sparse = SeedSssp.sparse(graph);
        double delta = variant.doubleOption("delta", variant.doubleOption("df",
                sparse ? SPARSE_DELTA_FACTOR : DENSE_DELTA_FACTOR) * csr.meanWeight() / meanDegree);
        boolean ints = csr.intWeights();
        long deltaKey = ints ? Math.max(1L, Math.round(delta))
                : Double.doubleToRawLongBits(delta > 0 && Double.isFinite(delta) ? delta : 1.0);
        int bps = variant.intOption("bps", sparse ? 1 : 64);
        Object[] args = {csr.rowOffsets, csr.columns, csr.weights(), n, dist, queueA, queueB, far, nearMark, farMark,
                counters, source, deltaKey, csr.hasBigVertices ? 1 : 0, bigList, bigCapacity, parents, reached,
                fresh ? 1 : 0, (long) variant.intOption("small", DEFAULT_SMALL)};
        Kernel k = context.module("sssp").kernel(csr.offsetEntry(KeyForm.weights(ints).entry("sssp_nearfar")));
        fresh = true;   // until the launch is issued
        int blocks = variant.intOption("blocks", 0);
        if (blocks > 0) k.launchCooperativeBlocks(blocks, args);
        else k.launchCooperative(bps, args);
        fresh = false;
    }

    @Override
    public DeviceCsr deviceCsr() {
        return csr;
    }

    @Override
    public DeviceBuffer distanceKeys() {
        return dist;
    }

    @Override
    public DeviceBuffer parentsBuffer() {
        return parents;
    }

    @Override
    public DeviceBuffer reachedList() {
        return reached;
    }

    @Override
    public CUdeviceptr reachedCount() {
        return counters.pointer().withByteOffset(8L * SsspCounters.REACHED);
    }

    @Override
    public void close() {
        timer.close();
        reached.close();
        bigList.close();
        counters.close();
        farMark.close();
        nearMark.close();
        far.close();
        queueB.close();
        queueA.close();
        parents.close();
        dist.close();
    }
}
