package org.frontiergraph.bench.repro;

import java.util.List;
import java.util.Locale;
import org.frontiergraph.kernels.apsp.Apsp;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.ApspVerifier;
import org.frontiergraph.kernels.apsp.CpuApsp;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.generate.seeds.HarishRandom;
import org.frontiergraph.kernels.generate.seeds.HarishScaleFree;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * Paper 004 (Harish and Narayanan, HiPC 2007): Fig. 4 (random degree-6 graphs) and Fig. 5 (scale-free) BFS and
 * SSSP time against vertices, Fig. 6 (APSP by Floyd-Warshall and by repeated SSSP against vertices, up to 30 K),
 * Fig. 7 (100 K vertices, varying degree) and Table 1 (the New York row, USA-road-d.NY).
 *
 * <pre>java -cp ... org.frontiergraph.bench.repro.Paper004Harish [--quick] [--out DIR] [--budget-s 300] [--runs 5]</pre>
 */
public final class Paper004Harish {
    static final long SEED = 4_2007L;

    public static void main(String[] args) {
        Repro.main("paper004", args, 300, Paper004Harish::run);
    }

    /** The experiments; {@code gpu} is null where no GPU is present (CPU columns only). */
    static void run(Repro r, ComputeBackend cpu, GpuBackend gpu) throws Exception {
        int M = 1_000_000;
        List<Integer> sizes = r.quick ? List.of(M, 2 * M) : List.of(M, 2 * M, 4 * M, 6 * M, 8 * M, 10 * M);
        if (r.want("table1")) table1(r, cpu, gpu);
        if (r.want("fig6")) fig6(r, cpu, gpu);  // before the large Fig. 4/5 graphs: the 30 K APSP is a headline claim
        if (r.want("fig4") || r.want("fig5")) {
            r.md.append("\n### Figures 4 and 5: BFS and SSSP time (ms) against vertices (degree 6, weights 1..10)\n\n");
            r.md.append(HEADER.replace("| vertices |", "| vertices |"));
        }
        boolean first = true;
        for (String kind : List.of("random", "scalefree")) {
            String fig = kind.equals("random") ? "fig4_random" : "fig5_scalefree";
            if (!r.want(fig.substring(0, 4))) continue;
            for (int n : sizes) {
                if (r.overBudget(fig + " at " + n + " vertices and larger")) break;
                CsrGraph g = build(r, kind, n);
                bfsSssp(r, fig, kind, n / 1e6, g, cpu, gpu, first);
                first = false;
            }
        }
        if (r.want("fig7")) fig7(r, cpu, gpu);
    }

    /**
     * The GPU engine's defaults named explicitly: a null variant currently throws NullPointerException in
     * GpuResidentGraph's seed dispatch (List.of(...).contains(null)).
     */
    static final String GPU_BFS_DEFAULT = "persistent", GPU_SSSP_DEFAULT = "nearfar";

    static final String HEADER = "| graph | vertices | GPU BFS harish | GPU BFS ours | CPU BFS | GPU SSSP harish | GPU SSSP ours "
            + "| CPU SSSP (radix-heap Dijkstra) |\n|---|---|---|---|---|---|---|---|\n";

    static CsrGraph build(Repro r, String kind, int n) {
        long t0 = System.nanoTime();
        CsrGraph g = GraphBuilder.build(kind.equals("random") ? HarishRandom.generate(n, SEED + n)
                : HarishScaleFree.generate(n, SEED + n));
        r.log(kind + " " + g + " built in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        return g;
    }

    /** Times GPU harish and default BFS/SSSP and the CPU engine on {@code g}; rows into csv {@code fig}. */
    static double[] bfsSssp(Repro r, String fig, String label, double x, CsrGraph g, ComputeBackend cpu,
                            GpuBackend gpu, boolean warmCpu) {
        Repro.Csv csv = r.csv(fig, x < 1000 ? "vertices_millions" : "x", "ms");
        int[] src = Repro.sources(g, r.runs + 1, SEED ^ g.vertexCount());
        double[] t = new double[6];
        java.util.Arrays.fill(t, Double.NaN);
        int cpuRuns = g.vertexCount() >= 3_000_000 ? 1 : Math.min(r.runs, 3);  // one timed CPU run on the largest graphs (budget)
        try (Pair p = new Pair(g, cpu, gpu)) {
            t[2] = r.medianMs(label + " CPU BFS", src, cpuRuns, warmCpu, s -> run(Bfs.run(p.cpu, s, null)), p.cpuBfsCheck());
            t[5] = r.medianMs(label + " CPU SSSP", src, cpuRuns, warmCpu, s -> run(Sssp.run(p.cpu, s, null)), p.cpuSsspCheck());
            if (p.gpu != null) {
                t[0] = r.medianMs(label + " GPU BFS harish", src, r.runs, true, s -> run(Bfs.run(p.gpu, s, "harish")), p.bfsCheck());
                t[1] = r.medianMs(label + " GPU BFS ours", src, r.runs, true, s -> run(Bfs.run(p.gpu, s, GPU_BFS_DEFAULT)), p.bfsCheck());
                t[3] = r.medianMs(label + " GPU SSSP harish", src, r.runs, true, s -> run(Sssp.run(p.gpu, s, "harish")), p.ssspCheck());
                t[4] = r.medianMs(label + " GPU SSSP ours", src, r.runs, true, s -> run(Sssp.run(p.gpu, s, GPU_SSSP_DEFAULT)), p.ssspCheck());
            }
        }
        String[] series = {"GPU BFS harish", "GPU BFS ours", "CPU BFS", "GPU SSSP harish", "GPU SSSP ours", "CPU SSSP"};
        for (int i = 0; i < 6; i++) csv.row(x, series[i], t[i], i == 5 ? "radix-heap Dijkstra" : "");
        r.md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", label,
                Repro.fmt(x) + (fig.startsWith("fig4") || fig.startsWith("fig5") ? " M" : ""), Repro.ms(t[0]), Repro.ms(t[1]), Repro.ms(t[2]),
                Repro.ms(t[3]), Repro.ms(t[4]), Repro.ms(t[5])));
        return t;
    }

    static Repro.Run<BfsResult> run(BfsResult b) { return new Repro.Run<>(b, b.timing()); }

    static Repro.Run<SsspResult> run(SsspResult b) { return new Repro.Run<>(b, b.timing()); }

    static void table1(Repro r, ComputeBackend cpu, GpuBackend gpu) throws Exception {
        r.md.append("### Table 1: New York road graph (USA-road-d.NY; weights are the DIMACS distances)\n\n");
        var file = Datasets.file(Datasets.NY);
        if (file.isEmpty()) {
            r.note("Table 1: " + Datasets.NY + " not found (FRONTIER_DATASETS); New York row not rerun");
            return;
        }
        CsrGraph g = GraphFiles.read(file.get()).toCsr();
        r.log("NY " + g);
        r.md.append(HEADER);
        double[] t = bfsSssp(r, "table1_ny", "New York", g.vertexCount(), g, cpu, gpu, false);
        r.md.append("\nPaper (8800 GTX; CPU Athlon 64 3200+): New York 250 K vertices, 730 K edges: BFS CPU 313.117 ms, "
                + "BFS GPU 126.04 ms, SSSP CPU 1649.85 ms, SSSP GPU 760.14 ms. Ours: " + g.vertexCount() + " vertices, "
                + g.arcCount() + " arcs: BFS CPU " + Repro.ms(t[2]) + " ms, BFS GPU harish " + Repro.ms(t[0])
                + " ms, SSSP CPU " + Repro.ms(t[5]) + " ms, SSSP GPU harish " + Repro.ms(t[3]) + " ms.\n");
        r.note("Table 1 rows Florida, USA-East and USA-West not rerun: USA-road-d.FLA/E/W are not in ../shared/datasets "
                + "(only USA-road-d.NY is)");
    }

    static void fig7(Repro r, ComputeBackend cpu, GpuBackend gpu) {
        int n = 100_000;
        List<Integer> degrees = r.quick ? List.of(6, 12) : List.of(6, 12, 24, 48, 96);
        r.md.append("\n### Figure 7: 100 K vertices, varying degree (x = average degree)\n\n");
        r.md.append(HEADER.replace("| vertices |", "| degree |"));
        for (int d : degrees) {
            if (r.overBudget("fig7 at degree " + d + " and more")) break;
            CsrGraph g = GraphBuilder.build(HarishRandom.generate(n, d, SEED + d));
            bfsSssp(r, "fig7_degree", "100K", d, g, cpu, gpu, false);
        }
    }

    static void fig6(Repro r, ComputeBackend cpu, GpuBackend gpu) {
        List<Integer> sizes = r.quick ? List.of(1024, 2048) : List.of(1024, 2048, 4096, 8192, 16384, 30000);
        Repro.Csv csv = r.csv("fig6_apsp", "vertices", "ms");
        r.md.append("\n### Figure 6: APSP time against vertices (random degree 6, weights 1..10)\n\n");
        r.md.append("| vertices | GPU floyd-warshall | GPU repeated-sssp | CPU repeated Dijkstra (parallel) | CPU Floyd-Warshall (blocked, parallel) |\n|---|---|---|---|---|\n");
        ApspLimits limits = new ApspLimits(ApspLimits.ARRAY_MAX_VERTICES);
        for (int n : sizes) {
            if (r.overBudget("fig6 APSP at " + n + " vertices and more")) break;
            CsrGraph g = GraphBuilder.build(HarishRandom.generate(n, SEED + n));
            double[] t = {Double.NaN, Double.NaN, Double.NaN, Double.NaN};
            String[] names = {"GPU floyd-warshall", "GPU repeated-sssp", "CPU repeated-sssp", "CPU floyd-warshall"};
            try (ResidentGraph c = cpu.load(g); ResidentGraph d = gpu == null ? null : gpu.load(g)) {
                for (int i = 0; i < 4; i++) {
                    if (i < 2 && d == null) continue;
                    if (i >= 2 && r.skip.contains("cpu-apsp")) continue;
                    if (i == 3 && n > 8192) {
                        r.note("CPU Floyd-Warshall skipped above 8192 vertices (O(n^3) on the CPU)");
                        continue;
                    }
                    String v = i % 2 == 0 ? (i == 0 ? "floyd-warshall" : CpuApsp.REPEATED_SSSP) : (i == 1 ? "repeated-sssp" : CpuApsp.FLOYD_WARSHALL);
                    ResidentGraph on = i < 2 ? d : c;
                    int runs = n >= 8192 ? 1 : 3;
                    if (n == 30000 && i == 0) {
                        r.note("GPU Floyd-Warshall at 30 K vertices keeps a 30K x 30K distance matrix on the device: "
                                + "30000^2 * 4 B = 3.6 GB (the paper's 768 MB card could not; 004's 30 K figure is by repeated SSSP)");
                    }
                    try {
                        t[i] = r.medianMs("APSP " + names[i] + " n=" + n, new int[] {0}, runs, false, s -> {
                            ApspResult a = Apsp.run(on, v, limits);
                            return new Repro.Run<>(a, a.timing());
                        }, (s, a) -> ApspVerifier.verify(g, a));
                    } catch (OutOfMemoryError e) {
                        r.note("APSP " + names[i] + " n=" + n + ": out of host memory (" + e.getMessage() + ")");
                    }
                    System.gc();
                }
            } catch (GraphTooLargeException | UnsupportedVariantException e) {
                r.note("APSP n=" + n + ": " + Repro.oneLine(e));
            }
            for (int i = 0; i < 4; i++) csv.row(n, names[i], t[i], "");
            r.md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s |%n", n, Repro.ms(t[0]), Repro.ms(t[1]),
                    Repro.ms(t[2]), Repro.ms(t[3])));
        }
    }

    private Paper004Harish() {}
}
