package org.frontiergraph.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
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
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.interfaces.SpanningTreeAlgorithm.SpanningTree;
import org.jgrapht.graph.DefaultWeightedEdge;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Frontier's CPU engine against JGraphT 1.5.2 on BFS, SSSP (Dijkstra) and MST, in one JVM: USA-road-d.NY (from the
 * shared datasets, skipped when absent) and a seeded uniform random undirected graph (10M edges by default).
 *
 * <p>Each timed run is one algorithm on one graph, answer included: for BFS and SSSP one run per seeded random
 * source, the same sources for both sides; for MST the whole forest. Warm-up runs come first and are not timed. Every
 * run's answers are compared (depths, distances, forest weight and size); a mismatch is printed and the program
 * exits with status 1 after the table. Run with {@code bench/run-cpu-vs-jgrapht.sh}; see docs/benchmarks.md.
 *
 * <p>Options: {@code --runs 5 --warmup 2 --random-warmup 1 --random-vertices 1048576 --random-edges 10100000
 * --seed 42 --max-weight 1000 --mst prim --random-mst kruskal} ({@code --random-edges 0} skips the random graph).
 * The JGraphT MST is the faster of Prim and Kruskal on each graph, as measured here: Prim on NY (about 3x faster
 * than Kruskal there), Kruskal on the random graph (Prim's Fibonacci heap ran over 3 minutes without finishing). The random
 * graph draws 10.1M edges so that more than 10M distinct edges remain after GraphBuilder merges duplicates and drops
 * self-loops; JGraphT's code is already warm from the NY runs, hence one warm-up run there.
 */
public final class CpuVsJGraphT {
    private record Options(int runs, int warmup, int randomWarmup, int randomVertices, long randomEdges, long seed,
                           int maxWeight, JGraphTSide.Mst mst, JGraphTSide.Mst randomMst) {}

    @Command(name = "CpuVsJGraphT", description = "Frontier's CPU engine against JGraphT on BFS, SSSP and MST.")
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--warmup", paramLabel = "N", description = "untimed runs first")
        int warmup = 2;
        @Option(names = "--random-warmup", paramLabel = "N", description = "untimed runs on the random graph")
        int randomWarmup = 1;
        @Option(names = "--random-vertices", paramLabel = "N", description = "the random graph's vertices")
        int randomVertices = 1 << 20;
        @Option(names = "--random-edges", paramLabel = "N", description = "the random graph's edges drawn (0: no random graph)")
        long randomEdges = 10_100_000L;
        @Option(names = "--seed", paramLabel = "N", description = "the random graph and the sources")
        long seed = 42;
        @Option(names = "--max-weight", paramLabel = "N", description = "the random graph's largest weight")
        int maxWeight = 1000;
        @Option(names = "--mst", paramLabel = "prim|kruskal", description = "JGraphT's MST on NY")
        JGraphTSide.Mst mst = JGraphTSide.Mst.PRIM;
        @Option(names = "--random-mst", paramLabel = "prim|kruskal", description = "JGraphT's MST on the random graph")
        JGraphTSide.Mst randomMst = JGraphTSide.Mst.KRUSKAL;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--runs", "5");
        }

        @Override
        public Options options(String[] args) {
            if (warmup < 0 || randomWarmup < 0) throw new IllegalArgumentException("need --warmup >= 0 and --random-warmup >= 0");
            return new Options(runs.runs(), warmup, randomWarmup, randomVertices, randomEdges, seed, maxWeight, mst, randomMst);
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
        Options options = BenchCli.options("CpuVsJGraphT", args, Cli::new);
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
        compare("USA-road-d.NY", directed, undirectedUnderneath(directed), options.warmup, options.mst);
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
        compare(name, g, g, options.randomWarmup, options.randomMst);
    }

    /** The MST input both sides get: the undirected simple graph underneath (CsrGraph.undirectedEdges()). */
    private static CsrGraph undirectedUnderneath(CsrGraph g) {
        if (!g.directed()) return g;
        UndirectedEdges u = g.undirectedEdges();
        EdgeList list = new EdgeList(g.vertexCount(), false, u.size());
        for (int i = 0; i < u.size(); i++) list.add(u.u[i], u.v[i], u.w[i]);
        return GraphBuilder.build(list);
    }

    private void compare(String name, CsrGraph traversal, CsrGraph forMst, int warmup, JGraphTSide.Mst mst) {
        System.out.println("\n== " + name + ": " + traversal + (forMst != traversal ? "; MST on " + forMst : ""));
        long t0 = System.nanoTime();
        JGraphTSide jg = JGraphTSide.copyOf(traversal);
        JGraphTSide jgMst = forMst == traversal ? jg : JGraphTSide.copyOf(forMst);
        System.out.printf(Locale.ROOT, "JGraphT graph%s built in %.1f s (not timed below)%n",
                forMst == traversal ? "" : "s", (System.nanoTime() - t0) / 1e9);
        int[] sources = sources(traversal, warmup + options.runs, options.seed);
        try (CpuBackend cpu = new CpuBackend();
             ResidentGraph resident = cpu.load(traversal);
             ResidentGraph residentMst = forMst == traversal ? null : cpu.load(forMst)) {
            ResidentGraph mstGraph = residentMst == null ? resident : residentMst;
            time(name, "BFS", warmup, new Algorithm<BfsResult, JGraphTSide.Bfs>() {
                public BfsResult cpu(int i) { return Bfs.run(resident, sources[i], null); }
                public JGraphTSide.Bfs jgrapht(int i) { return jg.bfs(sources[i]); }
                public String check(BfsResult c, JGraphTSide.Bfs j) { return Answers.bfs(c, jg, j); }
                public String label(int i) { return "source " + sources[i]; }
            });
            time(name, "SSSP (Dijkstra)", warmup,
                    new Algorithm<SsspResult, SingleSourcePaths<Integer, DefaultWeightedEdge>>() {
                public SsspResult cpu(int i) { return Sssp.run(resident, sources[i], null); }
                public SingleSourcePaths<Integer, DefaultWeightedEdge> jgrapht(int i) { return jg.sssp(sources[i]); }
                public String check(SsspResult c, SingleSourcePaths<Integer, DefaultWeightedEdge> j) {
                    return Answers.sssp(c, jg, j);
                }
                public String label(int i) { return "source " + sources[i]; }
            });
            String mstName = "MST (JGraphT " + (mst == JGraphTSide.Mst.PRIM ? "Prim" : "Kruskal") + ")";
            time(name, mstName, warmup, new Algorithm<MstResult, SpanningTree<DefaultWeightedEdge>>() {
                public MstResult cpu(int i) { return Mst.run(mstGraph, null); }
                public SpanningTree<DefaultWeightedEdge> jgrapht(int i) { return jgMst.mst(mst); }
                public String check(MstResult c, SpanningTree<DefaultWeightedEdge> j) {
                    return Answers.mst(c, forMst.vertexCount(), j);
                }
                public String label(int i) { return "whole graph"; }
            });
        }
    }

    /** One algorithm on one graph, both sides; run {@code i} of a series. */
    private interface Algorithm<C, J> {
        C cpu(int i);
        J jgrapht(int i);
        /** Null when the answers agree, else the first difference. */
        String check(C cpu, J jgrapht);
        String label(int i);
    }

    /**
     * Warm-up runs then timed runs: first all CPU-engine runs (answers kept), a full GC, then all JGraphT runs,
     * each checked against the CPU answer for the same source, then a full GC. Grouping the sides keeps one side's
     * garbage from being collected during the other's timed runs; the GCs themselves are not timed.
     */
    private <C, J> void time(String graph, String algorithm, int warmup, Algorithm<C, J> a) {
        int total = warmup + options.runs;
        long[] cpuNanos = new long[total], jgNanos = new long[total];
        List<C> cpuAnswers = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            long t0 = System.nanoTime();
            C c = a.cpu(i);
            cpuNanos[i] = System.nanoTime() - t0;
            cpuAnswers.add(c);
        }
        System.gc();
        for (int i = 0; i < total; i++) {
            long t0 = System.nanoTime();
            J j = a.jgrapht(i);
            jgNanos[i] = System.nanoTime() - t0;
            String mismatch = a.check(cpuAnswers.get(i), j);
            cpuAnswers.set(i, null);
            boolean warm = i < warmup;
            System.out.printf(Locale.ROOT, "  %-28s %-15s JGraphT %9.1f ms  CPU %8.1f ms  %s%n",
                    algorithm + (warm ? " (warm-up)" : ""), a.label(i), jgNanos[i] / 1e6, cpuNanos[i] / 1e6,
                    mismatch == null ? "answers agree" : "MISMATCH: " + mismatch);
            if (mismatch != null) mismatches.add(graph + ", " + algorithm + ", " + a.label(i) + ": " + mismatch);
        }
        System.gc();
        rows.add(new Row(graph, algorithm, medianMs(Arrays.copyOfRange(jgNanos, warmup, total)),
                medianMs(Arrays.copyOfRange(cpuNanos, warmup, total))));
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
        System.out.printf("%nMedian of %d timed runs after %d (NY) / %d (random) warm-up runs; BFS and SSSP: one"
                + " seeded random source per run, the same for both sides.%n%n", options.runs, options.warmup,
                options.randomWarmup);
        System.out.println("| graph | algorithm | JGraphT ms | Frontier CPU ms | speedup |");
        System.out.println("|---|---|---:|---:|---:|");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1fx |%n",
                    r.graph, r.algorithm, r.jgraphtMs, r.cpuMs, r.jgraphtMs / r.cpuMs);
        }
    }
}
