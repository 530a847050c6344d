package org.frontiergraph.kernels.sssp;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * SSSP SUMMARY answers for a batch of sources on the GPU; the batch's summaries come back in one copy of 16 bytes a
 * source. Batches of {@link #BATCH_MIN_SOURCES} or more on sparse graphs run a thread block a source
 * ({@link BatchSssp}, sssp_batch.cu: near-far per block, as many sources at once as the slots hold, the summary reduced
 * by the block; {@link #batches}); other batches of two or more run several per launch ({@link MultiSssp},
 * sssp_multi.cu: near-far for up to 32 sources side by side, as many a pass as its buffers hold, then
 * {@code sssp_multi_summary}); a single source runs on
 * the launcher of the graph's default SSSP variant ({@code async} on sparse graphs, {@code nearfar} on dense ones:
 * {@link Sssp#SPEC}), distances only (no parents pass), read from its list of reached vertices by
 * {@code sssp_summary_listed} (sssp.cu; {@link DeviceSssp#summarize}).
 *
 * <p>Variant {@code default}, options: {@code way=single|multi|batch} (which of the three runs the batch; default
 * {@link #way}); {@code pass=P} sources a side-by-side launch at most (default and upper bound: what the buffers
 * hold, {@link MultiSssp#capacity}, on the graphs {@link #sideBySide} accepts, else 1; 1 runs every source on the
 * single-source launcher; given without {@code way}, the batch runs side by side or one at a time as before);
 * {@code slots} (blocks of a block-a-source launch at most); {@code delta}, {@code df}, {@code bps} as
 * {@link GpuSssp}'s, for the launches of several sources. Counters: {@code passes} (launches), and for several
 * sources a launch {@code steps} (their near-far steps: grid barriers side by side, block barriers a block a source),
 * {@code filters} (far-pile splits) and {@code items} (near-queue items expanded), summed over the passes;
 * {@code blocks} a block a source. Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
public final class GpuSsspSummaries implements GpuLauncher<Sources, SsspSummaries> {
    static final GpuAlgorithm<Sources, SsspSummaries> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("default"), false, g -> 16L * SummaryBuffer.INITIAL + (g.wide() ? 0 : MultiSssp.deviceBytes(g)
                    + (batches(g) ? BatchSssp.deviceBytes(g) : 0)), GpuSsspSummaries::new)
            .reads(GpuAlgorithm.Layout.ANY).wideCapable();

    private final DeviceGraph device;
    /** Null where a pass holds one source only (a graph too large for two, or stored wide: sssp_multi.cu reads 32-bit
     *  offsets, so a wide graph's sources run one at a time on the default single-source launcher). */
    private final MultiSssp multi;
    /**
     * Opened by the first batch that runs a block a source ({@link #way}); null before. Its slots count in the
     * launcher's device bytes on the graphs {@link #batches} accepts; {@code way=batch} elsewhere allocates them then.
     */
    /**
     * Opened by the first batch that runs a block a source ({@link #way}). Its slots count in the launcher's device
     * bytes on the graphs {@link #batches} accepts; {@code way=batch} elsewhere allocates them then.
     */
    private final BatchSssp.Lazy batch;
    private final SummaryBuffer out;
    private final DeviceTimer timer;

    private GpuSsspSummaries(DeviceGraph device) {
        this.device = device;
        this.multi = !device.csr().wide && MultiSssp.capacity(device.graph()) >= 2 ? new MultiSssp(device) : null;
        try {
            this.out = new SummaryBuffer(device);
        } catch (RuntimeException e) {
            if (multi != null) multi.close();
            throw e;
        }
        this.timer = new DeviceTimer(device.context());
        this.batch = new BatchSssp.Lazy(device);
    }

    /**
     * The launches of several sources at once, or null where a pass holds one source only (the standing trees' settle,
     * {@link TreeSettles#sideBySide}).
     */
    MultiSssp multi() {
        return multi;
    }

    /** Arcs up to which a dense graph still runs its sources side by side by default. */
    static final long SIDE_BY_SIDE_MAX_DENSE_ARCS = 1L << 22;

    /**
     * Whether several sources run side by side by default: on sparse graphs (latency-bound near-far, H200,
     * 2026-11-23: 32 sources of USA-road-d.NY in 22.7 ms against 73.7 ms one by one, luxembourg_osm 6.5 against 55.6)
     * and on small dense ones (facebook_combined 0.34 against 4.97 ms, email-Enron 0.56 against 5.79); not on large
     * dense ones, which are throughput-bound (kron20, 31 M arcs: a burst of SUMMARY queries through Kafka gave 313
     * answers/s side by side, below the 370/s of its 2.7 ms single-source runs).
     */
    static boolean sideBySide(CsrGraph g) {
        return SeedSssp.sparse(g) || g.arcs() <= SIDE_BY_SIDE_MAX_DENSE_ARCS;
    }

    /** How a batch runs: one source at a time, side by side ({@link MultiSssp}), or a block a source ({@link BatchSssp}). */
    enum Way { SINGLE, MULTI, BATCH }

    /**
     * Sources from which a batch runs a block a source on the graphs {@link #batches} accepts. H200, 2026-11-28,
     * USA-road-d.NY, device ms a source side by side / a block a source (BatchSsspGpuTest.costOnNewYork): 8 sources
     * 1.32 / 1.50, 16 0.756 / 0.786, 24 0.540 / 0.524, 32 0.464 / 0.406, 64 0.438 / 0.200, 128 (side by side: 0.44 in
     * passes of 32) / 0.104, 256 / 0.091, 512 / 0.071.
     */
    public static final int BATCH_MIN_SOURCES = 24;
    /** Slots a graph needs for batches to run a block a source by default: a block each for half the multiprocessors. */
    static final int BATCH_MIN_SLOTS = 64;

    /**
     * Whether batches of at least {@link #BATCH_MIN_SOURCES} run a block a source by default (and the launcher's
     * device bytes count the slots): on sparse graphs stored with 32-bit offsets, where a near-far step is one block's
     * work, small enough for {@link #BATCH_MIN_SLOTS} slots (up to about a million vertices). Not on dense graphs: a
     * block a source is throughput-bound there (a Kronecker graph of scale 18, 8 M arcs, 64 sources: 1.67 ms a source,
     * against 0.68 side by side and 0.90 one at a time).
     */
    public static boolean batches(CsrGraph g) {
        return !g.wide() && SeedSssp.sparse(g) && BatchSssp.slots(g.vertexCount()) >= BATCH_MIN_SLOTS;
    }

    /**
     * The way a batch of {@code k} sources runs: option {@code way=single|multi|batch} where given; option
     * {@code pass} (the side-by-side launches' rule, {@code pass=1} one at a time) where given; else a block a source
     * for {@link #BATCH_MIN_SOURCES} or more on the graphs {@link #batches} accepts, side by side for two or more on
     * those {@link #sideBySide} accepts, one at a time otherwise.
     */
    Way way(int k, Variant variant) {
        CsrGraph g = device.graph();
        String named = variant.options().get("way");
        if (named != null) {
            Way w = Way.valueOf(named.toUpperCase(Locale.ROOT));
            if (w == Way.BATCH && (device.csr().wide || BatchSssp.slots(g.vertexCount()) < 1)
                    || w == Way.MULTI && multi == null) {
                throw new UnsupportedVariantException(
                        "way=" + named + " does not run on this graph");
            }
            return w;
        }
        if (variant.options().containsKey("pass")) return k >= 2 && passSize(variant) >= 2 ? Way.MULTI : Way.SINGLE;
        if (k >= BATCH_MIN_SOURCES && !batch.refused() && batches(g)) return Way.BATCH;
        return k >= 2 && passSize(variant) >= 2 ? Way.MULTI : Way.SINGLE;
    }

    /** Sources a side-by-side pass holds: option {@code pass}, at most the buffers' capacity (1 without them). */
    private int passSize(Variant variant) {
        int fallback = sideBySide(device.graph()) ? multi == null ? 1 : multi.capacity() : 1;
        return multi == null ? 1 : Math.min(multi.capacity(), variant.intOption("pass", fallback));
    }

    @Override
    public SsspSummaries run(Sources query, Variant variant) {
        int[] sources = query.vertices();
        int k = sources.length;
        int n = device.graph().vertexCount();
        for (int s : sources) SeedSssp.checkSource(s, n);
        boolean ints = device.csr().intWeights();
        Way way = way(k, variant);
        if (way == Way.BATCH && batch.get(variant.options().containsKey("way")) == null) {
            way = way(k, variant);   // the device is full: this batch, and the next, the older ways
        }
        out.zeroed(k);
        long compute;
        Map<String, Long> counters;
        if (way == Way.BATCH) {
            timer.start();
            BatchSssp blocksOf = batch.get(true);
            int blocks = blocksOf.run(sources, out, variant);
            timer.stop();
            compute = timer.elapsedNanos();
            long[] t = blocksOf.totals();
            counters = Map.of("passes", 1L, "blocks", (long) blocks, "steps", t[0], "filters", t[1], "items", t[2]);
        } else if (way == Way.MULTI) {
            timer.start();
            int passes = multi.run(sources, Math.max(2, passSize(variant)), out, variant);
            timer.stop();
            compute = timer.elapsedNanos();
            long[] t = multi.totals();
            counters = Map.of("passes", (long) passes, "steps", t[0], "filters", t[1], "items", t[2]);
        } else {
            compute = oneByOne(sources);
            counters = Map.of("passes", (long) k);
        }
        long t0 = System.nanoTime();
        long[] pairs = out.read(k);
        long[] reached = new long[k];
        double[] max = new double[k];
        for (int i = 0; i < k; i++) {
            reached[i] = pairs[2 * i];
            long key = pairs[2 * i + 1];
            max[i] = ints ? (double) key : Double.longBitsToDouble(key);
        }
        return new SsspSummaries(sources.clone(), reached, max,
                new Timing(compute, System.nanoTime() - t0, counters));
    }

    /** Each source on the default single-source launcher, its distances reduced into its slot. Returns device nanos. */
    @SuppressWarnings("unchecked")
    private long oneByOne(int[] sources) {
        AlgorithmSpec.Choice<Source, SsspResult> single = Sssp.SPEC.choose(GpuBackend.NAME, null, device.graph());
        DeviceSssp sssp = (DeviceSssp) device.launcher((GpuAlgorithm<Source, SsspResult>) single.implementation());
        timer.start();
        for (int i = 0; i < sources.length; i++) {
            sssp.solveDistances(sources[i], single.variant());
            sssp.summarize(out.slot(i));
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        sssp.completed();
        return compute;
    }

    @Override
    public void close() {
        timer.close();
        out.close();
        batch.close();
        if (multi != null) multi.close();
    }
}
