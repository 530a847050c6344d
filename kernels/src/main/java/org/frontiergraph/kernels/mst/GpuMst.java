package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceTimer;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * GPU MST launcher (kernels in src/main/cuda/mst.cu): Boruvka with (weight, edge id) keys and a lock-free
 * union-find, in one cooperative launch. The undirected edge list is uploaded once, on the first MST query of a
 * graph version. The chosen edges come back as one bit per edge id, so ids are ascending; the total is summed on
 * the host with {@link ExactSum}. Variant {@code boruvka}, option {@code bps=N}. Call inside
 * {@link CudaContext#call}.
 */
public final class GpuMst implements AutoCloseable {
    public static final List<String> VARIANTS = List.of("boruvka");

    private final CudaContext context;
    private final CsrGraph graph;
    private final UndirectedEdges edges;
    private final DeviceBuffer edgeList, listA, listB, comp, minKey, chosen, counters;
    private final DeviceTimer timer;
    private long lastRounds;

    public GpuMst(CudaContext context, AtomicLong ledger, CsrGraph graph) {
        this.context = context;
        this.graph = graph;
        this.edges = graph.undirectedEdges();
        int m = edges.size();
        long n = graph.vertexCount();
        int[] packed = pack(edges, graph.integralWeights());
        DeviceBuffer e = null, a = null, b = null, c = null, k = null, ch = null, ctr = null;
        try {
            e = DeviceBuffer.of(context, ledger, packed);
            a = DeviceBuffer.allocate(context, ledger, 16L * m);
            b = DeviceBuffer.allocate(context, ledger, 16L * m);
            c = DeviceBuffer.allocate(context, ledger, 4 * n);
            k = DeviceBuffer.allocate(context, ledger, 8 * n);
            ch = DeviceBuffer.allocate(context, ledger, 4L * ((m + 31) / 32));
            ctr = DeviceBuffer.allocate(context, ledger, 8 * 16);
        } catch (RuntimeException ex) {
            for (DeviceBuffer x : new DeviceBuffer[] {ctr, ch, k, c, b, a, e}) if (x != null) x.close();
            throw ex;
        }
        edgeList = e;
        listA = a;
        listB = b;
        comp = c;
        minKey = k;
        chosen = ch;
        counters = ctr;
        timer = new DeviceTimer(context);
    }

    /** Device bytes the MST structures of {@code g} take. */
    public static long bytesFor(CsrGraph g) {
        long m = g.directed() ? g.arcCount() : g.edgeCount();
        return 48L * m + 12L * g.vertexCount() + m / 8 + 256;
    }

    /**
     * (u, v, weight key, id) per edge. The weight key is the integer weight when weights are integers below 2^31,
     * else the rank of the weight among the distinct weights: either way keys order edges as (weight, id) does.
     */
    static int[] pack(UndirectedEdges edges, boolean integral) {
        int m = edges.size();
        double[] w = edges.w;
        boolean ints = integral;
        for (int i = 0; ints && i < m; i++) ints = w[i] == Math.rint(w[i]) && w[i] >= 0 && w[i] <= Integer.MAX_VALUE;
        double[] distinct = null;
        if (!ints) {
            double[] sorted = w.clone();
            Arrays.sort(sorted);
            int d = 0;
            for (int i = 0; i < m; i++) if (i == 0 || Double.compare(sorted[i], sorted[d - 1]) != 0) sorted[d++] = sorted[i];
            distinct = Arrays.copyOf(sorted, d);
        }
        int[] packed = new int[4 * m];
        for (int i = 0; i < m; i++) {
            packed[4 * i] = edges.u[i];
            packed[4 * i + 1] = edges.v[i];
            packed[4 * i + 2] = ints ? (int) w[i] : Arrays.binarySearch(distinct, w[i]);
            packed[4 * i + 3] = i;
        }
        return packed;
    }

    public MstResult run(String variantText) {
        Variant variant = Variant.parse("MST", variantText, "boruvka", VARIANTS);
        int n = graph.vertexCount();
        int m = edges.size();
        timer.start();
        if (m > 0) {
            context.module("mst").kernel("mst_boruvka").launchCooperative(variant.intOption("bps", 64), edgeList,
                    (long) m, n, listA, listB, comp, minKey, chosen, counters);
        }
        timer.stop();
        long compute = timer.elapsedNanos();
        long t0 = System.nanoTime();
        int[] bits = new int[(m + 31) / 32];
        if (m > 0) chosen.download(bits);
        int count = 0;
        for (int word : bits) count += Integer.bitCount(word);
        int[] ids = new int[count];
        int j = 0;
        for (int i = 0; i < bits.length; i++) {
            int word = bits[i];
            while (word != 0) {
                ids[j++] = 32 * i + Integer.numberOfTrailingZeros(word);
                word &= word - 1;
            }
        }
        if (m > 0) {
            long[] c = new long[16];
            counters.download(c);
            lastRounds = c[2];
        }
        double total = ExactSum.of(edges.w, ids);
        return new MstResult(ids, total, n - count, new Timing(compute, System.nanoTime() - t0));
    }

    /** Boruvka rounds of the last run. */
    public long lastRounds() { return lastRounds; }

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
