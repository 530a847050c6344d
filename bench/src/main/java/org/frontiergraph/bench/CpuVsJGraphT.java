package org.frontiergraph.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;

/**
 * Frontier's CPU engine against JGraphT 1.5.2 on BFS, SSSP (Dijkstra) and MST, in one JVM: USA-road-d.NY (from the
 * shared datasets, skipped when absent) and a seeded uniform random undirected graph (10M edges by default).
 *
 * <p>Each timed run is one algorithm on one graph, answer included: for BFS and SSSP one run per seeded random
 * source, the same sources for both sides; for MST the whole forest. Warm-up runs come first and are not timed. Every
 * run's answers are compared (depths, distances, forest weight and size); a mismatch is printed and the program
 * exits with status 1 after the table. Run with {@code bench/run-cpu-vs-jgrapht.sh}; see docs/benchmarks.md.
 *
 * <p>Options: {@code --runs 5 --warmup 2 --random-vertices 1048576 --random-edges 10000000 --seed 42
 * --max-weight 1000 --mst prim|kruskal} ({@code --random-edges 0} skips the random graph).
 */
public final class CpuVsJGraphT {
    private record Options(int runs, int warmup, int randomVertices, long randomEdges, long seed, int maxWeight,
                           JGraphTSide.Mst mst) {
        static Options parse(String[] args) {
            int runs = 5, warmup = 2, vertices = 1 << 20, maxWeight = 1000;
            long edges = 10_000_000L, seed = 42;
            JGraphTSide.Mst mst = JGraphTSide.Mst.PRIM;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) throw new IllegalArgumentException("option " + a + " needs a value");
                String v = args[++i];
                switch (a) {
                    case "--runs": runs = Integer.parseInt(v); break;
                    case "--warmup": warmup = Integer.parseInt(v); break;
                    case "--random-vertices": vertices = Integer.parseInt(v); break;
                    case "--random-edges": edges = Long.parseLong(v); break;
                    case "--seed": seed = Long.parseLong(v); break;
                    case "--max-weight": maxWeight = Integer.parseInt(v); break;
                    case "--mst": mst = JGraphTSide.Mst.valueOf(v.toUpperCase(Locale.ROOT)); break;
                    default: throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (runs < 1 || warmup < 0) throw new IllegalArgumentException("need --runs >= 1 and --warmup >= 0");
            return new Options(runs, warmup, vertices, edges, seed, maxWeight, mst);
        }
    }

    private record Row(String graph, String algorithm, double jgraphtMs, double cpuMs) {}

    private final Options options;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> mismatches = new ArrayList<>();

    private CpuVsJGraphT(Options options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("CpuVsJGraphT: " + e.getMessage());
            System.exit(2);
            return;
        }
        CpuVsJGraphT bench = new CpuVsJGraphT(options);
        System.out.println(Machine.describe());
        System.out.println("options: " + options);
        bench.roadNetwork();
        bench.randomGraph();
        bench.printTable();
        if (!bench.mismatches.isEmpty()) {
            System.err.println("FAILED: the CPU engine and JGraphT disagree (" + bench.mismatches.size() + "):");
            bench.mismatches.forEach(m -> System.err.println("  " + m));
            System.exit(1);
        }
        System.out.println("all answers agree with JGraphT");
    }

    private void roadNetwork() throws Exception {
        Optional<Path> file = Datasets.file(Datasets.NY);
        if (file.isEmpty()) {
            System.out.println("\nskipping USA-road-d.NY: " + Datasets.NY + " not found (set FRONTIER_DATASETS)");
            return;
        }
        // loader speed, since a CLI loads this file before anything else
        long[] loadNanos = new long[options.warmup + options.runs];
        LoadedGraph loaded = null;
        for (int i = 0; i < loadNanos.length; i++) {
            long t0 = System.nanoTime();
            loaded = GraphFiles.read(file.get());
            loadNanos[i] = System.nanoTime() - t0;
        }
        System.out.printf(Locale.ROOT, "%nload %s: %d vertices, %d arcs in %.1f ms (median of %d after %d warm-up)%n",
                Datasets.NY, loaded.vertexCount(), loaded.edgeCount(),
                medianMs(Arrays.copyOfRange(loadNanos, options.warmup, loadNanos.length)), options.runs, options.warmup);
        CsrGraph directed = loaded.toCsr();
        compare("USA-road-d.NY", directed, undirectedUnderneath(directed));
    }

    private void randomGraph() {
        if (options.randomEdges <= 0) return;
        long t0 = System.nanoTime();
        EdgeList edges = UniformRandomGraph.generate(options.randomVertices, options.randomEdges, options.seed,
                options.maxWeight, false);
        CsrGraph g = GraphBuilder.build(edges);
        System.out.printf(Locale.ROOT, "%ngenerated uniform random graph (seed %d) in %.1f s%n", options.seed,
                (System.nanoTime() - t0) / 1e9);
        String name = String.format(Locale.ROOT, "uniform random, %,d vertices, %,d edges, undirected",
                g.vertexCount(), g.edgeCount());
        compare(name, g, g);
    }

    /** The MST input both sides get: the undirected simple graph underneath (CsrGraph.undirectedEdges()). */
    private static CsrGraph undirectedUnderneath(CsrGraph g) {
        if (!g.directed()) return g;
        UndirectedEdges u = g.undirectedEdges();
        EdgeList list = new EdgeList(g.vertexCount(), false, u.size());
        for (int i = 0; i < u.size(); i++) list.add(u.u[i], u.v[i], u.w[i]);
        return GraphBuilder.build(list);
    }

    private void compare(String name, CsrGraph traversal, CsrGraph forMst) {
        System.out.println("\n== " + name + ": " + traversal + (forMst != traversal ? "; MST on " + forMst : ""));
        long t0 = System.nanoTime();
        JGraphTSide jg = JGraphTSide.copyOf(traversal);
        JGraphTSide jgMst = forMst == traversal ? jg : JGraphTSide.copyOf(forMst);
        System.out.printf(Locale.ROOT, "JGraphT graph%s built in %.1f s (not timed below)%n",
                forMst == traversal ? "" : "s", (System.nanoTime() - t0) / 1e9);
        int[] sources = sources(traversal, options.warmup + options.runs, options.seed);
        try (CpuBackend cpu = new CpuBackend();
             ResidentGraph resident = cpu.load(traversal);
             ResidentGraph residentMst = forMst == traversal ? null : cpu.load(forMst)) {
            ResidentGraph mstGraph = residentMst == null ? resident : residentMst;
            time(name, "BFS", i -> {
                int s = sources[i];
                long a = System.nanoTime();
                JGraphTSide.Bfs j = jg.bfs(s);
                long b = System.nanoTime();
                var c = resident.bfs(s, null);
                long d = System.nanoTime();
                return new Run(b - a, d - b, "source " + s, Answers.bfs(c, jg, j));
            });
            time(name, "SSSP (Dijkstra)", i -> {
                int s = sources[i];
                long a = System.nanoTime();
                var j = jg.sssp(s);
                long b = System.nanoTime();
                var c = resident.sssp(s, null);
                long d = System.nanoTime();
                return new Run(b - a, d - b, "source " + s, Answers.sssp(c, jg, j));
            });
            String mstName = "MST (JGraphT " + (options.mst == JGraphTSide.Mst.PRIM ? "Prim" : "Kruskal") + ")";
            time(name, mstName, i -> {
                long a = System.nanoTime();
                var j = jgMst.mst(options.mst);
                long b = System.nanoTime();
                var c = mstGraph.mst(null);
                long d = System.nanoTime();
                return new Run(b - a, d - b, "weight " + (long) c.totalWeight(), Answers.mst(c, forMst.vertexCount(), j));
            });
        }
    }

    private record Run(long jgraphtNanos, long cpuNanos, String label, String mismatch) {}

    /** Warm-up runs, then timed runs; every run's answers are checked. */
    private void time(String graph, String algorithm, IntFunction<Run> run) {
        int total = options.warmup + options.runs;
        long[] jg = new long[options.runs], cpu = new long[options.runs];
        for (int i = 0; i < total; i++) {
            Run r = run.apply(i);
            boolean warm = i < options.warmup;
            if (!warm) {
                jg[i - options.warmup] = r.jgraphtNanos;
                cpu[i - options.warmup] = r.cpuNanos;
            }
            System.out.printf(Locale.ROOT, "  %-28s %-22s JGraphT %9.1f ms  CPU %8.1f ms  %s%s%n",
                    algorithm + (warm ? " (warm-up)" : ""), r.label, r.jgraphtNanos / 1e6, r.cpuNanos / 1e6,
                    r.mismatch == null ? "answers agree" : "MISMATCH: " + r.mismatch,
                    "");
            if (r.mismatch != null) mismatches.add(graph + ", " + algorithm + ", " + r.label + ": " + r.mismatch);
        }
        rows.add(new Row(graph, algorithm, medianMs(jg), medianMs(cpu)));
    }

    /** {@code count} distinct-ish seeded sources with at least one outgoing arc. */
    private static int[] sources(CsrGraph g, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] s = new int[count];
        for (int i = 0; i < count; i++) {
            int v;
            do {
                v = random.nextInt(g.vertexCount());
            } while (g.degree(v) == 0);
            s[i] = v;
        }
        return s;
    }

    private static double medianMs(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        int n = s.length;
        double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
        return median / 1e6;
    }

    private void printTable() {
        System.out.printf("%nMedian of %d timed runs after %d warm-up runs (BFS and SSSP: one seeded random source"
                + " per run, the same for both).%n%n", options.runs, options.warmup);
        System.out.println("| graph | algorithm | JGraphT ms | Frontier CPU ms | speedup |");
        System.out.println("|---|---|---:|---:|---:|");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1fx |%n",
                    r.graph, r.algorithm, r.jgraphtMs, r.cpuMs, r.jgraphtMs / r.cpuMs);
        }
    }
}
