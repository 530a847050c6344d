package org.frontiergraph.bench.repro;

import java.util.Locale;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.generate.seeds.GtGraphRandom;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;

/**
 * Paper 000 (Wang, Huang, Guo, GPU Prim with the GPU Min-Reduction primitive): Fig. 9 (runtimes of prim-gmr
 * ("CUDA_Reduction"), prim-naive ("CUDA_No_Reduction") and a CPU Prim with a binary heap (the paper's Boost Prim)
 * on GTgraph random graphs of 2^7..2^14 vertices and twice as many edges, weights 1..1000) and Fig. 10 (speedups).
 *
 * <pre>java -cp ... org.frontiergraph.bench.repro.Paper000Prim [--quick] [--out DIR] [--budget-s 120] [--runs 5]</pre>
 */
public final class Paper000Prim {
    static final long SEED = 2010L;

    public static void main(String[] args) {
        Repro.main("paper000", args, 120, Paper000Prim::run);
    }

    /** The experiments; {@code gpu} is null where no GPU is present (CPU columns only). */
    static void run(Repro r, ComputeBackend cpu, GpuBackend gpu) {
        Repro.Csv fig9 = r.csv("fig9_prim", "vertices", "ms");
        Repro.Csv fig10 = r.csv("fig10_speedup", "vertices", "speedup");
        r.md.append("### Figures 9 and 10: MST runtimes (ms) and speedups, GTgraph random, |E| = 2|V|\n\n");
        r.md.append("| vertices | edges | GPU prim-gmr | GPU prim-naive | CPU Prim (binary heap) | CPU engine MST (Filter-Kruskal) "
                + "| gmr vs CPU Prim | gmr vs naive |\n|---|---|---|---|---|---|---|---|\n");
        int maxExp = r.quick ? 12 : 14;
        for (int e = 7; e <= maxExp; e++) {
            if (r.overBudget("fig9 at 2^" + e + " vertices and more")) break;
            int n = 1 << e;
            CsrGraph g = GraphBuilder.build(GtGraphRandom.generate(n, 2L * n, SEED + e));
            int runs = Math.max(2 * r.runs + 1, 11);  // cheap: more runs against timer noise at 2^7
            int[] src = new int[runs + 1];
            double[] t = new double[4];
            try (ResidentGraph c = cpu.load(g); ResidentGraph d = gpu == null ? null : gpu.load(g)) {
                MstResult ref = Mst.run(c, null);
                MstVerifier.verify(g, ref).orThrow();
                Repro.Checker<MstResult> check = (s, m) -> MstVerifier.verify(g, m, ref);
                String[] v = {"prim-gmr", "prim-naive"};
                for (int i = 0; i < 2; i++) {
                    String name = v[i];
                    t[i] = d == null ? Double.NaN : r.medianMs("MST GPU " + name + " n=" + n, src, runs, true,
                            s -> run(Mst.run(d, name)), check);
                }
                t[2] = r.medianMs("MST CPU prim n=" + n, src, runs, true, s -> run(Mst.run(c, "prim")), check);
                t[3] = r.medianMs("MST CPU default n=" + n, src, runs, true, s -> run(Mst.run(c, null)), check);
            }
            fig9.row(n, "GPU prim-gmr (CUDA_Reduction)", t[0], "");
            fig9.row(n, "GPU prim-naive (CUDA_No_Reduction)", t[1], "");
            fig9.row(n, "CPU Prim (binary heap)", t[2], "Boost-style Prim");
            fig9.row(n, "CPU engine MST (Filter-Kruskal)", t[3], "not in the paper");
            fig10.row(n, "prim-gmr vs CPU Prim", t[2] / t[0], "");
            fig10.row(n, "prim-gmr vs prim-naive", t[1] / t[0], "");
            fig10.row(n, "prim-naive vs CPU Prim", t[2] / t[1], "");
            r.md.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %s | %s | %s | %s |%n", n, g.edgeCount(),
                    Repro.ms(t[0]), Repro.ms(t[1]), Repro.ms(t[2]), Repro.ms(t[3]), Repro.ratio(t[2], t[0]),
                    Repro.ratio(t[1], t[0])));
        }
    }

    static Repro.Run<MstResult> run(MstResult m) { return new Repro.Run<>(m, m.timing()); }

    private Paper000Prim() {}
}
