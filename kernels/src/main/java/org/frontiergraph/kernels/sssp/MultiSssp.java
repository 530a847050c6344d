package org.frontiergraph.kernels.sssp;

import jcuda.driver.CUdeviceptr;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * SSSP from several sources per launch, each source's distances reduced to its SUMMARY on the device (kernels in
 * src/main/cuda/sssp_multi.cu): what {@link GpuSsspSummaries} runs for batches of two sources or more.
 *
 * <p>Why this scheme. A single near-far or asynchronous SSSP on a road graph is latency-bound: USA-road-d.NY takes
 * about 1,300 barrier-separated iterations of a few hundred vertices each, so the GPU idles and k sources one after
 * the other cost k times as much. Here k near-far runs (Davidson et al., IPDPS 2014, as {@link GpuSssp}) share one
 * cooperative launch: one near queue of (source, vertex) items expanded by all warps between two grid barriers, a
 * threshold, far piles and epochs per source, each source expanding or splitting its far pile on its own schedule,
 * so a pass takes as many steps as its slowest source, not their sum, and each step's work is k times wider. Items
 * are spread one a lane, the arcs of a warp's low-degree items concatenated over its lanes, the arcs of items of
 * degree 32 or more split evenly over the grid (a road vertex's 2-4 arcs no longer hold a warp each). The other
 * routes: concurrent streams of single-source launches keep a barrier per source and iteration, and cooperative
 * grids of a block per multiprocessor would leave room for a few at once (but the context runs cooperative grids
 * one at a time, whatever their lanes); a barrier-free version of {@link AsyncSssp} (ADDS) for several sources would
 * multiply its bucket-window machinery by k, where near-far's state per source is a threshold, an epoch and two
 * piles. Distances are exact: the keys and atomicMin of
 * sssp.cu, integer and f64 weights alike.
 *
 * <p>Sources per pass: as many as {@link #PASS_BYTES} holds at {@code 32 n} bytes a source (distance keys, two near
 * queues, two far piles, two marks; plus 12 bytes per wide vertex), at most {@link #MAX_SOURCES}, and few enough
 * that items ({@code s n + v}) fit an int: 32 on USA-road-d.NY (270 MiB), 7 on a Kronecker graph of scale 22. Sized
 * once, in the graph's ledger, when the launcher opens. Call inside a lane's call
 * ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class MultiSssp implements AutoCloseable, TreeSettles.SideBySide {
    /** sssp_multi.cu's enum MultiSsspLayout (a test checks that they agree). */
    static final int MAX_SOURCES = 32, SOURCE_STRIDE = 8, WIDE_DEGREE = 32, WIDE_SHIFT = 36;
    /** sssp_multi.cu's enum MultiSsspCounter: slots of the u64 counter array. */
    static final int STEPS = 8, FILTERS = 9, ITEMS = 10, SOURCE_BASE = 16, COUNTERS = 272;
    /** Device bytes the per-source buffers of one pass may take. */
    static final long PASS_BYTES = 1L << 30;
    /** Items of the wide list (its counter keeps them above bit WIDE_SHIFT of a u64) and arcs of a step. */
    private static final long WIDE_ITEMS_LIMIT = 1L << (64 - WIDE_SHIFT), WIDE_ARCS_LIMIT = 1L << WIDE_SHIFT;

    private final DeviceGraph device;
    private final CudaContext context;
    private final DeviceCsr csr;
    private final CsrGraph graph;
    private final int n;
    private final int capacity;
    private final boolean hasWide;
    private final DeviceBuffer dist, queueA, queueB, far, nearMark, farMark, counters, wideItems, wideOffsets;
    private DeviceBuffer sourceList;

    /** Buffers for {@link #capacity(CsrGraph)} sources a pass (at least 1). */
    MultiSssp(DeviceGraph g) {
        this.device = g;
        this.context = g.context();
        this.csr = g.csr();
        this.graph = g.graph();
        this.n = graph.vertexCount();
        int wide = csr.rowsOfAtLeast(WIDE_DEGREE);   // rows as on the device (slots, in the slack form)
        this.capacity = capacity(n, wide, csr.arcCount);
        if (capacity < 1) throw new IllegalStateException("no pass of several sources fits this graph");
        this.hasWide = wide > 0;
        DeviceBuffer[] b = g.allocate(sizes(n, wide, capacity));
        dist = b[0];
        queueA = b[1];
        queueB = b[2];
        far = b[3];
        nearMark = b[4];
        farMark = b[5];
        counters = b[6];
        wideItems = b[7];
        wideOffsets = b[8];
        sourceList = b[9];
    }

    /**
     * Device bytes for {@code k} sources a pass: distance keys, the two near queues, the two far piles a source, the
     * near and far marks, the counters, the wide list (items, then u64 offsets) and the batch's source list (grown
     * with the batch), in that order.
     */
    static long[] sizes(CsrGraph g, int k) {
        return sizes(g.vertexCount(), wideVertexCount(g), k);
    }

    static long[] sizes(int n, int wideVertices, int k) {
        long kn = (long) k * n;
        long wide = (long) k * Math.max(1, wideVertices);
        return new long[] {8 * kn, 4 * kn, 4 * kn, 2 * 4 * kn, 4 * kn, 4 * kn, 8L * COUNTERS, 4 * wide, 8 * wide,
                4L * SummaryBuffer.INITIAL};
    }

    /** Device bytes of the launcher {@link GpuSsspSummaries} opens on {@code g} (0 where a pass holds one source). */
    static long deviceBytes(CsrGraph g) {
        int k = capacity(g);
        return k >= 2 ? DeviceBuffer.total(sizes(g, k)) : 0;
    }

    /** Sources a pass holds on {@code g} ({@link #capacity(long, long, long)}). */
    static int capacity(CsrGraph g) {
        return capacity(g.vertexCount(), wideVertexCount(g), g.arcCount());
    }

    /**
     * Sources a pass holds on a graph of {@code n} vertices, {@code wide} of them with at least {@link #WIDE_DEGREE}
     * arcs, and {@code arcs} arcs: what {@link #PASS_BYTES} allows, at most {@link #MAX_SOURCES}, with {@code k n}
     * below 2^31 (items are ints) and the wide list's counter fields large enough (0 for an empty graph).
     */
    static int capacity(long n, long wide, long arcs) {
        if (n == 0) return 0;
        long perSource = 32 * n + 12 * Math.max(1, wide);
        long k = Math.min(MAX_SOURCES, PASS_BYTES / perSource);
        k = Math.min(k, Integer.MAX_VALUE / n);
        k = Math.min(k, (WIDE_ITEMS_LIMIT - 1) / Math.max(1, wide));
        k = Math.min(k, (WIDE_ARCS_LIMIT - 1) / Math.max(1, arcs));
        return (int) k;
    }

    /** Vertices with at least {@link #WIDE_DEGREE} arcs: expanded edge-balanced over the grid, after a barrier. */
    static int wideVertexCount(CsrGraph g) {
        int[] off = g.rowOffsets();
        int count = 0;
        for (int v = 0; v < g.vertexCount(); v++) if (off[v + 1] - off[v] >= WIDE_DEGREE) count++;
        return count;
    }

    /** Sources a pass holds. */
    @Override
    public int capacity() {
        return capacity;
    }

    /** Passes for {@code k} sources at most {@code pass} a pass: as few as can be, their sizes within one. */
    static int[] passSizes(int k, int pass) {
        int passes = (k + pass - 1) / pass;
        int[] sizes = new int[passes];
        for (int p = 0; p < passes; p++) sizes[p] = k / passes + (p < k % passes ? 1 : 0);
        return sizes;
    }

    /**
     * Adds the summaries of {@code sources} (validated) to {@code out}'s slots in the same order (zeroed by the
     * caller), in passes of at most {@code pass} sources ({@link #passSizes}; clamped to [1, capacity]); the launches
     * are queued on the stream. Options of {@code variant}: {@code delta}, {@code df} and {@code bps} as
     * {@link GpuSssp}'s (near-far's defaults, but {@link #SPARSE_DELTA_FACTOR} on sparse graphs). Returns the passes
     * run.
     */
    /**
     * {@code df} on sparse graphs: narrower buckets than near-far's single-source 512, since 32 sources a step keep
     * the device busy anyway and the work per source counts more than the steps (H200, 2026-11-23, 64 NY sources,
     * ms a source: df=512 0.689, 256 0.567, 128 0.473, 64 0.446, 32 0.488, 16 0.589; docs/benchmarks.md).
     */
    static final double SPARSE_DELTA_FACTOR = 64;
    /** On dense graphs: near-far's single-source factor as it was measured for the side-by-side launches. */
    static final double DENSE_DELTA_FACTOR = 8;

    int run(int[] sources, int pass, SummaryBuffer out, Variant variant) {
        int[] sizes = passSizes(sources.length, Math.max(1, Math.min(pass, capacity)));
        upload(sources);
        counters.fill32(2L * STEPS, 2L * (ITEMS + 1 - STEPS), 0);
        boolean sparse = SeedSssp.sparse(graph);
        double delta = variant.doubleOption("delta", variant.doubleOption("df",
                sparse ? SPARSE_DELTA_FACTOR : DENSE_DELTA_FACTOR) * csr.meanWeight()
                / SeedSssp.meanDegree(graph));
        boolean ints = csr.intWeights();
        long deltaKey = ints ? Math.max(1L, Math.round(delta))
                : Double.doubleToRawLongBits(delta > 0 && Double.isFinite(delta) ? delta : 1.0);
        int bps = variant.intOption("bps", sparse ? 1 : 64);
        long inf = SeedSssp.infKey(ints);
        Kernel solve = context.module("sssp_multi").kernel(KeyForm.weights(ints).entry("sssp_multi"));
        Kernel summary = context.module("sssp_multi").kernel("sssp_multi_summary");
        int first = 0;
        for (int k : sizes) {
            CUdeviceptr passSources = sourceList.pointer().withByteOffset(4L * first);
            solve.launchCooperative(bps, csr.rowOffsets, csr.columns, csr.weights(), n, k, passSources, dist, queueA,
                    queueB, far, nearMark, farMark, counters, deltaKey, hasWide ? 1 : 0, wideItems, wideOffsets);
            int blocks = blocksPerSource(n, k);
            summary.launch((long) blocks * k, dist, n, blocks, inf, out.slot(first));
            first += k;
        }
        return sizes.length;
    }

    /**
     * Settles slices 0 to {@code k - 1} of {@link #keys} side by side from their seeds (sssp_multi.cu's seeded entry
     * points; k at most {@link #capacity()}): slice j holds an upper bound of every vertex's key in form {@code form}
     * ({@link KeyForm#UNIT}: hop counts, every arc counting 1), {@link #seedList}(j) the vertices whose key was
     * lowered, and the u64 at {@code seeds} + 8 j {@code seedStride} bytes their count. Afterwards each slice holds the
     * least fixed point, as {@link AsyncSssp}'s seeded run would leave it. Queued on the stream. The standing trees' repair of
     * several standing trees: one launch for all, where a road graph's settle is latency-bound.
     */
    @Override
    public void settle(int k, CUdeviceptr seeds, int seedStride, KeyForm form, Variant variant) {
        if (k < 1 || k > capacity) throw new IllegalArgumentException(k + " slices; a pass holds 1 to " + capacity);
        boolean unit = form == KeyForm.UNIT, ints = form.integral();
        double meanWeight = unit ? 1.0 : csr.meanWeight();
        boolean sparse = SeedSssp.sparse(graph);
        double delta = variant.doubleOption("delta", variant.doubleOption("df",
                sparse ? SPARSE_DELTA_FACTOR : DENSE_DELTA_FACTOR) * meanWeight / SeedSssp.meanDegree(graph));
        long deltaKey = ints ? Math.max(1L, Math.round(delta))
                : Double.doubleToRawLongBits(delta > 0 && Double.isFinite(delta) ? delta : 1.0);
        int bps = variant.intOption("bps", sparse ? 1 : 64);
        context.module("sssp_multi").kernel(form.entry("sssp_multi_seeded")).launchCooperative(bps, csr.rowOffsets,
                csr.columns, unit ? csr.columns : csr.weights(), n, k, dist, queueA, queueB, far, nearMark, farMark,
                counters, deltaKey, hasWide ? 1 : 0, wideItems, wideOffsets, seeds, seedStride);
    }

    /** Slice j of the distance keys (n u64 keys, at byte 8 j n) ({@link #settle}). */
    @Override
    public CUdeviceptr keys(int j) { return dist.pointer().withByteOffset(8L * j * n); }

    /** Where slice j's seeds are listed for {@link #settle}: far pile (j, 1), n ints. */
    @Override
    public CUdeviceptr seedList(int j) { return far.pointer().withByteOffset(4L * (2L * j + 1) * n); }

    /** Slice j's n far marks: scratch for whoever lists its seeds (the settle sets every mark again). */
    @Override
    public CUdeviceptr seedMarks(int j) { return farMark.pointer().withByteOffset(4L * j * n); }

    /** Vertices of each slice. */
    @Override
    public int vertexCount() { return n; }

    /** Steps, filters and expanded items of the passes of the last {@link #run}, added up (synchronizes). */
    long[] totals() {
        long[] c = new long[ITEMS + 1];
        counters.download(c);
        return new long[] {c[STEPS], c[FILTERS], c[ITEMS]};
    }

    /** Blocks of the summary kernel per source: together about what one single-source summary takes. */
    private static int blocksPerSource(int n, int k) {
        return (int) Math.max(1, SummaryBuffer.blocks(n) / k);
    }

    /** The batch's sources on the device (the copy is ordered after the work already queued: a blocking stream). */
    private void upload(int[] sources) {
        sourceList = device.uploadGrowing(sourceList, sources);
    }

    @Override
    public void close() {
        sourceList.close();
        wideOffsets.close();
        wideItems.close();
        counters.close();
        farMark.close();
        nearMark.close();
        far.close();
        queueB.close();
        queueA.close();
        dist.close();
    }
}
