package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.MergePlan;
import org.frontiergraph.kernels.gpu.Scatter;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * GPU MST launcher (kernels in src/main/cuda/mst.cu): Boruvka with (weight, edge id) keys and a lock-free
 * union-find, in one cooperative launch. The undirected edge list is uploaded once, on the first MST query of a
 * graph version. The chosen edges come back as one bit per edge id, so ids are ascending; the total is summed on
 * the host with {@link ExactSum}. Variant {@code boruvka}, option {@code bps=N}. Reports counter {@code rounds}.
 * The edge list carries the weights as integer keys: re-weights patch the keys of their edges in place when weights
 * are integers (one scatter), else the list is dropped and the next MST query uploads it again. Call inside
 * a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class GpuMst implements GpuLauncher<WholeGraph, MstResult>, DeviceMst {
    static final GpuAlgorithm<WholeGraph, MstResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("boruvka"), false, g -> DeviceBuffer.total(sizes(g)), GpuMst::new).reads(GpuAlgorithm.Layout.OWN)
            .followingHost().wideCapable();

    private final CudaContext context;
    private final AtomicLong ledger;
    private final CsrGraph graph;
    /** Whether the keys in the edge list are the integer weights (else ranks among the distinct weights). */
    private final boolean integerKeys;
    private final UndirectedEdges edges;
    private final DeviceBuffer edgeList, listA, listB, comp, minKey, chosen, counters;
    private final DeviceTimer timer;

    private GpuMst(DeviceGraph g) {
        this(g, null, null);
    }

    /**
     * Opened afresh ({@code from} null: the edge list packed on the host and uploaded), or carried from the launcher
     * {@code from} on the version before a merge (integer keys only): the kept edges move on the device to their new
     * ids and the added ones are written from one small upload, so nothing is packed again on the host.
     */
    private GpuMst(DeviceGraph g, GpuMst from, ChangeLog.EdgeMoves moves) {
        this.context = g.context();
        this.ledger = g.ledger();
        this.graph = g.graph();
        this.edges = graph.undirectedEdges();
        DeviceBuffer[] b = g.allocate(sizes(graph));
        edgeList = b[0];
        listA = b[1];
        listB = b[2];
        comp = b[3];
        minKey = b[4];
        chosen = b[5];
        counters = b[6];
        try {
            if (from == null) {
                upload(edgeList, pack(edges, graph.integralWeights()));
                integerKeys = integerKeys(edges, graph.integralWeights());
            } else {
                moveEdges(context, ledger, from.edgeList, edgeList, moves);
                integerKeys = true;
            }
        } catch (RuntimeException e) {
            for (DeviceBuffer x : b) x.close();
            throw e;
        }
        timer = new DeviceTimer(context);
    }

    /**
     * Fills {@code edgeList} from the previous version's list {@code previous}: kept runs moved (ids renumbered), added
     * edges written from one small upload (integer keys: their weights). {@link EclMst} carries its list the same way.
     */
    static void moveEdges(CudaContext context, AtomicLong ledger, DeviceBuffer previous, DeviceBuffer edgeList,
                          ChangeLog.EdgeMoves moves) {
        int[] pieces = MergePlan.pieces(moves.runs());
        if (pieces.length > 0) {
            try (DeviceBuffer p = DeviceBuffer.of(context, ledger, pieces)) {
                context.module("graph").kernel("move_edges").launch(Math.min(pieces.length / 3, 1 << 20),
                        previous, edgeList, p, pieces.length / 3);
                context.synchronize();
            }
        }
        int[] ids = moves.addedIds();
        if (ids.length == 0) return;
        int[] packed = new int[4 * ids.length], at = new int[3 * ids.length];
        for (int i = 0; i < ids.length; i++) {
            long key = moves.addedKeys()[i];
            packed[4 * i] = (int) (key >>> 32);
            packed[4 * i + 1] = (int) key;
            packed[4 * i + 2] = (int) moves.addedWeights()[i];
            packed[4 * i + 3] = ids[i];
            at[3 * i] = 4 * i;
            at[3 * i + 1] = 4 * ids[i];
            at[3 * i + 2] = 4;
        }
        try (DeviceBuffer src = DeviceBuffer.of(context, ledger, packed); DeviceBuffer p = DeviceBuffer.of(context, ledger, at)) {
            context.module("graph").kernel("copy_pieces_u32").launch(Math.min(ids.length, 1 << 20), src, edgeList, p, ids.length);
            context.synchronize();
        }
    }

    @Override
    public GpuLauncher<WholeGraph, MstResult> merged(DeviceGraph next, ChangeLog.Merge merge) {
        if (!integerKeys || merge.edges() == null || !next.graph().integralWeights()) return null;
        return new GpuMst(next, this, merge.edges());
    }

    /** Device bytes of the packed edge list, the two work lists, comp, minKey, the chosen bits and the counters. */
    private static long[] sizes(CsrGraph g) {
        long m = g.directed() ? g.arcs() : g.edgeCount();  // at least the undirected edges
        long n = g.vertexCount();
        return new long[] {16 * m, 16 * m, 16 * m, 4 * n, 8 * n, 4 * ((m + 31) / 32), 8L * MstCounters.COUNT};
    }

    /**
     * (u, v, weight key, id) per edge. The weight key is the integer weight when weights are integers below 2^31,
     * else the rank of the weight among the distinct weights: either way keys order edges as (weight, id) does.
     */
    static boolean integerKeys(UndirectedEdges edges, boolean integral) {
        double[] w = edges.w;
        boolean ints = integral;
        for (int i = 0; ints && i < edges.size(); i++) ints = w[i] == Math.rint(w[i]) && w[i] >= 0 && w[i] <= Integer.MAX_VALUE;
        return ints;
    }

    /** Edges in one page of the packed list (4 ints each): 2^28 edges, a 1 GiB int[], so any edge count packs. */
    static final int PACK_PAGE_EDGES = 1 << 28;

    /** The packed list in pages of {@link #PACK_PAGE_EDGES} edges (edge i: page i >>> 28, ints 4 (i & (2^28 - 1)) ...). */
    static int[][] pack(UndirectedEdges edges, boolean integral) {
        int m = edges.size();
        double[] w = edges.w;
        boolean ints = integerKeys(edges, integral);
        double[] distinct = null;
        if (!ints) {
            double[] sorted = w.clone();
            Arrays.sort(sorted);
            int d = 0;
            for (int i = 0; i < m; i++) if (i == 0 || Double.compare(sorted[i], sorted[d - 1]) != 0) sorted[d++] = sorted[i];
            distinct = Arrays.copyOf(sorted, d);
        }
        int pages = (int) Math.max(1, (m + (long) PACK_PAGE_EDGES - 1) / PACK_PAGE_EDGES);
        int[][] packed = new int[pages][];
        for (int p = 0; p < pages; p++) {
            long first = (long) p * PACK_PAGE_EDGES;
            int count = (int) Math.min(PACK_PAGE_EDGES, m - first);
            int[] page = new int[4 * count];
            for (int j = 0; j < count; j++) {
                int i = (int) (first + j);
                page[4 * j] = edges.u[i];
                page[4 * j + 1] = edges.v[i];
                page[4 * j + 2] = ints ? (int) w[i] : Arrays.binarySearch(distinct, w[i]);
                page[4 * j + 3] = i;
            }
            packed[p] = page;
        }
        return packed;
    }

    /** The weight key of edge {@code id} in a list {@link #pack} made. */
    static int packedKey(int[][] packed, int id) {
        return packed[id / PACK_PAGE_EDGES][4 * (id % PACK_PAGE_EDGES) + 2];
    }

    /** Copies a packed list to the start of {@code list}, page after page. */
    static void upload(DeviceBuffer list, int[][] packed) {
        long at = 0;
        for (int[] page : packed) {
            if (page.length > 0) list.uploadAt(at, page);
            at += 4L * page.length;
        }
    }

    @Override
    public MstResult run(WholeGraph query, Variant variant) {
        int n = graph.vertexCount();
        int m = edges.size();
        timer.start();
        solve(variant);
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] bits = new int[(int) ((m + 31L) / 32)];
        if (m > 0) chosen.download(bits);
        int[] ids = ChosenEdges.ids(bits);
        int count = ids.length;
        long rounds = 0;
        if (m > 0) {
            long[] c = new long[MstCounters.COUNT];
            counters.download(c);
            rounds = c[MstCounters.ROUNDS];
        }
        double total = ExactSum.of(edges.w, ids);
        return new MstResult(ids, total, n - count, new Timing(compute, System.nanoTime() - t0,
                Map.of("rounds", rounds)));
    }

    @Override
    public void solve(Variant variant) {
        int m = edges.size();
        if (m > 0) {
            context.module("mst").kernel("mst_boruvka").launchCooperative(variant.intOption("bps", 64), edgeList,
                    (long) m, graph.vertexCount(), listA, listB, comp, minKey, chosen, counters);
        }
    }

    @Override public DeviceBuffer edgeList() { return edgeList; }
    @Override public DeviceBuffer chosen() { return chosen; }
    @Override public int edgeCount() { return edges.size(); }
    @Override public boolean integerKeys() { return integerKeys; }

    /**
     * Integer keys: the keys of the re-weighted edges are scattered into the edge list (O(k)), as long as the new
     * weights are integers too. Otherwise (rank keys, or a weight that is no longer an integer) the list is dropped
     * and uploaded again by the next MST query. The host edge list {@code edges} is the graph's cached one, which
     * the re-weights already patched.
     */
    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        return patchKeys(context, ledger, edgeList, edges, integerKeys, next, changes);
    }

    /**
     * The keys of the re-weighted edges scattered into {@code edgeList} (integer keys whose new weights are integers
     * too; O(k)): true; false where the list must be packed again instead. {@code edges} is the graph's cached
     * edge list, which the re-weights already patched on the host. {@link EclMst} patches its list the same way.
     */
    static boolean patchKeys(CudaContext context, AtomicLong ledger, DeviceBuffer edgeList, UndirectedEdges edges,
                             boolean integerKeys, CsrGraph next, ChangeLog.WeightChanges changes) {
        if (!integerKeys || changes.all() || next.directed() || !next.integralWeights() || next.wide()) return false;
        int[] arcs = changes.arcs(), ids = next.arcEdgeIds();
        int[] index = new int[arcs.length], key = new int[arcs.length];
        for (int i = 0; i < arcs.length; i++) {
            int id = ids[arcs[i]];
            index[i] = 4 * id + 2;   // (u, v, key, id) per edge
            key[i] = (int) edges.w[id];
        }
        Scatter.ints(context, ledger, edgeList, index, key);
        return true;
    }

    @Override
    public void close() {
        timer.close();
        counters.close();
        chosen.close();
        minKey.close();
        comp.close();
        listB.close();
        listA.close();
        edgeList.close();
    }
}
