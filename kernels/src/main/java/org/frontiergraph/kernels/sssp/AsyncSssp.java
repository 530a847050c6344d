package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
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
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * GPU SSSP without a grid barrier per step (kernels in src/main/cuda/sssp_async.cu): asynchronous bucketed
 * delta-stepping in one cooperative launch, after ADDS (Wang, Fussell, Lin, PPoPP 2021). Warps pull items from a
 * window of 64 bucket rings, expand them warp-cooperatively, keep a few improved vertices in shared memory and push
 * the rest to the ring of their bucket; a manager warp moves the window when its lowest bucket drains and ends a
 * phase when the window is empty; vertices beyond the window wait in a far list, split between phases like
 * near-far's far pile. Then {@code sssp.cu}'s parents pass. Distances are exact (sssp.cu's keys and atomicMin).
 * Work is in proportion to what is reached: a run from a source lists the vertices it reaches and the next one resets
 * only those (all n on the first run, after a launch that failed, and after a seeded run of the standing trees'
 * repair, {@link #settle}, which writes the far lists and marks this launcher's runs share); the parents pass and the
 * SUMMARY read that list ({@link DeviceSssp}).
 *
 * <p>Variant {@code async}, options:
 * <ul>
 *   <li>{@code delta=D} bucket width (integer weights: rounded to a power of two), or {@code df=F}: delta = F * mean
 *       weight / mean degree (default 32 on sparse graphs, mean degree below 8; 1 on dense ones);</li>
 *   <li>{@code ahead=A} buckets [low, low + A) are worked on at once (1..32, default 8 sparse, 4 dense);</li>
 *   <li>{@code local=L} improved vertices a warp keeps for itself (0..64, default 8; the rest go to the rings where
 *       idle warps take them);</li>
 *   <li>{@code batch=B} items a warp takes from a ring at once (1..32; default 8 sparse, 16 dense);</li>
 *   <li>{@code piece=P} a vertex with at least 2P arcs is split into pieces of P arcs spread over warps (default 256
 *       sparse, 128 dense);</li>
 *   <li>{@code check=0|1} read dist[v] before the atomicMin (default 1 on dense graphs, 0 on sparse ones);</li>
 *   <li>{@code bps=N} blocks per multiprocessor (default 1 sparse, 2 dense), or {@code blocks=N} in all; {@code warps=W} worker warps (0: all
 *       but the manager).</li>
 * </ul>
 * The defaults first came from a discrete-event model of the kernel (L2 round trips per step, no contention); batch
 * (sparse), df and piece (dense) were then tuned on an H200 (2026-11-26, GpuBench sweeps in docs/benchmarks.md): NY
 * 2.38 -> 2.18 ms (batch 32 -> 8), kron22 14.8 -> 13.6 ms (df 2 -> 1, piece 64 -> 128).
 * Counters: {@code phases} (far-list splits), {@code buckets} (window advances), {@code items} (work items taken),
 * {@code stale}, {@code relaxed} (distances lowered), {@code ring} (ring writes), {@code far} (far-list appends),
 * {@code overflow} (pushes a full ring refused), {@code pieces}, {@code claims}. Opened on first use. Call inside
 * a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class AsyncSssp implements GpuLauncher<Source, SsspResult>, DeviceSssp, TreeSettles.Alone {
    static final GpuAlgorithm<Source, SsspResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("async"), false, g -> DeviceBuffer.total(sizes(g)), AsyncSssp::new).reads(GpuAlgorithm.Layout.ANY);
    static final double SPARSE_DELTA_FACTOR = 32, DENSE_DELTA_FACTOR = 1;

    /** sssp_async.cu's enum AsyncLayout (a test checks that they agree). */
    static final int SLOTS = 64, STATE_WORDS = 592, MAX_AHEAD = 32, LOCAL_CAPACITY = 64;
    /** sssp_async.cu's enum AsyncCounter: slots of the u64 counter array. */
    static final int PHASES = 0, BUCKETS = 1, ITEMS = 2, STALE = 3, RELAXED = 4, RING = 5, FAR = 6, OVERFLOW = 7,
            PIECES = 8, CLAIMS = 9, REACHED = 10, COUNTERS = 16;
    /**
     * Ring entries per slot: at least 2^MIN_RING_LOG, at most 2^MAX_RING_LOG, else n / 16 on sparse graphs (the 64
     * rings hold 4n; a road graph's buckets are small) and n / 4 on dense ones (16n: a Kronecker graph's few buckets
     * are large, and what a full ring refuses waits for the next far-list split).
     */
    static final int MIN_RING_LOG = 10, MAX_RING_LOG = 22;

    private final CudaContext context;
    private CsrGraph graph;
    private final DeviceCsr csr;
    private final int n;
    private final int ringLog;
    private final DeviceBuffer dist, parents, rings, far, farMark, state, counters, reached;
    private final DeviceTimer timer;
    /**
     * Whether the arrays may hold anything but the last run's answer, so that the next run from a source resets all n
     * (a new launcher, a launch that failed, a seeded run or a hand-out of the seed list or marks).
     */
    private boolean fresh = true;
    /** Every ring entry is EMPTY, as each completed launch leaves them (false after a launch that did not complete:
     *  the next one clears them first). */
    private boolean ringsClean;

    private AsyncSssp(DeviceGraph g) {
        this.context = g.context();
        this.graph = g.graph();
        this.csr = g.csr();
        this.n = graph.vertexCount();
        this.ringLog = ringLog(graph);
        DeviceBuffer[] b = g.allocate(sizes(graph));
        dist = b[0];
        parents = b[1];
        rings = b[2];
        far = b[3];
        farMark = b[4];
        state = b[5];
        counters = b[6];
        reached = b[7];
        rings.fill32(0, 2L * SLOTS << ringLog, -1);  // every entry EMPTY (all ones), on the stream before any launch
        ringsClean = true;
        timer = new DeviceTimer(context);
    }

    /** Device bytes of dist, parents, the rings, the two far lists, the far marks, the state words, the counters and
     *  the list of reached vertices, in that order. */
    static long[] sizes(CsrGraph g) {
        long n = g.vertexCount();
        return new long[] {8 * n, 4 * n, 8L * SLOTS << ringLog(g), 2 * 4 * n, 4 * n, 8L * STATE_WORDS,
                8L * COUNTERS, 4 * n};
    }

    /** log2 of the entries of one ring (sparse graphs, SeedSssp.sparse, get smaller rings). */
    static int ringLog(CsrGraph g) {
        return ringLog(g.vertexCount(), SeedSssp.sparse(g));
    }

    static int ringLog(int n, boolean sparse) {
        int per = sparse ? 16 : 4;
        long want = Math.max(1, ((long) n + per - 1) / per);
        int log = 64 - Long.numberOfLeadingZeros(want - 1);  // ceil(log2(want))
        return Math.max(MIN_RING_LOG, Math.min(MAX_RING_LOG, log));
    }

    /** The integer bucket width the kernel uses for {@code delta}: the nearest power of two, at least 1. */
    static long intDelta(double delta) {
        if (!(delta > 1) || !Double.isFinite(delta)) return 1;
        int log = (int) Math.round(Math.log(delta) / Math.log(2));
        return 1L << Math.min(Math.max(log, 0), 62);
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
        boolean ints = csr.intWeights();
        timer.start();
        solveDistances(source, variant);
        if (!csr.zeroWeights()) solveParents(source);
        timer.stop();
        long compute = timer.elapsedNanos();
        completed();
        long t0 = System.nanoTime();
        double[] d = SeedSssp.distances(dist, n, ints);
        int[] p = new int[n];
        if (csr.zeroWeights()) SeedSssp.tightTree(graph, d, source, p);
        else parents.download(p);
        p[source] = source;
        long[] c = new long[COUNTERS];
        counters.download(c);
        return new SsspResult(source, d, p, new Timing(compute, System.nanoTime() - t0, Map.of(
                "phases", c[PHASES], "buckets", c[BUCKETS], "items", c[ITEMS], "stale", c[STALE],
                "relaxed", c[RELAXED], "ring", c[RING], "far", c[FAR], "overflow", c[OVERFLOW],
                "pieces", c[PIECES], "claims", c[CLAIMS])));
    }

    @Override
    public void solveDistances(int source, Variant variant) {
        SeedSssp.checkSource(source, n);
        boolean ints = csr.intWeights();
        launch(false, KeyForm.weights(ints), csr.weights(), dist, source, csr.meanWeight(), ints, variant);
    }

    /**
     * Relaxes {@code keys} (n keys of {@code form}; {@link KeyForm#UNIT}: hop counts, every arc counting 1) from the
     * vertices listed in {@link #seedList()}'s first n entries, {@code seeds} (a device word, u64) of them, whose
     * {@link #seedMarks()} are 0 while every other vertex's is -1: to the least fixed point, as
     * {@link #solveDistances} does from one source (sssp_async.cu's seeded entry points). The standing-tree repair's
     * settle step ({@link TreeSettles}). The rings are taken as clean for the next launch: kernels on the stream run
     * one after another and every completed launch leaves them so (one that faults leaves no usable context).
     */
    @Override
    public void settle(DeviceBuffer keys, CUdeviceptr seeds, KeyForm form, Variant variant) {
        fresh = true;   // it writes the far lists and marks without listing what it reached
        boolean unit = form == KeyForm.UNIT;
        launch(true, form, unit ? csr.columns : csr.weights(), keys, seeds, unit ? 1.0 : csr.meanWeight(),
                form.integral(), variant);
        ringsClean = true;
    }

    /** The far list 0 (n vertices), which holds a seeded run's start ({@link #settle}); the caller writes it. */
    @Override
    public CUdeviceptr seedList() {
        fresh = true;
        return far.pointer();
    }

    /** The far marks, one per vertex ({@link #settle}); the caller writes them. */
    @Override
    public CUdeviceptr seedMarks() {
        fresh = true;
        return farMark.pointer();
    }

    /** Vertices this launcher was opened for. */
    @Override
    public int vertexCount() { return n; }

    /**
     * Whether launches on a slack-form copy bound each row by its live count
     * ({@link org.frontiergraph.kernels.gpu.GpuSettings#ssspLiveBound()}: {@code auto}, the default, on sparse graphs
     * only; {@code on}; {@code off}: read the pads, which no relaxation takes). On a sparse graph every row's room of
     * at least 4 slots (GpuSettings' slackMin) makes the pads a third
     * of the slots or more, and skipping them wins (NY SSSP on the slack form 1.34x -> 1.17x its compact time); on a
     * dense one they are an eighth or so, and the load of {@code live[w]} beside {@code row[w]} for every relaxed
     * head costs more than they do (kron22 1.08x reading pads, 1.23x bounded). docs/benchmarks.md, "Pads and target
     * (c)". A variant's option {@code bound} (1 or 0) decides for its launches.
     */
    private boolean liveBound(Variant variant) {
        if (!csr.slack()) return false;
        int bound = variant.intOption("bound", -1);
        if (bound >= 0) return bound != 0;
        return switch (csr.context().settings().ssspLiveBound()) {
            case ON -> true;
            case OFF -> false;
            case AUTO -> SeedSssp.sparse(graph);
        };
    }

    /**
     * Launches the entry point {@code sssp_async} ({@code sssp_async_seeded} when {@code seeded}) of {@code form} on
     * {@code keys}: from {@code start} (a source, or a seeded run's count word); where {@link #liveBound} says so, its
     * {@code _slack} twin, which takes the live counts as one more argument and reads no pads (sssp_async.cu's
     * SlackRows).
     */
    private void launch(boolean seeded, KeyForm form, DeviceBuffer weights, DeviceBuffer keys, Object start,
                        double meanWeight, boolean ints, Variant variant) {
        boolean sparse = SeedSssp.sparse(graph);
        double delta = variant.doubleOption("delta", variant.doubleOption("df",
                sparse ? SPARSE_DELTA_FACTOR : DENSE_DELTA_FACTOR) * meanWeight / SeedSssp.meanDegree(graph));
        long deltaKey = ints ? intDelta(delta)
                : Double.doubleToRawLongBits(delta > 0 && Double.isFinite(delta) ? delta : 1.0);
        int ahead = clamp(variant.intOption("ahead", sparse ? 8 : 4), 1, MAX_AHEAD);
        int local = clamp(variant.intOption("local", 8), 0, LOCAL_CAPACITY);
        int batch = clamp(variant.intOption("batch", sparse ? 8 : 16), 1, 32);
        int piece = clamp(variant.intOption("piece", sparse ? 256 : 128), 32, 1 << 24);
        int check = variant.intOption("check", sparse ? 0 : 1) != 0 ? 1 : 0;
        int bps = variant.intOption("bps", sparse ? 1 : 2);
        int workers = Math.max(0, variant.intOption("warps", 0));
        boolean clear = !ringsClean;
        ringsClean = false;  // until this launch is known to have completed
        Object[] args = {csr.rowOffsets, csr.columns, weights, n, keys, rings, far, farMark, state, counters,
                start, deltaKey, ringLog, ahead, local, batch, piece, check, workers, clear ? 1 : 0};
        if (!seeded) {   // a run from a source: the parents and the list of reached vertices it resets and writes
            args = Arrays.copyOf(args, args.length + 3);
            args[args.length - 3] = parents;
            args[args.length - 2] = reached;
            args[args.length - 1] = fresh ? 1 : 0;
        }
        boolean bound = liveBound(variant);
        if (bound) {
            args = Arrays.copyOf(args, args.length + 1);
            args[args.length - 1] = csr.liveBuffer();
        }
        String entry = seeded ? (bound ? "sssp_async_seeded_slack" : "sssp_async_seeded") : (bound ? "sssp_async_slack" : "sssp_async");
        Kernel k = context.module("sssp_async").kernel(form.entry(entry));
        fresh = true;   // until a run from a source is issued
        int blocks = variant.intOption("blocks", 0);
        if (blocks > 0) k.launchCooperativeBlocks(blocks, args);
        else k.launchCooperative(bps, args);
        fresh = seeded;
    }

    /** The last launch completed (its rings are EMPTY again). */
    @Override
    public void completed() {
        ringsClean = true;
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
        return counters.pointer().withByteOffset(8L * REACHED);
    }

    private static int clamp(int x, int lo, int hi) {
        return Math.max(lo, Math.min(hi, x));
    }

    @Override
    public void close() {
        timer.close();
        reached.close();
        counters.close();
        state.close();
        farMark.close();
        far.close();
        rings.close();
        parents.close();
        dist.close();
    }
}
