package org.frontiergraph.kernels.apsp;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.GpuAlgorithm;
import org.frontiergraph.kernels.gpu.GpuLauncher;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * GPU APSP of paper 004 (§3.4; kernels in src/main/cuda/apsp.cu), on an n x n distance matrix in device memory:
 * <ul>
 *   <li>{@code floyd-warshall} (default; 004 Algorithm 6): one launch per k of n^2 threads (grid-stride), each
 *       relaxing D[i][j] through k. Option {@code blocked=1}: the tiled 3-phase Floyd–Warshall (32 x 32 tiles in
 *       shared memory) instead, not in the paper.</li>
 *   <li>{@code repeated-sssp} (004 Algorithm 7): 004's two-kernel SSSP (mask, cost, updating cost with atomicMin)
 *       from every source, written for this class (not the sssp module's kernels), run for a batch of sources at once
 *       (the batch's rows of the matrix are the cost arrays; one "changed" flag read back per iteration). Option
 *       {@code batch=N}: sources per batch (default: as many as fit in an eighth of free device memory, at most n);
 *       {@code batch=1} is 004's one-source-at-a-time loop.</li>
 * </ul>
 * Element type: int32 when weights are integral and (n - 1) * max |w| < 2^30, int64 when integral otherwise,
 * double else; integral weights thus give exact distances. The matrix is refused with {@link GraphTooLargeException}
 * when {@link ApspLimits} refuse the host-side answer or n^2 elements (plus scratch) exceed the device's free memory.
 * The CSR (offsets, columns, and the weights as doubles) is uploaded here from the host's version (O(m), against
 * the O(n^2) matrix it fills): APSP reads no device CSR, so it runs beside a slack-form copy without making it compact
 * ({@link GpuAlgorithm.Slack#EDGES}: opened again on the host's current version after a merge).
 * <p>
 * The distance matrix is allocated per query (after the memory check above) and freed after the copy back; the
 * launcher itself holds the weights as doubles. Reports counter {@code launches}.
 * <p>
 * Measured (H200, PrimApspGpuTest, device time): rome99 (3,353 vertices, int32): floyd-warshall 184 ms,
 * blocked=1 14 ms, repeated-sssp 27 ms; 5,000 vertices with fractional weights (double): 602 / 58 / 35 ms.
 */
final class GpuApsp implements GpuLauncher<ApspLimits, ApspResult> {
    static final GpuAlgorithm<ApspLimits, ApspResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of(CpuApsp.FLOYD_WARSHALL, CpuApsp.REPEATED_SSSP), false,
            g -> 4L * (g.vertexCount() + 1) + 12L * g.arcCount(), GpuApsp::new).reads(GpuAlgorithm.Layout.OWN).followingHost();
    /** Rows copied back per transfer. */
    private static final long COPY_ELEMENTS = 1L << 24;

    private final CudaContext context;
    private final AtomicLong ledger;
    private CsrGraph graph;
    private final DeviceBuffer rowOffsets, columns;
    private DeviceBuffer weights;

    private GpuApsp(DeviceGraph g) {
        this.context = g.context();
        this.ledger = g.ledger();
        this.graph = g.graph();
        DeviceBuffer r = null, c = null;
        try {
            r = DeviceBuffer.of(context, ledger, graph.rowOffsets());
            c = DeviceBuffer.of(context, ledger, graph.columns());
            this.weights = DeviceBuffer.of(context, ledger, graph.weights());
        } catch (RuntimeException e) {
            if (r != null) r.close();
            if (c != null) c.close();
            throw e;
        }
        this.rowOffsets = r;
        this.columns = c;
    }

    /** The device element type for {@code g}: "i32", "i64" or "f64". */
    static String elementType(CsrGraph g) {
        if (!g.integralWeights()) return "f64";
        double max = 0;
        for (double w : g.weights()) max = Math.max(max, Math.abs(w));
        double bound = max * Math.max(1, g.vertexCount() - 1);
        if (bound < (1 << 30)) return "i32";
        if (bound < 0x1p61) return "i64";
        return "f64";
    }

    @Override
    public ApspResult run(ApspLimits limits, Variant variant) {
        int n = graph.vertexCount();
        limits.check(n);
        if (n == 0) return new ApspResult(0, new double[0], new Timing(0, 0));
        String type = elementType(graph);
        int size = type.equals("i32") ? 4 : 8;
        long matrix = (long) size * n * n;
        boolean sssp = variant.name().equals("repeated-sssp");
        int[] batch = new int[1];
        long t0 = System.nanoTime();
        double[] out;
        long compute, launches;
        // the check and the matrix's allocation as one (the scratch, allocated later, fails cleanly if taken meanwhile)
        try (DeviceBuffer d = context.allocating(() -> allocateMatrix(n, type, size, matrix, sssp, variant, batch));
             DeviceTimer timer = new DeviceTimer(context)) {
            timer.start();
            if (!sssp) {
                launches = floydWarshall(d, n, type, variant.intOption("blocked", 0) != 0);
            } else {
                launches = repeatedSssp(d, n, type, batch[0], size);
            }
            timer.stop();
            compute = timer.elapsedNanos();
            out = download(d, n, type);
        }
        long wall = System.nanoTime() - t0;
        return new ApspResult(n, out, new Timing(compute, Math.max(0, wall - compute), Map.of("launches", launches)));
    }

    /**
     * The n x n matrix, once the device's free memory holds it and the scratch of the sources per batch (stored in
     * {@code batchOut[0]}) of repeated SSSP. @throws GraphTooLargeException when it does not
     */
    private DeviceBuffer allocateMatrix(int n, String type, int size, long matrix, boolean sssp, Variant variant,
                                        int[] batchOut) {
        long free = context.freeBytes();
        int batch = 0;
        long scratch = 0;
        if (sssp) {
            long perSource = (long) (size + 4) * n;
            int fit = (int) Math.max(1, Math.min(n, (free - matrix) / 8 / Math.max(1, perSource)));
            batch = Math.max(1, Math.min(n, variant.intOption("batch", fit)));
            scratch = perSource * batch + 4;
        }
        if (matrix + scratch > free - (64L << 20)) {
            throw new GraphTooLargeException(String.format(Locale.ROOT,
                    "APSP on %d vertices needs %.2f GB of device memory (%d x %d %s distances%s); %.2f GB free on %s",
                    n, (matrix + scratch) / 1e9, n, n, type, sssp ? " plus " + batch + " sources' scratch" : "",
                    free / 1e9, context.deviceName()));
        }
        batchOut[0] = batch;
        return DeviceBuffer.allocate(context, ledger, matrix);
    }

    private Kernel kernel(String name, String type) {
        return context.module("apsp").kernel(name + "_" + type);
    }

    private long init(DeviceBuffer d, int n, String type) {
        kernel("apsp_fill", type).launch(Kernel.blocksFor((long) n * n), n, d);
        kernel("apsp_arcs", type).launch(Kernel.blocksFor(n), n, rowOffsets, columns, weights, d);
        return 2;
    }

    private long floydWarshall(DeviceBuffer d, int n, String type, boolean blocked) {
        long launches = init(d, n, type);
        if (!blocked) {
            Kernel fw = kernel("fw_k", type);
            long blocks = Kernel.blocksFor((long) n * n);
            for (int k = 0; k < n; k++) fw.launch(blocks, n, k, d);
            return launches + n;
        }
        Kernel p1 = kernel("fw_p1", type), p2 = kernel("fw_p2", type), p3 = kernel("fw_p3", type);
        int tiles = (n + 31) / 32;
        for (int kb = 0; kb < tiles; kb++) {
            p1.launch(1, n, kb, d);
            p2.launch(2L * tiles, n, kb, tiles, d);
            p3.launch((long) tiles * tiles, n, kb, tiles, d);
        }
        return launches + 3L * tiles;
    }

    private long repeatedSssp(DeviceBuffer d, int n, String type, int batch, int size) {
        long launches = 0;
        Kernel initK = kernel("sssp_init", type), relax = kernel("sssp_relax", type), update = kernel("sssp_update", type);
        try (DeviceBuffer u = DeviceBuffer.allocate(context, ledger, (long) size * batch * n);
             DeviceBuffer m = DeviceBuffer.allocate(context, ledger, 4L * batch * n);
             DeviceBuffer flag = DeviceBuffer.allocate(context, ledger, 4)) {
            int[] f = new int[1];
            for (int s0 = 0; s0 < n; s0 += batch) {
                int cnt = Math.min(batch, n - s0);
                long blocks = Kernel.blocksFor((long) cnt * n);
                initK.launch(blocks, n, s0, cnt, d, u, m);
                launches++;
                do {
                    flag.fill32(0, 1, 0);
                    relax.launch(blocks, n, s0, cnt, rowOffsets, columns, weights, d, u, m);
                    update.launch(blocks, n, s0, cnt, d, u, m, flag);
                    launches += 2;
                    flag.download(f);
                } while (f[0] != 0);
            }
        }
        return launches;
    }

    private double[] download(DeviceBuffer d, int n, String type) {
        long total = (long) n * n;
        double[] out = new double[(int) total];
        int chunk = (int) Math.min(total, COPY_ELEMENTS);
        if (type.equals("i32")) {
            int[] buf = new int[chunk];
            for (long at = 0; at < total; at += chunk) {
                int len = (int) Math.min(chunk, total - at);
                if (len < buf.length) buf = new int[len];
                d.download(at, buf);
                for (int i = 0; i < len; i++) out[(int) (at + i)] = buf[i] == Integer.MAX_VALUE ? Double.POSITIVE_INFINITY : buf[i];
            }
        } else {
            long[] buf = new long[chunk];
            boolean f64 = type.equals("f64");
            for (long at = 0; at < total; at += chunk) {
                int len = (int) Math.min(chunk, total - at);
                if (len < buf.length) buf = new long[len];
                d.download(at, buf);
                for (int i = 0; i < len; i++) {
                    long x = buf[i];
                    out[(int) (at + i)] = f64 ? Double.longBitsToDouble(x)
                            : x == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : (double) x;
                }
            }
        }
        return out;
    }

    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        graph = next;
        weights.upload(next.weights());
        return true;
    }

    @Override
    public void close() {
        weights.close();
        columns.close();
        rowOffsets.close();
    }
}
