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
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * GPU Prim of paper 000 (kernels in src/main/cuda/mst_prim.cu), on the undirected graph underneath
 * ({@link CsrGraph#undirectedEdges()}), as an int2-packed compact adjacency list (A[v] = (degree, offset),
 * B[a] = (target, weight key), plus the edge id of every arc).
 * <ul>
 *   <li>{@code prim-gmr}: the paper's algorithm. MST edge list R1/R2/R3 by position with a shrinking search section
 *       R3'; per step the GMR primitive (Kernel1, plus Kernel2 when Kernel1 used more than one block: at most two
 *       kernels for any length; the last one's thread 0 moves the winner to the head of the section and writes C),
 *       then Kernel3 compares and updates R1/R3 from the arcs C->n. Option {@code blocks=N}: MAX_BLOCKS of the GMR
 *       (default 128, the paper's best).</li>
 *   <li>{@code prim-naive}: the paper's non-primitive GPU Prim: the same update kernel, but the minimum is found by
 *       every thread atomicMin-ing its local minimum into one global word over vertex-indexed arrays (no two-level
 *       shared-memory reduction, no shrinking section), then a one-thread kernel adds the vertex.</li>
 * </ul>
 * Deviations from 000: blocks are 256 threads (the project's {@link Kernel#BLOCK}, not the paper's 128; the grid,
 * MAX_BLOCKS, is 128 as in the paper); the min key is 64-bit (weight key << 32 | edge id) so that ties go to the
 * smaller edge id and the forest is the unique one ({@link KruskalReference}'s); the weight key is the integer weight
 * when weights are integers in 0..2^31-1, else the weight's rank among the distinct weights (exact order for any
 * doubles). A forest: when the search section holds only INF keys, the tree cannot grow and the entry at the head of
 * the section becomes the root of the next tree, so the loop is always n steps (the paper: |V| - 2 steps for a
 * connected graph) with 2 or 3 launches each and no host round trip. Chosen edges come back at the end; ids are
 * sorted ascending and the total is summed with {@link ExactSum}. It reads no CSR of the device, only the adjacency
 * it builds from the host's version ({@link GpuAlgorithm.Slack#EDGES}): beside a device copy in slack form it follows
 * the host's versions (re-weights rebuild it, merges open it again) and the copy stays as it is.
 * <p>
 * Measured (H200, JCuda, PrimApspGpuTest, best of 3, device events): GTgraph 2^14 vertices / 2^15 edges: prim-gmr
 * 519 ms, prim-naive 419 ms, CPU Prim 6.6 ms; 2^7: 3.0 / 3.6 / 0.17 ms; USA-road-d.NY (264,346 vertices): 8.7 s /
 * 8.3 s / 80 ms. Both GPU forms cost about 25-32 us per step (three launches, each a few threads' work): launch-bound,
 * so the paper's 3x of GMR over the non-primitive form and its 2x over Boost do not reproduce on this hardware.
 * Reports counter {@code launches}.
 */
final class GpuPrim implements GpuLauncher<WholeGraph, MstResult> {
    static final GpuAlgorithm<WholeGraph, MstResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("prim-gmr", "prim-naive"), false, GpuPrim::deviceBytes, GpuPrim::new)
            .reads(GpuAlgorithm.Layout.OWN).followingHost();   // its own adjacency, built from the host's version: no CSR read
    /** The paper's best grid size for the GMR kernels. */
    public static final int MAX_BLOCKS = 128;

    private final CudaContext context;
    private final AtomicLong ledger;
    private CsrGraph graph;
    private UndirectedEdges edges;
    private DeviceBuffer a, b, bid, eu, ev;
    private int maxDegree;

    private GpuPrim(DeviceGraph g) {
        this.context = g.context();
        this.ledger = g.ledger();
        upload(g.graph());
    }

    /**
     * Device bytes: the adjacency list (A: 8 per vertex; B and the arc edge ids: 12 per arc, two arcs per edge; the
     * edge end points: 8 per edge) and the larger of the two forms' per-run buffers (prim-gmr: R1, R2, R3, pos,
     * C and the GMR's per-block scratch).
     */
    private static long deviceBytes(CsrGraph g) {
        long n = g.vertexCount(), m = g.directed() ? g.arcCount() : g.edgeCount();
        return 8 * n + 24 * m + 8 * m + 20 * n + 4 + 12L * MAX_BLOCKS;
    }

    private void upload(CsrGraph g) {
        this.graph = g;
        this.edges = g.undirectedEdges();
        int n = g.vertexCount(), m = edges.size();
        int[] keys = weightKeys(edges, g.integralWeights());
        int[] deg = new int[n];
        for (int i = 0; i < m; i++) {
            deg[edges.u[i]]++;
            deg[edges.v[i]]++;
        }
        int[] av = new int[2 * n];
        int off = 0;
        maxDegree = 0;
        for (int v = 0; v < n; v++) {
            av[2 * v] = deg[v];
            av[2 * v + 1] = off;
            off += deg[v];
            maxDegree = Math.max(maxDegree, deg[v]);
        }
        int[] fill = new int[n];
        int[] bv = new int[2 * off];
        int[] ids = new int[off];
        for (int i = 0; i < m; i++) {
            int x = edges.u[i], y = edges.v[i];
            int p = av[2 * x + 1] + fill[x]++;
            bv[2 * p] = y;
            bv[2 * p + 1] = keys[i];
            ids[p] = i;
            p = av[2 * y + 1] + fill[y]++;
            bv[2 * p] = x;
            bv[2 * p + 1] = keys[i];
            ids[p] = i;
        }
        closeGraph();
        DeviceBuffer[] made = DeviceBuffer.allocateAll(context, ledger, 4L * av.length, 4L * bv.length, 4L * ids.length,
                4L * m, 4L * m);
        made[0].upload(av);
        made[1].upload(bv);
        made[2].upload(ids);
        made[3].upload(edges.u);
        made[4].upload(edges.v);
        a = made[0];
        b = made[1];
        bid = made[2];
        eu = made[3];
        ev = made[4];
    }

    /** Integer weight keys ordering edges exactly as their weights: the weights themselves, or their ranks. */
    static int[] weightKeys(UndirectedEdges edges, boolean integral) {
        int m = edges.size();
        double[] w = edges.w;
        boolean ints = integral;
        for (int i = 0; ints && i < m; i++) ints = w[i] == Math.rint(w[i]) && w[i] >= 0 && w[i] <= Integer.MAX_VALUE;
        int[] keys = new int[m];
        if (ints) {
            for (int i = 0; i < m; i++) keys[i] = (int) w[i];
            return keys;
        }
        double[] sorted = w.clone();
        Arrays.sort(sorted);
        int d = 0;
        for (int i = 0; i < m; i++) if (d == 0 || Double.compare(sorted[i], sorted[d - 1]) != 0) sorted[d++] = sorted[i];
        double[] distinct = Arrays.copyOf(sorted, d);
        for (int i = 0; i < m; i++) keys[i] = Arrays.binarySearch(distinct, w[i]);
        return keys;
    }

    @Override
    public MstResult run(WholeGraph query, Variant variant) {
        int n = graph.vertexCount();
        if (n == 0) return new MstResult(new int[0], 0.0, 0, new Timing(0, 0));
        int maxBlocks = Math.max(1, variant.intOption("blocks", MAX_BLOCKS));
        int k3Blocks = (int) Math.max(1, Math.min(maxBlocks, (maxDegree + Kernel.BLOCK - 1) / Kernel.BLOCK));
        long t0 = System.nanoTime();
        int[] ids;
        long compute, launches;
        try (DeviceTimer timer = new DeviceTimer(context)) {
            if (variant.name().equals("prim-gmr")) {
                try (DeviceBuffer r1 = DeviceBuffer.allocate(context, ledger, 4L * n);
                     DeviceBuffer r2 = DeviceBuffer.allocate(context, ledger, 4L * n);
                     DeviceBuffer r3 = DeviceBuffer.allocate(context, ledger, 8L * n);
                     DeviceBuffer pos = DeviceBuffer.allocate(context, ledger, 4L * n);
                     DeviceBuffer c = DeviceBuffer.allocate(context, ledger, 4);
                     DeviceBuffer t1 = DeviceBuffer.allocate(context, ledger, 8L * maxBlocks);
                     DeviceBuffer t2 = DeviceBuffer.allocate(context, ledger, 4L * maxBlocks)) {
                    Kernel init = context.module("mst_prim").kernel("prim_init");
                    Kernel k1 = context.module("mst_prim").kernel("prim_gmr_kernel1");
                    Kernel k2 = context.module("mst_prim").kernel("prim_gmr_kernel2");
                    Kernel k3 = context.module("mst_prim").kernel("prim_kernel3");
                    timer.start();
                    init.launch(Kernel.blocksFor(n), n, r1, r2, r3, pos);
                    launches = 1;
                    for (int k = 0; k < n; k++) {
                        int len = n - k;
                        int blocks = (int) Math.min(maxBlocks, (len + Kernel.BLOCK - 1) / Kernel.BLOCK);
                        k1.launch(blocks, k, n, r1, r2, r3, pos, c, t1, t2);
                        launches++;
                        if (blocks > 1) {
                            k2.launch(1, k, blocks, r1, r2, r3, pos, c, t1, t2);
                            launches++;
                        }
                        if (k + 1 < n) {
                            k3.launch(k3Blocks, k + 1, a, b, bid, r1, r3, pos, c);
                            launches++;
                        }
                    }
                    timer.stop();
                    compute = timer.elapsedNanos();
                    long[] keys = new long[n];
                    r3.download(keys);
                    ids = chosenIds(keys);
                }
            } else {
                try (DeviceBuffer key = DeviceBuffer.allocate(context, ledger, 8L * n);
                     DeviceBuffer parent = DeviceBuffer.allocate(context, ledger, 4L * n);
                     DeviceBuffer inTree = DeviceBuffer.allocate(context, ledger, 4L * n);
                     DeviceBuffer mins = DeviceBuffer.allocate(context, ledger, 16);
                     DeviceBuffer c = DeviceBuffer.allocate(context, ledger, 4);
                     DeviceBuffer chosen = DeviceBuffer.allocate(context, ledger, 4L * n)) {
                    Kernel init = context.module("mst_prim").kernel("naive_init");
                    Kernel min = context.module("mst_prim").kernel("naive_min");
                    Kernel add = context.module("mst_prim").kernel("naive_add");
                    Kernel update = context.module("mst_prim").kernel("naive_update");
                    int minBlocks = (int) Math.min(maxBlocks, Kernel.blocksFor(n));
                    timer.start();
                    init.launch(Kernel.blocksFor(n), n, key, parent, inTree, mins);
                    for (int k = 0; k < n; k++) {
                        min.launch(minBlocks, n, key, inTree, mins);
                        add.launch(1, k, eu, ev, inTree, mins, c, chosen);
                        if (k + 1 < n) update.launch(k3Blocks, a, b, bid, key, parent, inTree, c);
                    }
                    timer.stop();
                    compute = timer.elapsedNanos();
                    launches = 1 + 3L * n - 1;
                    int[] ch = new int[n];
                    chosen.download(ch);
                    ids = Arrays.stream(ch).filter(x -> x >= 0).sorted().toArray();
                }
            }
        }
        double total = ExactSum.of(edges.w, ids);
        long wall = System.nanoTime() - t0;
        // launches: about 2-3 per vertex (Prim is n sequential steps)
        return new MstResult(ids, total, n - ids.length, new Timing(compute, Math.max(0, wall - compute),
                Map.of("launches", launches)));
    }

    private static int[] chosenIds(long[] keys) {
        int count = 0;
        for (long k : keys) if (k != -1L) count++;
        int[] ids = new int[count];
        int j = 0;
        for (long k : keys) if (k != -1L) ids[j++] = (int) (k & 0xffffffffL);
        Arrays.sort(ids);
        return ids;
    }

    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        upload(next);
        return true;
    }

    private void closeGraph() {
        for (DeviceBuffer x : new DeviceBuffer[] {ev, eu, bid, b, a}) if (x != null) x.close();
        a = b = bid = eu = ev = null;
    }

    @Override
    public void close() {
        closeGraph();
    }
}
