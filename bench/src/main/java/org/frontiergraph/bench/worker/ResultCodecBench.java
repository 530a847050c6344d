package org.frontiergraph.bench.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.query.Answers;
import org.frontiergraph.worker.query.QueryAnswer;
import org.frontiergraph.worker.query.QueryService;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.registry.SnapshotAssembler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What the message contract costs on USA-road-d.NY (264,346 vertices), without Kafka and without the kernels:
 * FULL answers of BFS, SSSP and MST (CPU engine) and the snapshot, each through every step it takes between the
 * engine's arrays and a consumer's arrays. Results: <b>build</b> = the worker's answer encoder making the
 * {@code QueryResult} chunks (QueryService's encode time, 60,000 vertices or 40,000 edges a chunk), <b>encode</b> =
 * {@code FrontierCodec.encode} of every chunk (the bytes the publisher sends), <b>decode</b> =
 * {@code FrontierCodec.decode} of every chunk, <b>read</b> = the client's {@code Answers} turning the chunks back into
 * arrays. Snapshot: build = {@code FrontierClient.chunks} (50,000 edges a chunk), encode, decode, read = the worker's
 * {@code SnapshotAssembler} turning the chunks into one edge list. The first read-back of each is checked by the
 * verifiers before anything is timed. Usage: {@code ResultCodecBench [--runs 21] [--warmup 10]}
 */
public final class ResultCodecBench {
    private ResultCodecBench() {}

    @Command(name = "ResultCodecBench", description = "What the message contract costs on USA-road-d.NY, without Kafka and the kernels.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--warmup", paramLabel = "N", description = "untimed runs first")
        int warmup = 10;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--runs", "21");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            runs.runs();
            return this;
        }
    }

    public static void main(String[] args) throws Exception {
        FrontierCodec.trust();
        Cli o = BenchCli.options("ResultCodecBench", args, Cli::new);
        int runs = o.runs.runs(), warmup = o.warmup;
        Path f = Datasets.file(Datasets.NY).orElseThrow(() -> new IllegalStateException("USA-road-d.NY not found"));
        LoadedGraph ny = GraphFiles.read(f);
        FrontierConfig config = new FrontierConfig();
        config.setBackend("cpu");
        System.out.println(org.frontiergraph.bench.Machine.describe());
        System.out.printf(Locale.ROOT, "load average at start: %s%n%n", loadAverage());
        System.out.println("| message | chunks | MB | build ms | encode ms | decode ms | read ms | total ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        try (EngineService engines = new EngineService(config); GraphRegistry registry = new GraphRegistry(engines, config)) {
            List<GraphSnapshotChunk> snapshot = FrontierClient.chunks("ny", 1, Snapshots.of(ny.edges()), ny.firstVertexId(), true,
                    FrontierClient.CHUNK_EDGES);
            for (GraphSnapshotChunk c : snapshot) registry.acceptChunk(c, 0);
            CsrGraph g = registry.get("ny").orElseThrow().resident().graph();
            QueryService queries = new QueryService(registry, engines, config);
            int source = 0;  // user id 1, as in the README's NY checks
            answer("BFS FULL", queries, Algorithm.BFS, source, ny.firstVertexId(), runs, warmup,
                    chunks -> Answers.decode(BfsResult.class, chunks), r -> BfsVerifier.verify(g, source, r));
            answer("SSSP FULL", queries, Algorithm.SSSP, source, ny.firstVertexId(), runs, warmup,
                    chunks -> Answers.decode(SsspResult.class, chunks), r -> SsspVerifier.verify(g, source, r));
            answer("MST FULL", queries, Algorithm.MST, source, ny.firstVertexId(), runs, warmup,
                    chunks -> Answers.decode(MstResult.class, g, chunks), r -> MstVerifier.verify(g, r));
            snapshot(ny, runs, warmup);
        }
        System.out.printf(Locale.ROOT, "%nload average at end: %s%n", loadAverage());
    }

    private static <R> void answer(String name, QueryService queries, Algorithm a, int source, int first, int runs,
                                   int warmup, Function<List<QueryResult>, R> read, Function<R, Verification> verify)
            throws Exception {
        Stages s = new Stages(runs);
        for (int i = -warmup; i < runs; i++) {
            GraphQuery q = GraphQuery.newBuilder().setQueryId(name + i).setGraphId("ny").setAlgorithm(a)
                    .setSource(a == Algorithm.MST ? null : source + first).setResultMode(ResultMode.FULL).build();
            QueryAnswer ans = queries.answer(q);
            if (ans.status() != ResultStatus.OK) throw new IllegalStateException(name + ": " + ans.error());
            long t0 = System.nanoTime();
            List<byte[]> bytes = encode(ans.chunks());
            long t1 = System.nanoTime();
            List<QueryResult> back = decode(bytes, QueryResult.class);
            long t2 = System.nanoTime();
            R result = read.apply(back);
            long t3 = System.nanoTime();
            if (i == -warmup) {
                verify.apply(result).orThrow();
                s.describe(ans.chunks().size(), bytes);
            }
            if (i < 0) continue;
            s.record(i, ans.encodeNanos(), t1 - t0, t2 - t1, t3 - t2);
        }
        s.print(name);
    }

    private static void snapshot(LoadedGraph ny, int runs, int warmup) throws Exception {
        Stages s = new Stages(runs);
        for (int i = -warmup; i < runs; i++) {
            long t0 = System.nanoTime();
            List<GraphSnapshotChunk> chunks = FrontierClient.chunks("ny", 1, Snapshots.of(ny.edges()), ny.firstVertexId(), true,
                    FrontierClient.CHUNK_EDGES);
            long t1 = System.nanoTime();
            List<byte[]> bytes = encode(chunks);
            long t2 = System.nanoTime();
            List<GraphSnapshotChunk> back = decode(bytes, GraphSnapshotChunk.class);
            long t3 = System.nanoTime();
            SnapshotAssembler assembler = new SnapshotAssembler(Long.MAX_VALUE);
            SnapshotAssembler.Assembled a = null;
            for (GraphSnapshotChunk c : back) a = assembler.accept(c, 0).complete().orElse(a);
            long t4 = System.nanoTime();
            if (a == null || a.graph().edges() != ny.edges().size()) throw new IllegalStateException("snapshot did not assemble");
            if (i == -warmup) {
                CsrGraph built = a.graph().build(), expected = GraphBuilder.build(ny.edges());
                if (!java.util.Arrays.equals(built.columns(), expected.columns()) || !java.util.Arrays.equals(built.weights(), expected.weights())
                        || !java.util.Arrays.equals(built.rowOffsets(), expected.rowOffsets())) {
                    throw new IllegalStateException("the snapshot's graph differs after the round trip");
                }
                s.describe(chunks.size(), bytes);
            }
            if (i < 0) continue;
            s.record(i, t1 - t0, t2 - t1, t3 - t2, t4 - t3);
        }
        s.print("snapshot (730,100 arcs)");
    }

    private static List<byte[]> encode(List<? extends org.apache.avro.specific.SpecificRecord> records) {
        List<byte[]> out = new ArrayList<>(records.size());
        for (var r : records) out.add(FrontierCodec.encode(r));
        return out;
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> List<T> decode(List<byte[]> bytes, Class<T> type)
            throws FrontierCodec.MalformedMessageException {
        List<T> out = new ArrayList<>(bytes.size());
        for (byte[] b : bytes) out.add(FrontierCodec.decode(b, type));
        return out;
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** The four timed steps of every run; medians printed as one table row. */
    private static final class Stages {
        final double[] build, encode, decode, read;
        int chunks;
        long bytes;

        Stages(int runs) {
            build = new double[runs];
            encode = new double[runs];
            decode = new double[runs];
            read = new double[runs];
        }

        void describe(int chunks, List<byte[]> messages) {
            this.chunks = chunks;
            this.bytes = messages.stream().mapToLong(b -> b.length).sum();
        }

        void record(int i, long b, long e, long d, long r) {
            build[i] = b / 1e6;
            encode[i] = e / 1e6;
            decode[i] = d / 1e6;
            read[i] = r / 1e6;
        }

        void print(String name) {
            double[] total = new double[build.length];
            for (int i = 0; i < total.length; i++) total[i] = build[i] + encode[i] + decode[i] + read[i];
            System.out.printf(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n", name, chunks, bytes / 1e6,
                    median(build), median(encode), median(decode), median(read), median(total));
        }
    }

    private static double median(double[] x) {
        double[] c = x.clone();
        Arrays.sort(c);
        return c.length == 0 ? 0 : c[c.length / 2];
    }
}
