package org.frontiergraph.bench.worker;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.query.Answers;
import org.frontiergraph.worker.query.QueryAnswer;
import org.frontiergraph.worker.query.QueryService;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Query time through the worker's query service, without Kafka: the graph is installed from snapshot chunks as the
 * worker does, then {@link QueryService#answer} is timed (kernels + copy back + building the result chunks).
 * SUMMARY mode shows the engine's share; FULL mode adds turning n distances into Avro result chunks.
 * Every first FULL answer is checked by the verifiers. Usage:
 * {@code QueryPathBench [--backend gpu|cpu|auto] [--graphs ny,kron20,kron22] [--runs 16]}
 */
public final class QueryPathBench {
    private QueryPathBench() {}

    /** What the run printed, written to {@code --out} at the end. */
    private static final StringBuilder TABLE = new StringBuilder();

    /** Prints a line of the result and keeps it for {@code --out}. */
    private static void emit(String line) {
        System.out.println(line);
        TABLE.append(line).append('\n');
    }

    @Command(name = "QueryPathBench", description = "Query time through the worker's query service, without Kafka.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Mixin
        BenchCli.Backend backend;
        @Mixin
        BenchCli.Graphs graphs;
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--variants", description = "also time the kernel variants")
        boolean variants;
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--backend", "auto", "--graphs", "ny,kron20,kron22", "--runs", "16");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            backend.backend();
            graphs.graphs();
            runs.runs();
            return this;
        }
    }

    public static void main(String[] args) throws Exception {
        org.frontiergraph.schema.codec.FrontierCodec.trust();
        Cli o = BenchCli.options("QueryPathBench", args, Cli::new);
        String command = o.output.command();
        java.nio.file.Path out = o.output.out();
        int runs = o.runs.runs();
        if (command != null) emit("command: `" + command + "`\n");
        FrontierConfig config = new FrontierConfig();
        config.setBackend(o.backend.backend());
        try (EngineService engines = new EngineService(config); GraphRegistry registry = new GraphRegistry(engines, config)) {
            QueryService queries = new QueryService(registry, engines, config);
            emit(String.format(Locale.ROOT, "QueryService (no Kafka), backend %s, %d cores, %s%n", engines.defaultBackend(),
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version")));
            emit("| graph | algorithm | mode | backend | answer ms (median) | compute ms | copy ms | encode ms | chunks |");
            emit("|---|---|---|---|---:|---:|---:|---:|---:|");
            boolean ok = true;
            for (String name : o.graphs.graphs()) ok &= bench(name, registry, queries, runs);
            if (o.variants) ok &= variants(registry, queries);
            emit(ok ? "\nall answers verified" : "\nVERIFICATION FAILED");
            if (out != null) java.nio.file.Files.writeString(out, TABLE);
            if (!ok) System.exit(1);
        }
    }

    private static boolean bench(String name, GraphRegistry registry, QueryService queries, int runs) throws Exception {
        EdgeList edges;
        int first = 0;
        if (name.equals("ny")) {
            Path f = Datasets.file(Datasets.NY).orElseThrow(() -> new IllegalStateException("USA-road-d.NY not found"));
            LoadedGraph g = GraphFiles.read(f);
            edges = g.edges();
            first = g.firstVertexId();
        } else if (name.startsWith("kron")) {
            edges = KroneckerGraph.generate(Integer.parseInt(name.substring(4)), 16, 20260101L);
        } else {
            throw new IllegalArgumentException("graph " + name + ": ny or kronNN");
        }
        long t0 = System.nanoTime();
        for (var chunk : FrontierClient.chunks(name, 1, Snapshots.of(edges), first, true, FrontierClient.CHUNK_EDGES)) {
            registry.acceptChunk(chunk, 0);
        }
        var entry = registry.get(name).orElseThrow();
        CsrGraph g = entry.resident().graph();
        System.err.printf(Locale.ROOT, "%s: %d vertices, %d arcs installed in %.1f s on %s%n", name, g.vertexCount(), g.arcCount(),
                (System.nanoTime() - t0) / 1e9, entry.resident().backend());
        SplittableRandom rnd = new SplittableRandom(42);
        int[] sources = new int[runs];
        for (int i = 0; i < runs; i++) {
            int s;
            do { s = rnd.nextInt(g.vertexCount()); } while (g.degree(s) == 0);
            sources[i] = s;
        }
        boolean ok = true;
        for (Algorithm a : List.of(Algorithm.BFS, Algorithm.SSSP, Algorithm.MST)) {
            for (ResultMode mode : List.of(ResultMode.SUMMARY, ResultMode.FULL)) {
                double[] wall = new double[runs], compute = new double[runs], copy = new double[runs], encode = new double[runs];
                int chunks = 0;
                for (int i = -1; i < runs; i++) {   // i = -1: warm-up
                    int s = sources[Math.max(0, i)];
                    GraphQuery q = GraphQuery.newBuilder().setQueryId(name + a + mode + i).setGraphId(name).setAlgorithm(a)
                            .setSource(a == Algorithm.MST ? null : s + first).setResultMode(mode).build();
                    long w0 = System.nanoTime();
                    QueryAnswer ans = queries.answer(q);
                    long w = System.nanoTime() - w0;
                    if (ans.status() != ResultStatus.OK) throw new IllegalStateException(q.getQueryId() + ": " + ans.error());
                    if (i == 0 && mode == ResultMode.FULL) {
                        Verification v = Answers.verify(g, ans.chunks());
                        if (!v.ok()) {
                            System.err.println(name + " " + a + ": " + v.message());
                            ok = false;
                        }
                    }
                    if (i < 0) continue;
                    wall[i] = w / 1e6;
                    compute[i] = ans.computeNanos() / 1e6;
                    copy[i] = ans.copyNanos() / 1e6;
                    encode[i] = ans.encodeNanos() / 1e6;
                    chunks = ans.chunks().size();
                }
                emit(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %d |", name, a, mode,
                        entry.resident().backend(), median(wall), median(compute), median(copy), median(encode), chunks));
            }
        }
        return ok;
    }

    /** Every algorithm variant once through the query service, FULL mode, verified: rome99 and a seeded graph. */
    private static boolean variants(GraphRegistry registry, QueryService queries) throws Exception {
        Path rome = Datasets.file(Datasets.ROME).orElseThrow(() -> new IllegalStateException("rome99 not found"));
        LoadedGraph r = GraphFiles.read(rome);
        install(registry, "rome99", r.edges(), r.firstVertexId());
        install(registry, "random4k", org.frontiergraph.kernels.generate.UniformRandomGraph.generate(4096, 40_000, 7, 10, true), 0);
        String[][] table = {
            {"BFS", "persistent", "hostloop", "harish"},
            {"SSSP", "nearfar", "harish", "da2cf-f", "da2cf-u", "da2cf-u-plus", "da2cf-u,passes=2", "da2cf-f-matrix", "da2cf-u-matrix"},
            {"MST", "boruvka", "prim-gmr", "prim-naive"},
            {"APSP", "floyd-warshall", "floyd-warshall,blocked=1", "repeated-sssp"}};
        emit("\n| graph | algorithm | variant | status | backend | answer ms | verified |");
        emit("|---|---|---|---|---|---:|---|");
        boolean ok = true;
        for (String graph : List.of("rome99", "random4k")) {
            var entry = registry.get(graph).orElseThrow();
            CsrGraph g = entry.resident().graph();
            int first = entry.firstVertexId();
            for (String[] row : table) {
                Algorithm a = Algorithm.valueOf(row[0]);
                for (int k = 1; k < row.length; k++) {
                    GraphQuery q = GraphQuery.newBuilder().setQueryId(graph + a + row[k]).setGraphId(graph).setAlgorithm(a)
                            .setVariant(row[k]).setSource(a == Algorithm.BFS || a == Algorithm.SSSP ? first : null).build();
                    long w0 = System.nanoTime();
                    QueryAnswer ans = queries.answer(q);
                    double ms = (System.nanoTime() - w0) / 1e6;
                    Verification v = ans.status() != ResultStatus.OK ? Verification.fail(ans.status() + ": " + ans.error())
                            : Answers.verify(g, ans.chunks());
                    ok &= v.ok();
                    emit(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.1f | %s |", graph, a, row[k], ans.status(),
                            ans.backend(), ms, v.ok() ? "yes" : "NO: " + v.message()));
                }
            }
        }
        return ok;
    }

    private static void install(GraphRegistry registry, String id, EdgeList edges, int first) {
        for (var chunk : FrontierClient.chunks(id, 1, Snapshots.of(edges), first, true, FrontierClient.CHUNK_EDGES)) {
            registry.acceptChunk(chunk, 0);
        }
    }

    private static double median(double[] x) {
        double[] c = x.clone();
        Arrays.sort(c);
        return c.length == 0 ? 0 : c[c.length / 2];
    }

}
