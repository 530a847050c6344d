package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.KernelModule;
import org.frontiergraph.kernels.graph.CsrGraph;

/** Host side shared by the seed-paper SSSP launchers (keys of src/main/cuda/seeds.cuh, parents). */
final class SeedSssp {
    /** The integer key of an unreached vertex (the f64 form uses the bits of +infinity). */
    static final long INT_INF = -1L;
    static final long DOUBLE_INF = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);

    private SeedSssp() {}

    static long infKey(boolean ints) { return ints ? INT_INF : DOUBLE_INF; }

    /** Unsigned comparison of keys: true when k is INF or above (no unresolved reachable vertex). */
    static boolean isInfinite(long k, boolean ints) {
        return Long.compareUnsigned(k, infKey(ints)) >= 0;
    }

    /** The distances of the first {@code n} keys in {@code keys} (on the device), converted as they arrive. */
    static double[] distances(DeviceBuffer keys, int n, boolean ints) {
        double[] d = new double[n];
        keys.download(d, ints ? k -> k == INT_INF ? Double.POSITIVE_INFINITY : (double) k : Double::longBitsToDouble);
        return d;
    }

    static double[] distances(long[] keys, boolean ints) {
        double[] d = new double[keys.length];
        for (int v = 0; v < keys.length; v++) {
            long k = keys[v];
            d[v] = ints ? (k == INT_INF ? Double.POSITIVE_INFINITY : (double) k) : Double.longBitsToDouble(k);
        }
        return d;
    }

    /**
     * Parents after convergence: {@code module}'s kernel {@code entryPoint} ({@code <prefix>_parents_<i32|f64>}: some u
     * with dist[u] + w == dist[v]), or, with zero weights (tight cycles possible), a BFS over tight arcs on the host.
     */
    static int[] parents(KernelModule module, String entryPoint, DeviceCsr csr, CsrGraph graph,
                         DeviceBuffer dist, DeviceBuffer parents, double[] d, int source) {
        int n = graph.vertexCount();
        int[] p = new int[n];
        if (csr.zeroWeights()) {
            tightTree(graph, d, source, p);
        } else {
            parents.fill32(0, n, -1);
            module.kernel(entryPoint).launch(Kernel.blocksFor(n),
                    csr.rowOffsets, csr.columns, csr.weights(), n, dist, parents, source);
            parents.download(p);
        }
        p[source] = source;
        return p;
    }

    static void tightTree(CsrGraph graph, double[] d, int source, int[] p) {
        if (graph.wide()) {
            wideTightTree(graph, d, source, p);
            return;
        }
        Arrays.fill(p, SsspResult.NO_PARENT);
        int[] off = graph.rowOffsets(), col = graph.columns();
        double[] w = graph.weights();
        int[] queue = new int[graph.vertexCount()];
        int head = 0, tail = 0;
        queue[tail++] = source;
        p[source] = source;
        while (head < tail) {
            int u = queue[head++];
            for (int e = off[u]; e < off[u + 1]; e++) {
                int v = col[e];
                if (p[v] == SsspResult.NO_PARENT && d[u] + w[e] == d[v]) {
                    p[v] = u;
                    queue[tail++] = v;
                }
            }
        }
    }

    /** {@link #tightTree} of a graph stored wide: its arcs read by 64-bit index ({@link CsrGraph#targetAt}). */
    private static void wideTightTree(CsrGraph graph, double[] d, int source, int[] p) {
        Arrays.fill(p, SsspResult.NO_PARENT);
        int[] queue = new int[graph.vertexCount()];
        int head = 0, tail = 0;
        queue[tail++] = source;
        p[source] = source;
        while (head < tail) {
            int u = queue[head++];
            for (long e = graph.rowStartLong(u), end = graph.rowEndLong(u); e < end; e++) {
                int v = graph.targetAt(e);
                if (p[v] == SsspResult.NO_PARENT && d[u] + graph.weightAt(e) == d[v]) {
                    p[v] = u;
                    queue[tail++] = v;
                }
            }
        }
    }

    /** Weights of {@code g} in the device form {@code csr} uses (int32 when csr.intWeights(), else doubles). */
    static DeviceBuffer weights(CudaContext context, AtomicLong ledger, CsrGraph g, boolean ints) {
        double[] w = g.weights();
        if (!ints) return DeviceBuffer.of(context, ledger, w);
        int[] iw = new int[w.length];
        for (int i = 0; i < w.length; i++) iw[i] = (int) w[i];
        return DeviceBuffer.of(context, ledger, iw);
    }

    /** Arcs per vertex, at least 1. */
    static double meanDegree(CsrGraph g) {
        return Math.max(1.0, (double) g.arcs() / Math.max(1, g.vertexCount()));
    }

    /**
     * Fewer than 8 arcs per vertex (road-like): the delta-stepping launchers pick their sparse-graph tuning by it,
     * and it is where the asynchronous scheme won on an H200 (NY), the rule for making {@code async} the default there.
     */
    static boolean sparse(CsrGraph g) {
        return meanDegree(g) < SPARSE_DEGREE;
    }

    /** Mean degree below which a graph is sparse. */
    static final int SPARSE_DEGREE = 8;

    /** A vertex with at least this many arcs is a hub (the kernels' block-expansion degree). */
    static final int HUB_DEGREE = 1024;
    /** Dense graphs with hubs take {@code async} by default from this many arcs on (measured crossover, below). */
    static final long ASYNC_DENSE_MIN_ARCS = 1L << 26;

    /**
     * Where {@code async} is the GPU default: sparse graphs, and large dense ones with hubs (Kronecker-like), where
     * its pieces spread a hub's arcs over warps without near-far's grid barrier per step. Measured on an H200
     * (2026-11-26, GpuBench, kernel ms, median of 16 sources): NY async 2.16 vs nearfar 6.05; kron22 (128 M arcs)
     * async 13.7 vs nearfar 16.2; kron20 (31 M arcs) async 4.37 vs nearfar 4.16, hence the size threshold;
     * uniform22 (no hub) async 11.9 vs nearfar 10.2.
     */
    static boolean asyncByDefault(CsrGraph g) {
        return asyncByDefault(meanDegree(g), g.maxDegree(), g.arcs());
    }

    static boolean asyncByDefault(double meanDegree, int maxDegree, long arcs) {
        return meanDegree < SPARSE_DEGREE || (maxDegree >= HUB_DEGREE && arcs >= ASYNC_DENSE_MIN_ARCS);
    }

    static void checkSource(int source, int n) {
        if (source < 0 || source >= n) throw new IllegalArgumentException("source " + source + " not in [0, " + n + ")");
    }
}
