package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.KernelModule;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * GPU MST after ECL-MST (Fallin, Gonzalez, Seo, Burtscher, "A High-Performance MST Implementation for GPUs", SC'23;
 * kernels in src/main/cuda/mst_ecl.cu, whose header says what differs from ECL-MST): Boruvka over shrinking work
 * lists of edges, first on the light edges (keys up to a threshold, about 1.5 n of them: most of the forest for a
 * fraction of the edges), then on the heavier edges between the light trees. Same edge list and keys as
 * {@link GpuMst} ((u, v, weight key, edge id) per edge, uploaded on the first MST query of a graph version), same
 * answer: the unique forest under the (weight, edge id) order. The launches run back to back with no host read-back:
 * ecl_init, ecl_filter_light, ecl_boruvka (cooperative), and with the filter on ecl_flatten, ecl_filter_heavy,
 * ecl_boruvka again. Chosen edges come back as one bit per edge id; the total is summed with {@link ExactSum}.
 * <p>
 * Variant {@code ecl}; options {@code light=P}: the light set's target size, P percent of the vertex count (default
 * {@value #DEFAULT_LIGHT_PERCENT} where the graph has at least two edges per vertex, else no filter, as ECL-MST;
 * 0: no filter); {@code bps=N}: blocks per multiprocessor of the rounds kernel (default: as many as fit). The
 * threshold is the key of the sampled edge at the target's quantile ({@value #SAMPLES} samples evenly spread over the
 * edge ids, taken at upload); any threshold gives the exact forest. Counters: {@code rounds} (both phases),
 * {@code lightRounds}, {@code heavyRounds}, {@code lightEntries} and {@code heavyEntries} (work-list sizes after each
 * filter), {@code entryVisits} (entries read by all rounds), {@code filtered} (1 when the filter was on).
 * The edge list follows the graph's versions as {@link GpuMst}'s does: re-weights patch the keys of their edges in
 * place (integer keys; one scatter) and a merge moves the kept edges on the device and writes the added ones
 * ({@link #merged}); the sampled keys are taken again from the host's edge list each time (a stale threshold would
 * only cost speed). Where keys are ranks (fractional weights) the list is dropped and uploaded again by the next MST
 * query. Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class EclMst implements GpuLauncher<WholeGraph, MstResult>, DeviceMst {
    static final GpuAlgorithm<WholeGraph, MstResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("ecl"), false, g -> DeviceBuffer.total(sizes(g)), EclMst::new).reads(GpuAlgorithm.Layout.OWN).followingHost()
            .wideCapable();

    // slots of the u64 counter array: mst_ecl.cu's enum EclCounter (EclMstGpuTest checks that they agree)
    static final int LIST_COUNT = 0;
    static final int LIGHT_ENTRIES = 4;
    static final int HEAVY_ENTRIES = 5;
    static final int LIGHT_ROUNDS = 6;
    static final int HEAVY_ROUNDS = 7;
    static final int ENTRY_VISITS = 8;
    static final int COUNTERS = 16;
    /** The list and root counts of both parities (slots LIST_COUNT..LIST_COUNT+3), zeroed before each filter. */
    static final int COUNT_SLOTS = 4;
    // ecl_boruvka's phase argument: mst_ecl.cu's enum EclPhase
    static final int PHASE_LIGHT = 0;
    static final int PHASE_HEAVY = 1;

    /** The light set's default target size, in percent of the vertex count (ECL-MST's 1.5 n). */
    static final int DEFAULT_LIGHT_PERCENT = 150;
    /** Edge keys sampled for the threshold. */
    static final int SAMPLES = 4096;
    /** The threshold that makes every edge light (U64_MAX on the device): no filter, no heavy phase. */
    static final long NO_FILTER = -1L;
    /** Blocks per multiprocessor asked of the rounds kernel by default (capped at what fits, 8 at 32 registers). */
    static final int DEFAULT_BPS = 64;

    private final CudaContext context;
    private final AtomicLong ledger;
    private final CsrGraph graph;
    private final UndirectedEdges edges;
    /** Whether the keys in the edge list are the integer weights (else ranks among the distinct weights). */
    private final boolean integerKeys;
    /** Keys sampled for the light threshold (taken again after re-weights). */
    private long[] samples;
    private final DeviceBuffer edgeList, listA, listB, rootsA, rootsB, comp, minKey, chosen, counters;
    private final DeviceTimer timer;
    private boolean closed;

    private EclMst(DeviceGraph g) {
        this(g, null, null);
    }

    /**
     * Opened afresh ({@code from} null: the edge list packed on the host and uploaded), or carried from the launcher
     * {@code from} on the version before a merge (integer keys only), as {@link GpuMst}'s list is.
     */
    private EclMst(DeviceGraph g, EclMst from, ChangeLog.EdgeMoves moves) {
        this.context = g.context();
        this.ledger = g.ledger();
        this.graph = g.graph();
        this.edges = graph.undirectedEdges();
        int[][] packed = from == null ? GpuMst.pack(edges, graph.integralWeights()) : null;
        this.integerKeys = from == null ? GpuMst.integerKeys(edges, graph.integralWeights()) : true;
        this.samples = packed != null ? sampleKeys(packed, edges.size()) : sampleKeys(edges);
        DeviceBuffer[] b = g.allocate(sizes(graph));
        DeviceTimer t = null;
        try {
            if (from == null) GpuMst.upload(b[0], packed);
            else GpuMst.moveEdges(context, ledger, from.edgeList, b[0], moves);
            t = new DeviceTimer(context);
        } catch (RuntimeException e) {
            for (DeviceBuffer d : b) d.close();
            throw e;
        }
        edgeList = b[0];
        listA = b[1];
        listB = b[2];
        rootsA = b[3];
        rootsB = b[4];
        comp = b[5];
        minKey = b[6];
        chosen = b[7];
        counters = b[8];
        timer = t;
    }

    /**
     * Device bytes of the packed edge list, the two work lists (16 bytes per edge each), the two root lists and comp
     * (4 per vertex each), minKey (8 per vertex), the chosen bits and the counters.
     */
    private static long[] sizes(CsrGraph g) {
        long m = g.directed() ? g.arcs() : g.edgeCount();  // at least the undirected edges
        long n = g.vertexCount();
        return new long[] {16 * m, 16 * m, 16 * m, 4 * n, 4 * n, 4 * n, 8 * n, 4 * ((m + 31) / 32), 8L * COUNTERS};
    }

    /** The 64-bit keys (weight key << 32 | id) of up to {@link #SAMPLES} edges evenly spread over the ids, sorted. */
    static long[] sampleKeys(int[][] packed, int m) {
        return sampleKeys(id -> GpuMst.packedKey(packed, id), m);
    }

    /** The same for integer keys, read from the host's edge list (the weights are the keys). */
    private static long[] sampleKeys(UndirectedEdges edges) {
        return sampleKeys(id -> (int) edges.w[id], edges.size());
    }

    private static long[] sampleKeys(IntUnaryOperator keyOf, int m) {
        int s = Math.min(SAMPLES, m);
        long[] keys = new long[s];
        for (int i = 0; i < s; i++) {
            int id = (int) ((2L * i + 1) * m / (2L * s));
            keys[i] = ((long) keyOf.applyAsInt(id) << 32) | id;  // weight keys are in 0..2^31-1
        }
        Arrays.sort(keys);
        return keys;
    }

    /**
     * The light threshold for a target of {@code percent}% of {@code n} light edges out of {@code m}: the sampled key
     * at the target's quantile, or {@link #NO_FILTER} when the target is 0 or not below m.
     */
    static long threshold(long[] sortedSamples, long n, long m, int percent) {
        long target = n * percent / 100;
        if (percent <= 0 || target >= m || sortedSamples.length == 0) return NO_FILTER;
        int s = sortedSamples.length;
        return sortedSamples[(int) (target * s / m)];
    }

    @Override
    public MstResult run(WholeGraph query, Variant variant) {
        int n = graph.vertexCount();
        int m = edges.size();
        long words = (m + 31L) / 32;
        timer.start();
        boolean filtered = launch(variant);
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] bits = new int[(int) words];
        long[] c = new long[COUNTERS];
        if (m > 0) {
            chosen.download(bits);
            counters.download(c);
        }
        int[] ids = ChosenEdges.ids(bits);
        int count = ids.length;
        double total = ExactSum.of(edges.w, ids);
        Map<String, Long> counts = Map.of(
                "rounds", c[LIGHT_ROUNDS] + c[HEAVY_ROUNDS],
                "lightRounds", c[LIGHT_ROUNDS],
                "heavyRounds", c[HEAVY_ROUNDS],
                "lightEntries", c[LIGHT_ENTRIES],
                "heavyEntries", c[HEAVY_ENTRIES],
                "entryVisits", c[ENTRY_VISITS],
                "filtered", filtered && m > 0 ? 1L : 0L);
        return new MstResult(ids, total, n - count, new Timing(compute, System.nanoTime() - t0, counts));
    }

    @Override
    public void solve(Variant variant) {
        launch(variant);
    }

    /** Queues the kernels of the forest (none for an edgeless graph); returns whether the light filter was on. */
    private boolean launch(Variant variant) {
        int n = graph.vertexCount();
        int m = edges.size();
        int bps = variant.intOption("bps", DEFAULT_BPS);
        int light = variant.intOption("light", m >= 2L * n ? DEFAULT_LIGHT_PERCENT : 0);
        if (bps < 1 || light < 0) {
            throw new UnsupportedVariantException("MST", variant.name() + ",bps=" + bps + ",light=" + light
                    + " (bps >= 1, light >= 0)", GpuBackend.NAME, IMPLEMENTATION.variants());
        }
        long threshold = threshold(samples, n, m, light);
        boolean filtered = threshold != NO_FILTER;
        long words = (m + 31L) / 32;
        KernelModule module = context.module("mst_ecl");
        if (m > 0) {
            counters.fill32(0, 2L * COUNTERS, 0);
            module.kernel("ecl_init").launch(Kernel.blocksFor(Math.max(n, words)), n, words, comp, minKey, chosen);
            Kernel lightFilter = module.kernel("ecl_filter_light");
            lightFilter.launch(filterBlocks(lightFilter, m), edgeList, (long) m, threshold, listA, rootsA, minKey,
                    counters);
            Kernel rounds = module.kernel("ecl_boruvka");
            rounds.launchCooperative(bps, edgeList, PHASE_LIGHT, listA, listB, rootsA, rootsB, comp, minKey, chosen,
                    counters);
            if (filtered) {
                counters.fill32(2L * LIST_COUNT, 2L * COUNT_SLOTS, 0);
                module.kernel("ecl_flatten").launch(Kernel.blocksFor(n), n, comp);
                Kernel heavyFilter = module.kernel("ecl_filter_heavy");
                heavyFilter.launch(filterBlocks(heavyFilter, m), edgeList, (long) m, threshold, comp, listA, rootsA,
                        minKey, counters);
                rounds.launchCooperative(bps, edgeList, PHASE_HEAVY, listA, listB, rootsA, rootsB, comp, minKey,
                        chosen, counters);
            }
        }
        return filtered;
    }

    @Override public DeviceBuffer edgeList() { return edgeList; }
    @Override public DeviceBuffer chosen() { return chosen; }
    @Override public int edgeCount() { return edges.size(); }
    @Override public boolean integerKeys() { return integerKeys; }

    /** A grid that is resident at once (the filters loop over tiles), no larger than one block per 256 edges. */
    private int filterBlocks(Kernel k, int m) {
        return (int) Math.min(Kernel.blocksFor(m), (long) context.multiprocessors() * k.maxCooperativeBlocksPerSm());
    }

    /** Integer keys: the re-weighted edges' keys scattered in place ({@link GpuMst#patchKeys}), the samples taken again. */
    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        if (!GpuMst.patchKeys(context, ledger, edgeList, edges, integerKeys, next, changes)) return false;
        samples = sampleKeys(edges);
        return true;
    }

    @Override
    public GpuLauncher<WholeGraph, MstResult> merged(DeviceGraph next, ChangeLog.Merge merge) {
        if (!integerKeys || merge.edges() == null || !next.graph().integralWeights()) return null;
        return new EclMst(next, this, merge.edges());
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        timer.close();
        counters.close();
        chosen.close();
        minKey.close();
        comp.close();
        rootsB.close();
        rootsA.close();
        listB.close();
        listA.close();
        edgeList.close();
    }
}
