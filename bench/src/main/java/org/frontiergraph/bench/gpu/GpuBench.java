package org.frontiergraph.bench.gpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * GPU engine benchmark: kernel time (CUDA events, graph resident, after warm-up, median over seeded random sources
 * of non-zero degree) and query time through {@link ResidentGraph} (kernels plus copying the answer back), for BFS,
 * SSSP and MST and several kernel variants, next to the CPU engine on the same machine. Every graph's first answer
 * of each algorithm is checked against the CPU engine before anything is timed.
 *
 * <pre>java -cp ... org.frontiergraph.bench.gpu.GpuBench [--graphs kron20,kron22,uniform20,uniform22,ny]
 *      [--sources 16] [--cpu-runs 3] [--out table.md] [--bfs-variants a|b] [--sssp-variants ...] [--mst-variants ...]
 *      [--sssp-summaries-variants ...] [--small-reach N [--small-reach-sources 8] [--peer-files DIR]]</pre>
 *
 * {@code --small-reach N} adds, per graph, rows timed from seeded sources whose search reaches at most N vertices
 * (a source in a small component, or on a short chain of a directed graph: {@link #smallReachSources}), with the BFS
 * and SSSP variants and single-source SUMMARY answers, labelled {@code GRAPH reach<=N}; {@code --peer-files DIR}
 * writes those graphs and sources for gapbs ({@code DIR/GRAPH.sg}, {@code .wsg}, {@code .sources}).
 */
public final class GpuBench {
    private static final long SEED = 20_260_101L;

    record Row(String graph, String algorithm, String variant, double gpuKernelMs, double gpuQueryMs, double cpuMs,
               String target, String stats) {}

    @Command(name = "GpuBench", description = "GPU engine benchmark: kernel and query time of BFS, SSSP and MST variants, "
            + "next to the CPU engine.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--sources", paramLabel = "N", description = "seeded sources of non-zero degree")
        int sources = 16;
        @Option(names = "--cpu-runs", paramLabel = "N", description = "CPU engine runs a row")
        int cpuRuns = 3;
        @Option(names = "--out", paramLabel = "FILE.md", description = "also write the table here")
        Path out;
        @Option(names = "--bfs-variants", paramLabel = "V|V", description = "BFS variants timed")
        String bfsVariants;
        @Option(names = "--sssp-variants", paramLabel = "V|V", description = "SSSP variants timed")
        String ssspVariants;
        @Option(names = "--mst-variants", paramLabel = "V|V", description = "MST variants timed")
        String mstVariants;
        @Option(names = "--sssp-summaries-variants", paramLabel = "V|V", description = "SSSP SUMMARY batch variants timed")
        String ssspSummariesVariants;
        @Option(names = "--small-reach", paramLabel = "N", description = "rows from sources whose search reaches at most N "
                + "vertices (0: none)")
        int smallReach;
        @Option(names = "--small-reach-sources", paramLabel = "N", description = "sources of those rows")
        int smallReachSources = 8;
        @Option(names = "--peer-files", paramLabel = "DIR", description = "write the small-reach graphs and sources for gapbs")
        Path peerFiles;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "kron20,uniform20,ny,kron22,uniform22");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            graphs.graphs();
            return this;
        }

        Variants variants() {
            Variants v = Variants.DEFAULT;
            if (bfsVariants != null) v = v.withBfs(bfsVariants);
            if (ssspVariants != null) v = v.withSssp(ssspVariants);
            if (mstVariants != null) v = v.withMst(mstVariants);
            if (ssspSummariesVariants != null) v = v.withSsspSummaries(ssspSummariesVariants);
            return v;
        }
    }

    public static void main(String[] args) throws Exception {
        Cli o = BenchCli.options("GpuBench", args, Cli::new);
        List<String> graphs = o.graphs.graphs();
        int sources = o.sources, cpuRuns = o.cpuRuns, smallReach = o.smallReach, smallReachSources = o.smallReachSources;
        Path out = o.out, peerFiles = o.peerFiles;
        Variants variants = o.variants();
        if (GpuBackend.unavailableReason().isPresent()) {
            System.out.println("GPU benchmark skipped: " + GpuBackend.unavailableReason().get());
            return;
        }
        List<Row> rows = new ArrayList<>();
        StringBuilder notes = new StringBuilder();
        String device;
        try (GpuBackend gpu = Backends.gpu(); ComputeBackend cpu = new CpuBackend()) {
            device = gpu.device();
            System.out.println("GPU: " + device + "; CPU engine on " + Runtime.getRuntime().availableProcessors()
                    + " cores");
            for (String name : graphs) {
                long t0 = System.nanoTime();
                CsrGraph g = build(name);
                if (g == null) {
                    notes.append("- ").append(name).append(": not found, skipped\n");
                    continue;
                }
                String line = name + ": " + g + " built in " + ms(System.nanoTime() - t0) + " ms";
                System.out.println(line);
                notes.append("- ").append(line).append('\n');
                try {
                    bench(name, g, gpu, cpu, sources, cpuRuns, variants, rows, notes);
                    if (smallReach > 0) {
                        SmallReach.bench(name, g, gpu, cpu, smallReachSources, smallReach, variants, rows, notes,
                                peerFiles);
                    }
                } catch (RuntimeException e) {
                    System.out.println(name + ": FAILED: " + e);
                    e.printStackTrace(System.out);
                    notes.append("- ").append(name).append(": FAILED: ").append(e).append('\n');
                }
            }
        }
        String table = render(device, rows, notes.toString());
        System.out.println(table);
        if (out != null) Files.writeString(out, table);
    }

    /** A benchmark graph by name (kronSCALE, uniformSCALE, gridSIDE, ny); null when the dataset is absent. Shared with the peers harness. */
    public static CsrGraph build(String name) throws IOException {
        Edges e = edges(name);
        return e == null ? null : GraphBuilder.build(e.edges());
    }

    /**
     * The edges of a benchmark graph as a publisher sends them (self-loops and duplicates left to the storage policy)
     * and the user's id of vertex 0 (1 for the DIMACS file, 0 for generated graphs).
     */
    public record Edges(EdgeList edges, int firstVertexId) {}

    /** Suffix of a graph name that relabels its vertices in BFS order ({@link #bfsOrder}), e.g. {@code ny-bfsorder}. */
    static final String BFS_ORDER = "-bfsorder";

    /**
     * The same edges with the vertices renumbered in the order a BFS from vertex 0 over the arcs taken both ways
     * reaches them (Cuthill-McKee without its degree sort; the vertices of other components after, in BFS order from
     * the lowest unreached id): neighbours get near ids, so a frontier's rows, columns and distances sit close in
     * memory. A layout experiment only: answers are in the new ids.
     */
    static EdgeList bfsOrder(EdgeList e) {
        int n = e.vertexCount(), m = e.size();
        int[] deg = new int[n + 1];
        for (int i = 0; i < m; i++) {
            deg[e.source(i) + 1]++;
            deg[e.target(i) + 1]++;
        }
        for (int v = 0; v < n; v++) deg[v + 1] += deg[v];
        int[] adj = new int[2 * m], fill = deg.clone();
        for (int i = 0; i < m; i++) {
            adj[fill[e.source(i)]++] = e.target(i);
            adj[fill[e.target(i)]++] = e.source(i);
        }
        int[] label = new int[n], queue = new int[n];
        Arrays.fill(label, -1);
        int next = 0;
        for (int root = 0; root < n; root++) {
            if (label[root] >= 0) continue;
            int head = next, tail = next;
            label[root] = next++;
            queue[tail++] = root;
            while (head < tail) {
                int u = queue[head++];
                for (int k = deg[u]; k < deg[u + 1]; k++) {
                    int v = adj[k];
                    if (label[v] < 0) {
                        label[v] = next++;
                        queue[tail++] = v;
                    }
                }
            }
        }
        EdgeList out = new EdgeList(n, e.directed(), m);
        for (int i = 0; i < m; i++) out.add(label[e.source(i)], label[e.target(i)], e.weight(i));
        return out;
    }

    /** Suffix of a graph name that appends chains ({@link #withChains}), e.g. {@code kron20+chains}. */
    static final String CHAINS = "+chains";
    /** The longest chain {@link #withChains} appends. */
    static final int LONGEST_CHAIN = 64;

    /**
     * The same edges and, after the last vertex, one chain (a path of weight-1 edges, in the graph's direction) of
     * each length 2..{@value #LONGEST_CHAIN} vertices: a search from a chain's head reaches few vertices over as many
     * levels, as a source on a web graph's long tail does.
     */
    static EdgeList withChains(EdgeList e) {
        int n = e.vertexCount(), added = 0;
        for (int len = 2; len <= LONGEST_CHAIN; len++) added += len;
        EdgeList out = new EdgeList(n + added, e.directed(), e.size() + added);
        for (int i = 0; i < e.size(); i++) out.add(e.source(i), e.target(i), e.weight(i));
        int v = n;
        for (int len = 2; len <= LONGEST_CHAIN; len++) {
            for (int k = 1; k < len; k++) out.add(v + k - 1, v + k, 1);
            v += len;
        }
        return out;
    }

    /**
     * The real graphs of ../shared/datasets by short name (read as their files say: USA-road-d.NY and rome99 directed
     * DIMACS road networks, luxembourg_osm undirected with weight 1, the SNAP graphs with weight 1).
     */
    public static final java.util.Map<String, String> DATASETS = java.util.Map.of("ny", Datasets.NY,
            "rome99", Datasets.ROME, "luxembourg", Datasets.LUXEMBOURG, "enron", Datasets.ENRON,
            "facebook", Datasets.FACEBOOK);

    /** The edges of {@link #build}'s graph {@code name}; null when the dataset is absent. Shared with KafkaBench. */
    public static Edges edges(String name) throws IOException {
        if (name.endsWith(CHAINS)) {   // small reach over many levels (issue 31): the graph and chains after it
            Edges e = edges(name.substring(0, name.length() - CHAINS.length()));
            return e == null ? null : new Edges(withChains(e.edges()), e.firstVertexId());
        }
        if (name.endsWith(BFS_ORDER)) {   // a locality experiment (issue 11): the graph relabelled in BFS order
            Edges e = edges(name.substring(0, name.length() - BFS_ORDER.length()));
            return e == null ? null : new Edges(bfsOrder(e.edges()), e.firstVertexId());
        }
        if (name.startsWith("kron")) {
            return new Edges(KroneckerGraph.generate(Integer.parseInt(name.substring(4)), 16, SEED), 0);
        }
        if (name.startsWith("uniform")) {
            int scale = Integer.parseInt(name.substring(7));
            return new Edges(UniformRandomGraph.generate(1 << scale, 16L << scale, SEED, 255, false), 0);
        }
        if (name.startsWith("grid")) {   // a road-like stand-in: gridSIDE is a SIDE x SIDE grid (GridRoadGraph)
            int side = Integer.parseInt(name.substring(4));
            return new Edges(GridRoadGraph.generate(side, side, SEED, 255), 0);
        }
        String dataset = DATASETS.get(name);
        if (dataset != null) {
            var file = Datasets.file(dataset);
            if (file.isEmpty()) return null;
            LoadedGraph g = GraphFiles.read(file.get());
            return new Edges(g.edges(), g.firstVertexId());
        }
        throw new IllegalArgumentException("unknown graph " + name + " (kronSCALE, uniformSCALE, gridSIDE or one of "
                + DATASETS.keySet() + ")");
    }

    /**
     * The variants timed per algorithm (null: the default); {@code --bfs-variants a|b|c} (and sssp, mst) replace a
     * list, e.g. {@code --bfs-variants "default|persistent,blocks=8"} ("default" is the default variant).
     */
    record Variants(List<String> bfs, List<String> sssp, List<String> mst, List<String> ssspSummaries) {
        static final Variants DEFAULT = new Variants(
                Arrays.asList(null, "persistent,bps=1", "persistent,bps=2", "persistent,bps=64", "hostloop"),
                Arrays.asList(null, "nearfar,df=8", "nearfar,df=32", "nearfar,df=512", "nearfar,df=2048", "nearfar,bps=2", "async"),
                Arrays.asList(null, "boruvka,bps=1", "boruvka,bps=4", "ecl", "ecl,bps=2", "ecl,light=300"),
                Arrays.asList((String) null));

        private static List<String> parse(String list) {
            return Arrays.stream(list.split("\\|")).map(v -> v.equals("default") ? null : v).toList();
        }

        Variants withBfs(String list) { return new Variants(parse(list), sssp, mst, ssspSummaries); }
        Variants withSssp(String list) { return new Variants(bfs, parse(list), mst, ssspSummaries); }
        Variants withMst(String list) { return new Variants(bfs, sssp, parse(list), ssspSummaries); }
        Variants withSsspSummaries(String list) { return new Variants(bfs, sssp, mst, parse(list)); }
    }

    static void bench(String name, CsrGraph g, GpuBackend gpu, ComputeBackend cpu, int sourceCount, int cpuRuns,
                      Variants variants, List<Row> rows, StringBuilder notes) {
        int[] sources = sources(g, sourceCount);
        long t0 = System.nanoTime();
        try (ResidentGraph dev = gpu.load(g); ResidentGraph host = cpu.load(g)) {
            String upload = name + ": upload " + ms(System.nanoTime() - t0) + " ms, " + (dev.residentBytes() >> 20)
                    + " MiB resident";
            // correctness first: the first source against the CPU engine
            BfsResult bfsRef = Bfs.run(host, sources[0], null);
            BfsVerifier.verify(g, sources[0], Bfs.run(dev, sources[0], null), bfsRef).orThrow();
            SsspResult ssspRef = Sssp.run(host, sources[0], null);
            SsspResult ssspGpu = Sssp.run(dev, sources[0], null);
            SsspVerifier.verify(g, sources[0], ssspGpu, ssspRef).orThrow();
            if (!Arrays.equals(ssspRef.distances(), ssspGpu.distances())) throw new IllegalStateException("SSSP differs");
            MstResult mstRef = Mst.run(host, null), mstGpu = Mst.run(dev, null);
            if (!Arrays.equals(mstRef.edgeIds(), mstGpu.edgeIds()) || mstRef.totalWeight() != mstGpu.totalWeight()) {
                throw new IllegalStateException("MST differs from the CPU engine on " + name);
            }
            upload += ", MST edge list " + (dev.residentBytes() >> 20) + " MiB resident after; answers verified";
            System.out.println(upload);
            notes.append("- ").append(upload).append('\n');

            boolean kron = name.startsWith("kron");
            boolean road = name.equals("ny");
            double cpuBfs = median(cpuRuns, sources, s -> Bfs.run(host, s, null).timing(), true);
            double cpuSssp = median(cpuRuns, sources, s -> Sssp.run(host, s, null).timing(), true);
            double cpuMst = median(cpuRuns, sources, s -> Mst.run(host, null).timing(), true);
            for (String v : variants.bfs()) {
                Timed t = timed(sources, s -> Bfs.run(dev, s, v).timing());
                rows.add(new Row(name, "BFS", v == null ? "default" : v, t.kernelMs, t.queryMs, cpuBfs,
                        v == null ? target("BFS", kron, road, name) : "", t.stats()));
            }
            for (String v : variants.sssp()) {
                Timed t = timed(sources, s -> Sssp.run(dev, s, v).timing());
                rows.add(new Row(name, "SSSP", v == null ? "default" : v, t.kernelMs, t.queryMs, cpuSssp,
                        v == null ? target("SSSP", kron, road, name) : "", t.stats()));
            }
            // batched SUMMARY answers (what a burst of SUMMARY queries costs): 64 sources a run, times per source
            int[] batch = sources(g, 64);
            int[] runs = {0, 1, 2};   // three runs of the whole batch (after timed's two warm-up runs)
            Timed bfsBatch = timed(runs, r -> dev.run(Bfs.SUMMARIES, new Sources(batch), null).timing());
            rows.add(new Row(name, "BFS", "summaries of 64 sources, per source", bfsBatch.kernelMs / 64,
                    bfsBatch.queryMs / 64, cpuBfs, "", bfsBatch.stats()));
            for (String v : variants.ssspSummaries()) {
                Timed ssspBatch = timed(runs, r -> dev.run(Sssp.SUMMARIES, new Sources(batch), v).timing());
                rows.add(new Row(name, "SSSP", "summaries of 64 sources, per source" + (v == null ? "" : " (" + v + ")"),
                        ssspBatch.kernelMs / 64, ssspBatch.queryMs / 64, cpuSssp, "", ssspBatch.stats()));
            }
            for (String v : variants.mst()) {
                Timed t = timed(sources, s -> Mst.run(dev, v).timing());
                rows.add(new Row(name, "MST", v == null ? "default" : v, t.kernelMs, t.queryMs, cpuMst,
                        v == null ? target("MST", kron, road, name) : "", t.stats()));
            }
        }
    }

    static String target(String algorithm, boolean kron, boolean road, String name) {
        if (name.equals("kron22")) {
            return switch (algorithm) {
                case "BFS" -> "<= 1 ms, >= 10x CPU";
                case "SSSP" -> "<= 10 ms, >= 10x CPU";
                default -> "<= 20 ms, >= 10x CPU";
            };
        }
        if (road) {
            return switch (algorithm) {
                case "BFS" -> "<= 1.5 ms";
                case "SSSP" -> "<= 2.5 ms";
                default -> "<= 1 ms";
            };
        }
        return "";
    }

    /** Medians over the sources, and the kernels' counters of the last run (levels, iterations, rounds). */
    record Timed(double kernelMs, double queryMs, String stats) {}

    /** Two warm-up runs, then every source once: medians of device-event time and of wall time per query. */
    static Timed timed(int[] sources, Function<Integer, Timing> run) {
        run.apply(sources[0]);
        run.apply(sources[sources.length - 1]);
        double[] kernel = new double[sources.length], query = new double[sources.length];
        Timing t = Timing.NONE;
        for (int i = 0; i < sources.length; i++) {
            long t0 = System.nanoTime();
            t = run.apply(sources[i]);
            query[i] = (System.nanoTime() - t0) / 1e6;
            kernel[i] = t.computeNanos() / 1e6;
        }
        StringBuilder stats = new StringBuilder();
        new java.util.TreeMap<>(t.counters()).forEach((k, v) -> stats.append(stats.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return new Timed(median(kernel), median(query), stats.toString());
    }

    /** CPU engine: one warm-up, then the first {@code runs} sources; median wall time. */
    static double median(int runs, int[] sources, Function<Integer, Timing> run, boolean warm) {
        if (warm) run.apply(sources[0]);
        int k = Math.min(runs, sources.length);
        double[] t = new double[k];
        for (int i = 0; i < k; i++) {
            long t0 = System.nanoTime();
            run.apply(sources[i]);
            t[i] = (System.nanoTime() - t0) / 1e6;
        }
        return median(t);
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** Seeded random sources of non-zero out-degree (as GAP picks them). */
    /** {@code count} seeded sources of non-zero degree (the same for every tool that benchmarks {@code g}). */
    public static int[] sources(CsrGraph g, int count) {
        SplittableRandom r = new SplittableRandom(SEED ^ g.arcCount());
        int[] s = new int[count];
        for (int i = 0; i < count; i++) {
            int v;
            do v = r.nextInt(g.vertexCount()); while (g.degree(v) == 0);
            s[i] = v;
        }
        return s;
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    static String render(String device, List<Row> rows, String notes) {
        StringBuilder b = new StringBuilder();
        b.append("GPU: ").append(device).append("; date ").append(LocalDate.now()).append("; CPU engine on ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores\n\n");
        b.append("| graph | algorithm | variant | GPU kernel ms (median) | GPU query ms (median) | CPU engine ms |"
                + " speedup (kernel) | target | last run |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---|---|\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f | %.1f | %.0fx | %s | %s |%n", r.graph,
                    r.algorithm, r.variant, r.gpuKernelMs, r.gpuQueryMs, r.cpuMs, r.cpuMs / r.gpuKernelMs, r.target,
                    r.stats));
        }
        b.append('\n').append(notes);
        return b.toString();
    }

    private GpuBench() {}

}
