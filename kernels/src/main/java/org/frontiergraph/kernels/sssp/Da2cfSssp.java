package org.frontiergraph.kernels.sssp;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.KernelModule;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Martin, Torres and Gavilanes' DA2CF (paper 003; kernels in src/main/cuda/sssp_da2cf.cu): Dijkstra adapted to
 * compound frontiers, a host loop of relax, minimum and update until the minimum of the unresolved estimates is
 * infinite. Variants:
 * <ul>
 *   <li>{@code da2cf-f}: relax_F (frontier vertices relax their unresolved successors with atomicMin), F^GPU;</li>
 *   <li>{@code da2cf-u}: relax_U (unresolved vertices read their predecessors from the transposed CSR, made once
 *       per version on first use: the CSR itself on an undirected graph, the host's transpose uploaded on a compact
 *       directed copy, and on a directed slack-form copy built on the device from its live arcs; no atomics),
 *       U^GPU;</li>
 *   <li>{@code da2cf-u-plus}: relax_U with v[i+1] through shared memory and f through the read-only cache,
 *       U^GPU_PLUS;</li>
 *   <li>{@code da2cf-f-matrix}, {@code da2cf-u-matrix}: the same on an n x n weight matrix built on the device from
 *       the CSR on first use (section 5's dense graphs); refused with {@link GraphTooLargeException} above
 *       {@link #MAX_MATRIX_VERTICES} vertices or when the matrix does not fit in free device memory.</li>
 * </ul>
 * Option {@code passes=1|2} (default 1): minimum1 alone, the host minimising one value per block (U^GPU), or
 * minimum1 then minimum2 on the GPU (U^GPU+2min). The minimum is 003's mssp: the least estimate c[i] over
 * unresolved vertices (003 has no other term); update moves unresolved vertices with c[i] <= mssp (== mssp) into
 * the frontier. Exact integer distances (int64 keys) when the graph's weights are integral (as DeviceCsr decides),
 * otherwise the bits of non-negative doubles with 64-bit atomicMin, the same correctly rounded sums as the CPU.
 * Parents after convergence (a tight arc into each vertex; a host BFS over tight arcs when some weight is 0).
 * Reports counter {@code iterations}: relax/minimum rounds. Call inside a lane's call
 * ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
final class Da2cfSssp implements GpuLauncher<Source, SsspResult> {
    static final GpuAlgorithm<Source, SsspResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("da2cf-f", "da2cf-u", "da2cf-u-plus", "da2cf-f-matrix", "da2cf-u-matrix"), false,
            g -> DeviceBuffer.total(sizes(g.vertexCount())), Da2cfSssp::new).reads(GpuAlgorithm.Layout.ANY);   // relax_U's transpose: deviceTranspose
    /** Largest graph the matrix forms take (a 32768^2 int32 matrix is 4 GiB). */
    public static final int MAX_MATRIX_VERTICES = 32768;
    static final long RESERVE_BYTES = 256L << 20;
    private static final int REDUCE_SPAN = 2 * Kernel.BLOCK;

    private final CudaContext context;
    private final AtomicLong ledger;
    private CsrGraph graph;
    private final DeviceCsr csr;
    private final int n;
    private final int blocks1, blocks2;
    private final DeviceBuffer c, f, u, parents, minimums1, minimums2;
    private final DeviceTimer timer;
    /** Transposed CSR for relax_U (null until first used; the CSR's own buffers for undirected graphs). */
    private DeviceBuffer tRows, tCols, tWeights;
    private boolean tOwned;
    private DeviceBuffer matrix;
    private boolean matrixInts;

    private Da2cfSssp(DeviceGraph g) {
        this.context = g.context();
        this.ledger = g.ledger();
        this.graph = g.graph();
        this.csr = g.csr();
        this.n = graph.vertexCount();
        blocks1 = blocks1(n);
        blocks2 = blocks2(blocks1);
        DeviceBuffer[] made = g.allocate(sizes(n));
        c = made[0];
        f = made[1];
        u = made[2];
        parents = made[3];
        minimums1 = made[4];
        minimums2 = made[5];
        timer = new DeviceTimer(context);
    }

    private static int blocks1(int n) {
        return (int) Math.max(1, Math.min((n + REDUCE_SPAN - 1L) / REDUCE_SPAN, 1 << 16));
    }

    private static int blocks2(int blocks1) {
        return Math.max(1, (blocks1 + REDUCE_SPAN - 1) / REDUCE_SPAN);
    }

    /** Device bytes of c, f, u, the parents and the two minimum arrays, in that order (the transposed CSR and the
     *  matrix forms are allocated, and checked against free memory, on first use). */
    private static long[] sizes(int n) {
        int b1 = blocks1(n);
        return new long[] {8L * n, 4L * n, 4L * n, 4L * n, 8L * b1, 8L * blocks2(b1)};
    }

    @Override
    public SsspResult run(Source query, Variant variant) {
        int source = query.vertex();
        SeedSssp.checkSource(source, n);
        int passes = variant.intOption("passes", 1);
        if (passes != 1 && passes != 2) {
            throw new UnsupportedVariantException("SSSP", variant.name() + ",passes=" + passes + " (passes is 1 or 2)",
                    GpuBackend.NAME, IMPLEMENTATION.variants());
        }
        String name = variant.name();
        boolean matrixForm = name.endsWith("-matrix");
        boolean ints = csr.intWeights();
        KeyForm form = KeyForm.weights(ints);
        KernelModule module = context.module("sssp_da2cf");
        if (matrixForm) ensureMatrix(module, ints);
        else if (name.startsWith("da2cf-u")) ensureTranspose(ints);
        Kernel relax;
        Object[] relaxArgs;
        long relaxBlocks = Kernel.blocksFor(n);
        switch (name) {
            case "da2cf-f" -> {
                relax = module.kernel(form.entry("da2cf_relax_f"));
                relaxArgs = new Object[] {csr.rowOffsets, csr.columns, csr.weights(), n, c, f, u};
            }
            case "da2cf-u" -> {
                relax = module.kernel(form.entry("da2cf_relax_u"));
                relaxArgs = new Object[] {tRows, tCols, tWeights, n, c, f, u};
            }
            case "da2cf-u-plus" -> {
                relax = module.kernel(form.entry("da2cf_relax_u_plus"));
                relaxArgs = new Object[] {tRows, tCols, tWeights, n, c, f, u};
                relaxBlocks = (n + Kernel.BLOCK - 1L) / Kernel.BLOCK;  // one thread per vertex, no grid stride
            }
            case "da2cf-f-matrix" -> {
                relax = module.kernel(form.entry("da2cf_relax_f_matrix"));
                relaxArgs = new Object[] {matrix, n, c, f, u};
            }
            case "da2cf-u-matrix" -> {
                relax = module.kernel(form.entry("da2cf_relax_u_matrix"));
                relaxArgs = new Object[] {matrix, n, c, f, u};
            }
            default -> throw new UnsupportedVariantException("SSSP", name, GpuBackend.NAME, IMPLEMENTATION.variants());
        }
        Kernel minimum1 = module.kernel("da2cf_minimum1");
        Kernel minimum2 = module.kernel("da2cf_minimum2");
        Kernel update = module.kernel("da2cf_update");
        long blocks = Kernel.blocksFor(n);
        long[] partial = new long[passes == 1 ? blocks1 : blocks2];
        timer.start();
        module.kernel(form.entry("da2cf_init")).launch(blocks, n, c, f, u, source);
        long iterations = 0;
        while (true) {
            relax.launch(relaxBlocks, relaxArgs);
            minimum1.launch(blocks1, c, u, n, minimums1);
            if (passes == 2) {
                minimum2.launch(blocks2, minimums1, blocks1, minimums2);
                minimums2.download(partial);
            } else {
                minimums1.download(partial);
            }
            long mssp = -1L;  // unsigned maximum
            for (long k : partial) if (Long.compareUnsigned(k, mssp) < 0) mssp = k;
            iterations++;
            if (SeedSssp.isInfinite(mssp, ints)) break;
            update.launch(blocks, n, c, f, u, mssp);
        }
        long[] keys = new long[n];
        c.download(keys);
        double[] d = SeedSssp.distances(keys, ints);
        int[] p = SeedSssp.parents(module, form.entry("da2cf_parents"), csr, graph, c, parents, d, source);
        timer.stop();
        long compute = timer.elapsedNanos();
        // iterations: rounds of relax + minimum (+ update), the last one finding no reachable unresolved vertex
        return new SsspResult(source, d, p, new Timing(compute, 0, Map.of("iterations", iterations)));
    }

    private void ensureTranspose(boolean ints) {
        if (tRows != null) return;
        if (!graph.directed()) {
            tRows = csr.rowOffsets;
            tCols = csr.columns;
            tWeights = csr.weights();
            tOwned = false;
            return;
        }
        if (csr.slack()) {   // the host's version may be ahead of the launcher's: the copy's own arcs, transposed there
            deviceTranspose(ints);
            return;
        }
        CsrGraph t = graph.transpose();
        DeviceBuffer r = null, col = null;
        try {
            r = DeviceBuffer.of(context, ledger, t.rowOffsets());
            col = DeviceBuffer.of(context, ledger, t.columns());
            tWeights = SeedSssp.weights(context, ledger, t, ints);
        } catch (RuntimeException e) {
            if (col != null) col.close();
            if (r != null) r.close();
            throw e;
        }
        tRows = r;
        tCols = col;
        tOwned = true;
    }

    /**
     * relax_U's transpose built on the device from the copy's live arcs (graph.cu's transpose_count and _fill): the
     * in-degrees counted there, their offsets summed here (n ints each way), the in-arcs scattered there. Weights in
     * the copy's form.
     */
    private void deviceTranspose(boolean ints) {
        int n = csr.vertexCount;
        KernelModule graphModule = context.module("graph");
        Object live = csr.liveBuffer();
        DeviceBuffer r = null, col = null, w = null;
        try (DeviceBuffer cursor = DeviceBuffer.allocate(context, ledger, 4L * (n + 1))) {
            cursor.fill32(0, n + 1, 0);
            graphModule.kernel("transpose_count").launch(Kernel.blocksFor(32L * n), csr.rowOffsets, csr.columns, live, n,
                    cursor);
            int[] rows = new int[n + 1];
            cursor.download(0, rows);   // the counts, into rows[0, n)
            int at = 0;
            for (int v = 0; v < n; v++) {
                int c = rows[v];
                rows[v] = at;
                at += c;
            }
            rows[n] = at;
            r = DeviceBuffer.of(context, ledger, rows);
            cursor.upload(java.util.Arrays.copyOf(rows, n));
            col = DeviceBuffer.allocate(context, ledger, 4L * Math.max(1, at));
            w = DeviceBuffer.allocate(context, ledger, (ints ? 4L : 8L) * Math.max(1, at));
            graphModule.kernel(KeyForm.weights(ints).entry("transpose_fill")).launch(Kernel.blocksFor(32L * n),
                    csr.rowOffsets, csr.columns, csr.weights(), live, n, cursor, col, w);
            context.synchronize();   // before the cursor is freed
        } catch (RuntimeException e) {
            for (DeviceBuffer b : new DeviceBuffer[] {w, col, r}) if (b != null) b.close();
            throw e;
        }
        tRows = r;
        tCols = col;
        tWeights = w;
        tOwned = true;
    }

    private void ensureMatrix(KernelModule module, boolean ints) {
        if (matrix != null && matrixInts == ints) return;
        closeMatrix();
        if (n > MAX_MATRIX_VERTICES) {
            throw new GraphTooLargeException("the DA2CF matrix forms take at most " + MAX_MATRIX_VERTICES
                    + " vertices; this graph has " + n);
        }
        long cells = (long) n * n;
        long bytes = cells * (ints ? 4L : 8L);
        DeviceBuffer m = context.allocating(() -> {   // the check and the allocation as one
            long free = context.freeBytes();
            if (bytes + RESERVE_BYTES > free) {
                throw new GraphTooLargeException("the DA2CF " + n + " x " + n + " weight matrix needs " + bytes
                        + " bytes on " + context.deviceName() + " but only " + free + " are free");
            }
            return DeviceBuffer.allocate(context, ledger, bytes);
        });
        KeyForm form = KeyForm.weights(ints);
        module.kernel(form.entry("da2cf_matrix_fill")).launch(Kernel.blocksFor(cells), cells, m);
        module.kernel(form.entry("da2cf_matrix_scatter")).launch(Kernel.blocksFor(n), csr.rowOffsets, csr.columns,
                csr.weights(), n, m);
        matrix = m;
        matrixInts = ints;
    }

    private void closeMatrix() {
        if (matrix != null) matrix.close();
        matrix = null;
    }

    private void closeTranspose() {
        if (tOwned) {
            tWeights.close();
            tCols.close();
            tRows.close();
        }
        tRows = tCols = tWeights = null;
        tOwned = false;
    }

    /** New weights, same arcs: the matrix and the transposed weights are rebuilt on next use. */
    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        graph = next;
        closeMatrix();
        closeTranspose();
        return true;
    }

    @Override
    public void close() {
        closeMatrix();
        closeTranspose();
        timer.close();
        minimums2.close();
        minimums1.close();
        parents.close();
        u.close();
        f.close();
        c.close();
    }
}
