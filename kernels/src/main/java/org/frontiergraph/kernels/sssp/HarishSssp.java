package org.frontiergraph.kernels.sssp;

import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
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
import org.frontiergraph.kernels.gpu.KernelModule;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Harish and Narayanan's two-kernel SSSP (paper 004, Algorithms 3-5; kernels in src/main/cuda/sssp_harish.cu): mask
 * M_a, cost C_a, updating cost U_a, host loop until the mask is empty (a 4-byte flag read back per iteration), with
 * the atomicMin fix of paper 003 section 4.3 in kernel 1. Parents after convergence (a tight arc into each vertex;
 * a host BFS over tight arcs when some weight is 0). Exact integer distances for integral weights, otherwise the
 * bits of non-negative doubles with 64-bit atomicMin. Variant {@code harish}, no options.
 * {@link #PUBLISHED_RACY} runs 004 as published (plain compare-and-store into U_a): an algorithm of its own for
 * the reproduction harness, not registered, so not reachable from queries. Reports counter {@code iterations}.
 * Call inside a lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
public final class HarishSssp implements GpuLauncher<Source, SsspResult> {
    static final GpuAlgorithm<Source, SsspResult> IMPLEMENTATION = new GpuAlgorithm<>(
            List.of("harish"), false, g -> DeviceBuffer.total(sizes(g.vertexCount())), g -> new HarishSssp(g, false)).reads(GpuAlgorithm.Layout.ANY);

    /**
     * 004's Algorithm 4 exactly as published: {@code if (U_a[nid] > C_a[tid] + W_a) U_a[nid] = C_a[tid] + W_a} with
     * plain loads and stores, a write-after-write race (003's counterexample makes it visible). For the reproduction
     * harness; the answer may be wrong and is not verified here.
     */
    public static final AlgorithmSpec<Source, SsspResult> PUBLISHED_RACY = new AlgorithmSpec<>("SSSP (004 as published, racy)",
            new GpuAlgorithm<>(List.of("harish-racy"), false, g -> DeviceBuffer.total(sizes(g.vertexCount())),
                    g -> new HarishSssp(g, true)));

    private final CudaContext context;
    private CsrGraph graph;
    private final DeviceCsr csr;
    private final int n;
    private final DeviceBuffer mask, cost, updating, parents, flag;
    private final DeviceTimer timer;
    private final boolean racy;

    private HarishSssp(DeviceGraph g, boolean racy) {
        this.context = g.context();
        this.graph = g.graph();
        this.csr = g.csr();
        this.n = graph.vertexCount();
        this.racy = racy;
        DeviceBuffer[] made = g.allocate(sizes(n));
        mask = made[0];
        cost = made[1];
        updating = made[2];
        parents = made[3];
        flag = made[4];
        timer = new DeviceTimer(context);
    }

    /** Device bytes of M_a, C_a, U_a, the parents and the flag, in that order. */
    private static long[] sizes(int n) {
        return new long[] {4L * n, 8L * n, 8L * n, 4L * n, 4};
    }

    @Override
    public SsspResult run(Source query, Variant variant) {
        int source = query.vertex();
        SeedSssp.checkSource(source, n);
        boolean ints = csr.intWeights();
        KeyForm form = KeyForm.weights(ints);
        KernelModule module = context.module("sssp_harish");
        Kernel k1 = module.kernel(form.entry(racy ? "harish_sssp_kernel1_racy" : "harish_sssp_kernel1"));
        Kernel k2 = module.kernel("harish_sssp_kernel2");
        long blocks = Kernel.blocksFor(n);
        int[] f = new int[1];
        timer.start();
        module.kernel(form.entry("harish_sssp_init")).launch(blocks, n, mask, cost, updating, source);
        long iterations = 0;
        while (true) {  // Algorithm 3: while M_a not empty
            flag.fill32(0, 1, 0);
            k1.launch(blocks, csr.rowOffsets, csr.columns, csr.weights(), n, mask, cost, updating);
            k2.launch(blocks, n, mask, cost, updating, flag);
            iterations++;
            flag.download(f);
            if (f[0] == 0) break;
        }
        long[] keys = new long[n];
        cost.download(keys);
        double[] d = SeedSssp.distances(keys, ints);
        int[] p = SeedSssp.parents(module, form.entry("harish_sssp_parents"), csr, graph, cost, parents, d, source);
        timer.stop();
        long compute = timer.elapsedNanos();
        // iterations: kernel 1 + kernel 2 pairs, the last one changing nothing
        return new SsspResult(source, d, p, new Timing(compute, 0, Map.of("iterations", iterations)));
    }

    @Override
    public boolean reweighted(CsrGraph next, ChangeLog.WeightChanges changes) {
        graph = next;  // the weights live in the shared DeviceCsr, already updated
        return true;
    }

    @Override
    public void close() {
        timer.close();
        flag.close();
        parents.close();
        updating.close();
        cost.close();
        mask.close();
    }
}
