package org.frontiergraph.kernels.bfs;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.sssp.BatchSssp;
import org.frontiergraph.kernels.sssp.GpuSsspSummaries;
import org.frontiergraph.kernels.sssp.KeyForm;

/**
 * BFS SUMMARY answers for a batch of sources on the GPU; the batch's summaries come back in one copy of 16 bytes a
 * source. One source: the search runs on the graph's {@link GpuBfs} launcher (the variant's options, e.g.
 * {@code bps}, pass through) and {@code bfs_summary} (bfs.cu) reads its counters on the device (vertices reached,
 * levels: no pass over the hop array). Several: one
 * bit-parallel multi-source BFS ({@link MultiSourceBfs}, bfs_multi.cu) per 64 distinct sources; a repeated source is
 * searched once, and a source without out-arcs, which reaches only itself, is answered on the host. Option
 * {@code mbps=N}: blocks per multiprocessor of the multi-source grid; counters {@code passes} and {@code levels}
 * (levels of all passes together) for several sources. Call inside
 * a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuBfsSummaries implements GpuLauncher<Sources, BfsSummaries> {
    static final GpuAlgorithm<Sources, BfsSummaries> IMPLEMENTATION = new GpuAlgorithm<>(List.of("default"), false,
            g -> 16L * SummaryBuffer.INITIAL + (g.wide() ? 0 : MultiSourceBfs.deviceBytes(g)
                    + (GpuSsspSummaries.batches(g) ? BatchSssp.deviceBytes(g) : 0)), GpuBfsSummaries::new)
            .reads(GpuAlgorithm.Layout.ANY).wideCapable();

    private final DeviceGraph device;
    private final SummaryBuffer out;
    /** Null on a graph stored wide: its sources run one at a time (bfs_multi.cu reads 32-bit offsets). */
    private final MultiSourceBfs multi;
    private final DeviceTimer timer;
    /**
     * Bursts of at least {@link GpuSsspSummaries#BATCH_MIN_SOURCES} on the graphs {@link GpuSsspSummaries#batches}
     * accepts: the batched SSSP with every arc counting 1 ({@link BatchSssp}, a thread block a source, its deepest
     * level the largest key); opened by the first such burst.
     */
    private final BatchSssp.Lazy levels;

    private GpuBfsSummaries(DeviceGraph device) {
        this.device = device;
        this.out = new SummaryBuffer(device);
        try {
            this.multi = device.csr().wide ? null : new MultiSourceBfs(device);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        this.timer = new DeviceTimer(device.context());
        this.levels = new BatchSssp.Lazy(device);
    }

    @Override
    public BfsSummaries run(Sources query, Variant variant) {
        int[] sources = query.vertices();
        if (sources.length == 1 || multi == null) return oneByOne(sources, variant);
        if (blockASource(sources.length, variant)) return blocks(sources, variant);
        return batch(sources, variant);
    }

    /**
     * Whether a batch runs a block a source: option {@code way=batch} (or {@code way=multi}: the bit-parallel passes)
     * where given, else from {@link GpuSsspSummaries#BATCH_MIN_SOURCES} sources on the graphs
     * {@link GpuSsspSummaries#batches} accepts, unless the device had no room for the slots.
     */
    private boolean blockASource(int k, Variant variant) {
        String way = variant.options().get("way");
        boolean wanted = way != null ? way.equals("batch")
                : k >= GpuSsspSummaries.BATCH_MIN_SOURCES && GpuSsspSummaries.batches(device.graph());
        return wanted && levels.get(way != null) != null;
    }

    /** A batch a thread block a source: hop counts as the batched SSSP's keys (every arc 1), a level a step. */
    private BfsSummaries blocks(int[] sources, Variant variant) {
        int k = sources.length;
        out.zeroed(k);
        timer.start();
        int blocks = levels.get(true).run(sources, out, variant, KeyForm.UNIT);
        timer.stop();
        return read(sources, timer.elapsedNanos(), Map.of("blocks", (long) blocks));
    }

    /** The summaries of {@code sources}, one a slot of {@code out} in order (reached, deepest level), read back. */
    private BfsSummaries read(int[] sources, long compute, Map<String, Long> counters) {
        int k = sources.length;
        long t0 = System.nanoTime();
        long[] pairs = out.read(k);
        long[] reached = new long[k];
        int[] max = new int[k];
        for (int i = 0; i < k; i++) {
            reached[i] = pairs[2 * i];
            max[i] = (int) pairs[2 * i + 1];
        }
        return new BfsSummaries(sources.clone(), reached, max, new Timing(compute, System.nanoTime() - t0, counters));
    }

    /**
     * One source, or the sources of a graph stored wide one after another: the single-source launcher, each search's
     * counters read into its summary on the device.
     */
    private BfsSummaries oneByOne(int[] sources, Variant variant) {
        GpuBfs bfs = (GpuBfs) device.launcher(GpuBfs.IMPLEMENTATION);
        int k = sources.length;
        out.zeroed(k);
        Kernel reduce = device.context().module("bfs").kernel("bfs_summary");
        timer.start();
        for (int i = 0; i < k; i++) {
            bfs.solve(sources[i], variant);
            reduce.launch(1, bfs.counters(), out.slot(i));
        }
        timer.stop();
        return read(sources, timer.elapsedNanos(), Map.of());
    }

    /** Several sources: the distinct ones with out-arcs searched together, 64 a pass. */
    private BfsSummaries batch(int[] sources, Variant variant) {
        int[] rows = device.csr().rowBounds();   // as on the device: a row without slots has no arcs
        int k = sources.length;
        int[] slot = new int[k];   // source i's summary: slot[i] of the searches, or -1 (no out-arcs: itself only)
        int[] distinct = new int[k];
        int searched = 0;
        Map<Integer, Integer> slotOf = new HashMap<>();
        for (int i = 0; i < k; i++) {
            int s = sources[i];
            if (rows[s + 1] == rows[s]) {
                slot[i] = -1;
                continue;
            }
            Integer known = slotOf.get(s);
            if (known == null) {
                known = searched;
                slotOf.put(s, known);
                distinct[searched++] = s;
            }
            slot[i] = known;
        }
        long compute = 0, passes = 0, levels = 0, copy = 0;
        long[] pairs = new long[0];
        if (searched > 0) {
            multi.prepare(Arrays.copyOf(distinct, searched));
            out.zeroed(searched);
            timer.start();
            passes = multi.launch(searched, out, variant.intOption("mbps", MultiSourceBfs.defaultBlocksPerSm(device.graph())));
            timer.stop();
            compute = timer.elapsedNanos();
            long t0 = System.nanoTime();
            pairs = out.read(searched);
            levels = multi.levels();
            copy = System.nanoTime() - t0;
        }
        long[] reached = new long[k];
        int[] max = new int[k];
        for (int i = 0; i < k; i++) {
            reached[i] = slot[i] < 0 ? 1 : pairs[2 * slot[i]];
            max[i] = slot[i] < 0 ? 0 : (int) pairs[2 * slot[i] + 1];
        }
        return new BfsSummaries(sources.clone(), reached, max,
                new Timing(compute, copy, Map.of("passes", passes, "levels", levels)));
    }

    @Override
    public void close() {
        timer.close();
        levels.close();
        if (multi != null) multi.close();
        out.close();
    }
}
