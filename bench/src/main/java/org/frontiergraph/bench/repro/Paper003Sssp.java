package org.frontiergraph.bench.repro;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.generate.seeds.MartinDense;
import org.frontiergraph.kernels.generate.seeds.MartinFixedDegree;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * Paper 003 (Martín, Torres, Gavilanes, ICCS 2009): Fig. 6 (adjacency lists: SSSP time against vertices, 1..11 x 2^20
 * vertices, in-degree 7, weights 1..10) for relax_F, relax_U (one and two minimum passes) and U_GPU_PLUS, with the
 * DA2CF iteration count; Fig. 7 (adjacency matrices: 1..15 x 2^10 vertices, degree n/5) for the matrix variants;
 * both against a Fibonacci-heap Dijkstra (the paper's FH) and the CPU engine's radix-heap Dijkstra. The race of
 * 004's SSSP on 003's counterexample is in {@link RaceCount}.
 *
 * <pre>java -cp ... org.frontiergraph.bench.repro.Paper003Sssp [--quick] [--out DIR] [--budget-s 240] [--runs 5]</pre>
 */
public final class Paper003Sssp {
    static final long SEED = 3_2009L;
    static final String[] LIST_VARIANTS = {"da2cf-f", "da2cf-u", "da2cf-u,passes=2", "da2cf-u-plus", "nearfar"};
    static final String[] MATRIX_VARIANTS = {"da2cf-f-matrix", "da2cf-u-matrix", "nearfar"};

    public static void main(String[] args) {
        Repro.main("paper003", args, 240, Paper003Sssp::run);
    }

    /** The experiments; {@code gpu} is null where no GPU is present (CPU columns only). */
    static void run(Repro r, ComputeBackend cpu, GpuBackend gpu) {
        if (r.want("race")) {
            RaceCount.run(r, gpu);
            r.md.append("\n");
        }
        List<Integer> lists = !r.want("fig6") ? List.<Integer>of() : r.quick ? List.of(1, 2) : List.of(1, 2, 4, 6, 8, 11);
        if (!lists.isEmpty()) {
            r.md.append("### Figure 6: adjacency lists, SSSP time (ms) against vertices (x 2^20), in-degree 7\n\n");
            table(r, LIST_VARIANTS);
        }
        boolean first = true;
        for (int k : lists) {
            if (r.overBudget("fig6 lists at " + k + " x 2^20 vertices and more")) break;
            long t0 = System.nanoTime();
            CsrGraph g = GraphBuilder.build(MartinFixedDegree.generate(k << 20, SEED + k));
            r.log("lists " + g + " built in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            one(r, "fig6_lists", k, g, cpu, gpu, LIST_VARIANTS, first);
            first = false;
        }
        List<Integer> mats = !r.want("fig7") ? List.<Integer>of() : r.quick ? List.of(1, 2) : List.of(1, 2, 4, 8, 12, 15);
        if (!mats.isEmpty()) {
            r.md.append("\n### Figure 7: adjacency matrices, SSSP time (ms) against vertices (x 2^10), degree n/5\n\n");
            table(r, MATRIX_VARIANTS);
        }
        for (int k : mats) {
            if (r.overBudget("fig7 matrices at " + k + " x 2^10 vertices and more")) break;
            long t0 = System.nanoTime();
            CsrGraph g = GraphBuilder.build(MartinDense.generate(k << 10, SEED + 100 + k));
            r.log("dense " + g + " built in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            one(r, "fig7_matrix", k, g, cpu, gpu, MATRIX_VARIANTS, false);
        }
    }

    static String label(String v) { return v.equals("nearfar") ? "GPU ours (near-far)" : "GPU " + v; }

    static void table(Repro r, String[] variants) {
        StringBuilder h = new StringBuilder("| vertices | iterations |");
        StringBuilder s = new StringBuilder("|---|---|");
        for (String v : variants) {
            h.append(' ').append(label(v)).append(" |");
            s.append("---|");
        }
        h.append(" CPU FH Dijkstra | CPU radix-heap Dijkstra | FH / best relax_F | FH / best relax_U |\n");
        s.append("---|---|---|---|\n");
        r.md.append(h).append(s);
    }

    static void one(Repro r, String fig, int k, CsrGraph g, ComputeBackend cpu, GpuBackend gpu, String[] variants,
                    boolean warmCpu) {
        Repro.Csv csv = r.csv(fig, fig.startsWith("fig6") ? "vertices_2e20" : "vertices_2e10", "ms");
        Repro.Csv its = r.csv(fig + "_iterations", fig.startsWith("fig6") ? "vertices_2e20" : "vertices_2e10", "iterations");
        int[] src = Repro.sources(g, r.runs + 1, SEED ^ g.vertexCount());
        int cpuRuns = g.vertexCount() >= 3_000_000 ? 1 : Math.min(r.runs, 3);  // one timed CPU run on the largest graphs (budget)
        double[] t = new double[variants.length];
        double fh, radix;
        long iterations;
        try (Pair p = new Pair(g, cpu, gpu)) {
            radix = r.medianMs(fig + " CPU radix Dijkstra k=" + k, src, cpuRuns, warmCpu,
                    s -> Paper004Harish.run(Sssp.run(p.cpu, s, null)), p.cpuSsspCheck());
            fh = r.medianMs(fig + " CPU FH Dijkstra k=" + k, src, cpuRuns, warmCpu, s -> {
                SsspResult x = FibonacciDijkstra.run(g, s);
                return new Repro.Run<>(x, x.timing());
            }, p.ssspCheck());
            // DA2CF settles one compound frontier (all unresolved vertices at the minimum estimate) per iteration:
            // its iteration count is the number of distinct finite distances from the source.
            iterations = Arrays.stream(p.ssspRef(src[0]).distances()).filter(Double::isFinite).distinct().count();
            for (int i = 0; i < variants.length; i++) {
                String v = variants[i];
                t[i] = p.gpu == null ? Double.NaN : r.medianMs(fig + " " + label(v) + " k=" + k, src, r.runs, true,
                        s -> Paper004Harish.run(Sssp.run(p.gpu, s, v)), p.ssspCheck());
            }
        }
        for (int i = 0; i < variants.length; i++) csv.row(k, label(variants[i]), t[i], "");
        csv.row(k, "CPU FH Dijkstra", fh, "Fibonacci heap");
        csv.row(k, "CPU radix-heap Dijkstra", radix, "CPU engine");
        its.row(k, "DA2CF iterations", iterations, "distinct finite distances from source " + src[0]);
        double bestF = Double.NaN, bestU = Double.NaN;
        for (int i = 0; i < variants.length; i++) {
            if (variants[i].equals("nearfar") || Double.isNaN(t[i])) continue;
            if (variants[i].startsWith("da2cf-f")) bestF = Double.isNaN(bestF) ? t[i] : Math.min(bestF, t[i]);
            else bestU = Double.isNaN(bestU) ? t[i] : Math.min(bestU, t[i]);
        }
        StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %d x 2^%d = %d | %d |", k,
                fig.startsWith("fig6") ? 20 : 10, g.vertexCount(), iterations));
        for (double x : t) row.append(' ').append(Repro.ms(x)).append(" |");
        row.append(' ').append(Repro.ms(fh)).append(" | ").append(Repro.ms(radix)).append(" | ")
                .append(Repro.ratio(fh, bestF)).append(" | ").append(Repro.ratio(fh, bestU)).append(" |\n");
        r.md.append(row);
    }

    private Paper003Sssp() {}
}
