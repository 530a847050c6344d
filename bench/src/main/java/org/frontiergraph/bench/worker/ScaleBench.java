package org.frontiergraph.bench.worker;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.frontiergraph.worker.registry.HeapBudget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How large a graph one worker holds and how fast it loads it: Kronecker graphs (undirected, integral weights 1..255,
 * as GpuBench's) published with {@link FrontierClient} (its default producer settings) through the embedded broker to
 * one worker in this JVM. Per graph: load time from the first chunk handed to the producer to the worker's GraphStatus
 * LOADED (or REJECTED, whose reason is reported before the next graph), edges/s, the peak heap during the load (the
 * heap pools' peak usage, reset after a System.gc before the graph) and the process's peak RSS (VmHWM, reset through
 * /proc/self/clear_refs where the kernel allows), the host bytes the worker holds for the graph next to
 * {@link HeapBudget#buildBytes}; then BFS and SSSP from a few sources and MST, SUMMARY mode through Kafka (median ms
 * from publishing the query to its answer, and the worker's compute time from its LatencyEvents). Every answer must
 * be OK on the loaded version; its values are checked against {@link ComponentsCheck} (reached counts, MST weight and
 * trees, exact whatever the size) and, up to {@code --reference-max-edges}, against the CPU engine too (max hops and
 * max distance as well). The graph is dropped (a tombstone) before the next one. Exit status 0 when every answer
 * was right, 1 when not (a REJECTED graph is reported, not a failure).
 *
 * <p>The heap and RSS are this JVM's: the publisher's edge list (16 bytes an edge) is in them beside the worker's
 * build (the table's "publisher GB"); the chunks are made as the client sends them ({@link LazyChunks}).
 *
 * <pre>ScaleBench [--graphs kron22,kron24,kron25,kron26] [--backend gpu|cpu|auto] [--sources 3] [--reference-max-edges N]
 *            [--timeout-s 300] [--worker KEY=VALUE]... [--out FILE.md] [--command TEXT]</pre>
 * {@code --worker}: a property of the worker (e.g. {@code frontier.max-pending-snapshot-bytes=17179869184}), beside
 * {@code frontier.backend}; {@code --timeout-s}: the longest wait for a load's status or an answer.
 * On the GPU machine: {@code deploy/gpu/run.sh scale-bench} (deploy/gpu/README.md).
 */
public final class ScaleBench {
    private static final long SEED = 20_260_101L;   // GpuBench's, so kronN is the same graph there
    private ScaleBench() {}

    /** The command line. */
    record Options(List<String> graphs, String backend, int sources, long referenceMaxEdges, Duration timeout,
                   Map<String, String> worker, int chunkEdges, Map<String, String> producer, Path out, String command) {
        static Options parse(String[] args) {
            return BenchCli.parse(new Cli(), args);
        }
    }

    @Command(name = "ScaleBench", description = "Kronecker graphs loaded through the embedded broker by one worker, "
            + "then asked BFS, SSSP and MST, every answer verified.")
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Graphs graphs;
        @Mixin
        BenchCli.Backend backend;
        @Option(names = "--sources", paramLabel = "N", description = "BFS and SSSP sources per graph")
        int sources = 3;
        @Option(names = "--reference-max-edges", paramLabel = "N", description = "graphs up to this many edges are "
                + "checked against the CPU engine too")
        long referenceMaxEdges = 1L << 27;
        @Option(names = "--timeout-s", paramLabel = "S", description = "the longest wait for a load's status or an answer")
        int timeoutS = 300;
        @Option(names = "--worker", paramLabel = "KEY=VALUE", description = "a property of the worker (repeatable)")
        Map<String, String> worker = new LinkedHashMap<>();
        @Option(names = "--chunk-edges", paramLabel = "N", description = "edges a snapshot chunk")
        int chunkEdges = FrontierClient.CHUNK_EDGES;
        @Option(names = "--producer", paramLabel = "KEY=VALUE", description = "a setting of the client's producer (repeatable)")
        Map<String, String> producer = new LinkedHashMap<>();
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "kron22,kron24,kron25,kron26", "--backend", "gpu");
        }

        @Override
        public Options options(String[] args) {
            List<String> g = graphs.graphs();
            for (String name : g) {
                if (!name.matches("kron\\d+")) throw new IllegalArgumentException("not a Kronecker graph: " + name + " (kronSCALE)");
            }
            if (sources < 1) throw new IllegalArgumentException("--sources must be >= 1");
            return new Options(g, backend.backend(), sources, referenceMaxEdges, Duration.ofSeconds(timeoutS), Map.copyOf(worker),
                    chunkEdges, Map.copyOf(producer), output.out(), output.command("ScaleBench", args));
        }
    }

    /** Median ms of one algorithm: through Kafka (publish to whole answer) and the worker's compute time. */
    record Times(double kafkaMs, double kernelMs) {}

    /**
     * One graph's row; {@code state} LOADED or REJECTED ({@code reason} then); {@code verified} names the check
     * every answer passed, or is null when one failed (see the report's failures).
     */
    record Row(String graph, int vertices, long edges, GraphState state, String reason, double loadS, double edgesPerS,
               long peakHeapBytes, long sampledHeapBytes, long startRssBytes, long peakRssBytes, long publisherBytes,
               long workerHostBytes, long residentBytes,
               long modelPeakBytes, Times bfs, Times sssp, Times mst, String verified, double publishS,
               GraphRegistry.LoadTimes stages) {
        boolean loaded() { return state == GraphState.LOADED; }
    }

    /** The rows, failures and the markdown written. */
    record Outcome(List<Row> rows, List<String> failures, String markdown) {
        boolean ok() { return failures.isEmpty(); }
    }

    public static void main(String[] args) {
        BenchMain.main("ScaleBench", args, Cli::new, o -> {
            Outcome r = run(o);
            return new BenchMain.Result(r.markdown(), r.ok());
        });
    }

    /** The live pieces a graph's run talks to. */
    private record Io(FrontierWorker worker, FrontierClient client, TopicWatcher<GraphStatus> status,
                      TopicWatcher<QueryResult> results, TopicWatcher<LatencyEvent> latency, TopicWatcher<ErrorEvent> errors,
                      Duration timeout) {}

    static Outcome run(Options o) throws IOException {
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        List<Row> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>(), notes = new ArrayList<>();
        String header;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary();
             FrontierWorker worker = FrontierWorker.start(broker.bootstrapServers(), workerProperties(o));
             FrontierClient client = new FrontierClient(clientSettings(o, broker.bootstrapServers()), FrontierClient.Topics.defaults());
             TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults();
             TopicWatcher<LatencyEvent> latency = client.watchLatency();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            header = header(o, started, worker);
            Io io = new Io(worker, client, status, results, latency, errors, o.timeout());
            log("warming up on kron10 (topics, consumer group, each algorithm once)");
            graph(io, o, "kron10", true, failures, notes);
            for (String name : o.graphs()) {
                Row row = graph(io, o, name, false, failures, notes);
                if (row != null) rows.add(row);
                write(o, markdown(header + "\n(in progress: graphs up to " + name + ")\n", rows, failures, notes));
            }
        }
        String md = markdown(header, rows, failures, notes);
        write(o, md);
        return new Outcome(rows, failures, md);
    }

    /** The client's Kafka settings: the broker and {@code --producer}'s. */
    private static java.util.Properties clientSettings(Options o, String bootstrap) {
        java.util.Properties p = FrontierClient.kafka(bootstrap);
        p.putAll(o.producer());
        return p;
    }

    private static Map<String, Object> workerProperties(Options o) {
        Map<String, Object> p = new HashMap<>(o.worker());
        p.put("frontier.backend", o.backend());
        p.put("micronaut.server.port", -1);
        return p;
    }

    /** Generates, loads, asks, drops and verifies one graph; its row (null for the warm-up or when it failed). */
    private static Row graph(Io io, Options o, String name, boolean warmUp, List<String> failures, List<String> notes) {
        int scale = Integer.parseInt(name.substring(4));
        String id = "scale-" + name;
        long g0 = System.nanoTime();
        EdgeList edges = KroneckerGraph.generate(scale, 16, SEED);
        double generateS = (System.nanoTime() - g0) / 1e9;
        int n = edges.vertexCount();
        long m = edges.size();
        log("%s: %,d vertices, %,d edges generated in %.1f s on %d cores", name, n, m, generateS,
                Runtime.getRuntime().availableProcessors());
        Memory.reset();
        long startRss = Memory.rss();
        long version = System.currentTimeMillis();
        AtomicLong firstSentMs = new AtomicLong();
        LazyChunks chunks = new LazyChunks(id, version, edges, o.chunkEdges());
        CompletableFuture<Double> publishing = CompletableFuture.supplyAsync(() -> {
            long c0 = System.nanoTime();
            io.client().publishChunks(chunks, sent -> firstSentMs.compareAndSet(0, System.currentTimeMillis()));
            return (System.nanoTime() - c0) / 1e9;
        }, r -> {
            Thread t = new Thread(r, "scale-bench-publisher");
            t.setDaemon(true);
            t.start();
        });
        Heard heard = await(io, id, version, publishing);
        if (heard == null || heard.status() == null || heard.status().getState() != GraphState.LOADED) chunks.stop();
        double publishS;
        try {
            publishS = publishing.get(io.timeout().toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!chunks.stopped()) {
                failures.add(name + ": publishing failed: " + e.getCause().getMessage());
                drop(io, id, version);
                return null;
            }
            publishS = Double.NaN;
            log("%s: publishing stopped after %,d of %,d chunks, the version refused", name, chunks.made(), chunks.size());
        } catch (TimeoutException | InterruptedException e) {
            failures.add(name + ": publishing did not end within " + io.timeout().toSeconds() + " s");
            return null;
        }
        long peakHeap = Memory.peakHeap(), sampledHeap = Memory.sampledHeap(), peakRss = Memory.peakRss();
        if (heard == null) {
            failures.add(name + ": no GraphStatus LOADED or REJECTED, nor an error event, within " + io.timeout().toSeconds() + " s");
            drop(io, id, version);
            return null;
        }
        double loadS = (heard.atMs() - firstSentMs.get()) / 1e3;
        long publisher = 16 * m;   // the edge list: two int32 and a float64 an edge (the chunks in flight are few)
        long model = HeapBudget.buildBytes(n, m, false);
        GraphStatus s = heard.status();
        if (s == null || s.getState() == GraphState.REJECTED) {
            String reason = s != null ? "GraphStatus REJECTED: " + (s.getReason() == null ? "(no reason given)" : s.getReason())
                    : "no GraphStatus; ErrorEvent " + heard.error().getCode() + ": " + heard.error().getReason();
            if (Double.isNaN(publishS)) {
                reason += String.format(Locale.ROOT, " (publishing stopped after %,d of %,d chunks)", chunks.made(), chunks.size());
            }
            log("%s: not loaded after %.1f s: %s", name, loadS, reason);
            if (warmUp) failures.add("the warm-up graph was not loaded: " + reason);
            drop(io, id, version);
            return warmUp ? null : new Row(name, n, m, GraphState.REJECTED, reason, loadS, m / loadS, peakHeap, sampledHeap, startRss,
                    peakRss, publisher, 0, 0, model, null, null, null, "-", publishS, null);
        }
        if (!o.backend().equals("auto") && !o.backend().equals(s.getBackend())) {
            failures.add(name + ": loaded on the " + s.getBackend() + " engine, not on " + o.backend());
        }
        GraphRegistry registry = io.worker().context().getBean(GraphRegistry.class);
        long host = registry.graphBytes();
        GraphRegistry.LoadTimes stages = registry.lastLoad().filter(t -> t.graphId().equals(id) && t.version() == version).orElse(null);
        log("%s: LOADED in %.2f s (%.1f M edges/s; chunks published and acknowledged in %.1f s), peak heap %.1f GB"
                + " (sampled %.1f GB), peak RSS %.1f GB", name, loadS, m / loadS / 1e6, publishS, peakHeap / 1e9, sampledHeap / 1e9,
                peakRss / 1e9);
        int[] sources = sources(edges, o.sources());
        List<Answer> answers = new ArrayList<>();
        Times bfs = null, sssp = null, mst = null;
        try {
            int[] once = {sources[0]};   // untimed (verified all the same): the first answer of each algorithm on this graph
            for (Algorithm a : List.of(Algorithm.BFS, Algorithm.SSSP, Algorithm.MST)) ask(io, id, a, once, answers);
            if (!warmUp) {
                bfs = ask(io, id, Algorithm.BFS, sources, answers);
                sssp = ask(io, id, Algorithm.SSSP, sources, answers);
                mst = ask(io, id, Algorithm.MST, sources, answers);   // as many MST answers as sources
            }
        } catch (IllegalStateException e) {
            failures.add(name + ": " + e.getMessage());
            drop(io, id, version);
            return null;
        }
        drop(io, id, version);
        log("%s: %d answers; dropped; verifying", name, answers.size());
        long v0 = System.nanoTime();
        String verified = SummaryCheck.verify(name, edges, version, answers, o.referenceMaxEdges(), failures);
        notes.add(String.format(Locale.ROOT, "%s: generated in %.1f s; chunks published and acknowledged in %.1f s;"
                        + " backend %s, %.2f GB resident on it; VmHWM %s before the load; %s (%.1f s)%s", name, generateS, publishS,
                s.getBackend(), s.getResidentBytes() / 1e9, Memory.hwmReset() ? "reset" : "not reset",
                verified == null ? "a check FAILED" : "verified: " + verified, (System.nanoTime() - v0) / 1e9,
                "gpu".equals(s.getBackend()) ? "; issue 29's ingest target (H200: >= 50 M edges/s end to end) "
                        + (m / loadS >= 50e6 ? "met" : "**not met**") : ""));
        return warmUp ? null : new Row(name, n, m, GraphState.LOADED, null, loadS, m / loadS, peakHeap, sampledHeap, startRss, peakRss,
                publisher, host, s.getResidentBytes(), model, bfs, sssp, mst, verified, publishS, stages);
    }

    /** A SUMMARY answer as it came, with the source it was asked from (-1 for MST). */
    record Answer(Algorithm algorithm, int source, QueryResult head) {}

    /** One query per source, one after the other; the medians. Throws when an answer does not come. */
    private static Times ask(Io io, String id, Algorithm a, int[] sources, List<Answer> answers) {
        double[] kafka = new double[sources.length], kernel = new double[sources.length];
        for (int i = 0; i < sources.length; i++) {
            String queryId = id + "-" + a + "-" + i + "-" + System.nanoTime();
            GraphQuery q = GraphQuery.newBuilder().setQueryId(queryId).setGraphId(id).setAlgorithm(a)
                    .setSource(a == Algorithm.MST ? null : sources[i]).setResultMode(ResultMode.SUMMARY).build();
            long t0 = System.nanoTime();
            io.client().publishQuery(q);
            List<QueryResult> chunks = FrontierClient.awaitResult(io.results(), queryId, io.timeout())
                    .orElseThrow(() -> new IllegalStateException("no answer to " + a + " within " + io.timeout().toSeconds() + " s"));
            kafka[i] = (System.nanoTime() - t0) / 1e6;
            LatencyEvent e = io.latency().awaitFirst(x -> x.getQueryId().equals(queryId), io.timeout())
                    .orElseThrow(() -> new IllegalStateException("no LatencyEvent for " + queryId));
            kernel[i] = e.getComputeMicros() / 1e3;
            answers.add(new Answer(a, a == Algorithm.MST ? -1 : sources[i], chunks.get(0)));
        }
        return new Times(median(kafka), median(kernel));
    }

    /** What the worker said of a snapshot version: its GraphStatus LOADED or REJECTED, else an error event about it. */
    private record Heard(GraphStatus status, ErrorEvent error) {
        long atMs() { return status != null ? status.getTimestampMs() : error.getTimestampMs(); }
    }

    /**
     * Waits for the version's GraphStatus (LOADED or REJECTED); an error event about the graph (not about a query) ends
     * the wait too, after a last look for its status. Null when neither came within the timeout, or publishing failed.
     */
    private static Heard await(Io io, String id, long version, CompletableFuture<?> publishing) {
        long deadline = System.nanoTime() + io.timeout().toNanos();
        Predicate<GraphStatus> ours = x -> x.getGraphId().equals(id) && x.getVersion() == version
                && x.getState() != GraphState.DROPPED;
        while (System.nanoTime() < deadline) {
            if (publishing.isCompletedExceptionally()) return null;
            var status = io.status().awaitFirst(ours, Duration.ofMillis(500));
            if (status.isPresent()) return new Heard(status.get(), null);
            var error = io.errors().awaitFirst(e -> id.equals(e.getGraphId()) && e.getQueryId() == null, Duration.ofMillis(50));
            if (error.isPresent()) return new Heard(io.status().awaitFirst(ours, Duration.ofSeconds(2)).orElse(null), error.get());
        }
        return null;
    }

    /**
     * Publishes the graph's tombstone and waits for its DROPPED status (the worker then frees its memory), or the
     * error event at the tombstone's offset of a worker that holds nothing of it (a refused version).
     */
    private static void drop(Io io, String id, long version) {
        RecordMetadata at = io.client().drop(id);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (io.status().awaitFirst(x -> x.getGraphId().equals(id) && x.getVersion() == version
                    && x.getState() == GraphState.DROPPED, Duration.ofMillis(200))
                    .isPresent()) return;
            if (io.errors().awaitFirst(e -> e.getPartition() == at.partition() && e.getOffset() == at.offset(), Duration.ofMillis(20))
                    .isPresent()) return;
        }
        log("%s: neither DROPPED nor an error event for its tombstone within 60 s", id);
    }

    /** {@code count} seeded sources of non-zero degree: the first endpoint of random edges that are not self-loops. */
    static int[] sources(EdgeList e, int count) {
        SplittableRandom r = new SplittableRandom(SEED ^ e.size());
        int[] s = new int[count];
        for (int i = 0; i < count; i++) {
            int k;
            do k = r.nextInt(e.size()); while (e.source(k) == e.target(k));
            s[i] = e.source(k);
        }
        return s;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String header(Options o, ZonedDateTime started, FrontierWorker worker) {
        StringBuilder b = new StringBuilder();
        b.append("### ScaleBench, ").append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
        b.append("- command: `").append(o.command()).append("`\n");
        for (String line : Machine.describe().split("\n")) b.append("- ").append(line.replaceAll(" +", " ")).append('\n');
        b.append("- GPU: ").append(Machine.gpus().replace("\n", "; ")).append('\n');
        HeapBudget budget = worker.context().getBean(GraphRegistry.class).budget();
        b.append(String.format(Locale.ROOT, "- embedded broker and one worker in this JVM (frontier.backend=%s%s, graph budget %s,"
                        + " pending snapshots at most %s);"
                        + " the client's producer settings: acks=all, enable.idempotence=true, max.request.size=1 MiB,"
                        + " compression.type=%s, batch.size and linger.ms Kafka's defaults, unless --producer says otherwise (%s);"
                        + " %,d edges a chunk, encoded %d ahead%n",
                o.backend(), o.worker().isEmpty() ? "" : ", " + new TreeMap<>(o.worker()).toString().replaceAll("[{}]", ""),
                HeapBudget.mb(budget.limitBytes()),
                pendingCap(worker.context().getBean(FrontierConfig.class).getMaxPendingSnapshotBytes()),
                FrontierClient.DEFAULT_COMPRESSION, o.producer().isEmpty() ? "none" : new TreeMap<>(o.producer()), o.chunkEdges(),
                Math.max(2, 2 * Runtime.getRuntime().availableProcessors())));
        b.append(String.format(Locale.ROOT, "- Kronecker graphs (edge factor 16, undirected, weights 1..255, seed %d); %d sources"
                + " (and as many MST queries), SUMMARY mode, after one untimed query of each algorithm; CPU-engine reference up to %,d"
                + " edges%n", SEED, o.sources(), o.referenceMaxEdges()));
        b.append("- verified: every answer OK on the version loaded; \"Kruskal\": reached counts (BFS, SSSP), MST total weight and"
                + " trees equal to a parallel Kruskal over the published edge list's integral weight classes (exact at any size);"
                + " \"CPU engine\": every SUMMARY value (max hops and max distance too) equal to the CPU engine's on the same edges\n");
        return b.toString();
    }

    static String markdown(String header, List<Row> rows, List<String> failures, List<String> notes) {
        StringBuilder b = new StringBuilder(header).append('\n');
        b.append("Load: from the first chunk handed to the producer to the worker's GraphStatus. Peak heap: the sum of the"
                + " heap pools' peak usages during the load (an upper bound) / the largest used heap sampled every 5 ms (a lower"
                + " bound); RSS: VmRSS when the load starts (the JVM keeps heap that earlier graphs touched) / VmHWM after it"
                + " (reset to VmRSS before the load where /proc/self/clear_refs allows it). Both are this JVM's: the publisher's"
                + " edge list (\"publisher GB\") counts in them (its chunks are made as the client sends them). Worker host GB:"
                + " the heap the worker's budget counts for the graph (host copy and query caches); model peak:"
                + " HeapBudget.buildBytes; device GB: GraphStatus residentBytes. Times: median ms, the worker's compute time"
                + " (LatencyEvent computeMicros) / through Kafka (query published to answer received).\n\n");
        b.append("| graph | vertices | edges | load s | edges/s | peak heap GB (pools / sampled) | RSS GB (start / peak) |"
                + " publisher GB | worker host GB | model peak GB | device GB | BFS kernel / Kafka ms | SSSP kernel / Kafka ms |"
                + " MST kernel / Kafka ms | verified |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            if (!r.loaded()) {
                b.append(String.format(Locale.ROOT, "| %s | %,d | %,d | not loaded after %.1f | - | %.2f / %.2f | %.2f / %.2f | %.2f"
                                + " | - | %.2f | - | - | - | - | %s |%n", r.graph(), r.vertices(), r.edges(), r.loadS(),
                        gb(r.peakHeapBytes()), gb(r.sampledHeapBytes()), gb(r.startRssBytes()), gb(r.peakRssBytes()),
                        gb(r.publisherBytes()), gb(r.modelPeakBytes()), r.reason().replace("|", "/")));
                continue;
            }
            b.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %.2f | %.1f M | %.2f / %.2f | %.2f / %.2f | %.2f | %.2f | %.2f"
                            + " | %.2f | %s | %s | %s | %s |%n", r.graph(), r.vertices(), r.edges(), r.loadS(), r.edgesPerS() / 1e6,
                    gb(r.peakHeapBytes()), gb(r.sampledHeapBytes()), gb(r.startRssBytes()), gb(r.peakRssBytes()),
                    gb(r.publisherBytes()), gb(r.workerHostBytes()), gb(r.modelPeakBytes()),
                    gb(r.residentBytes()), times(r.bfs()), times(r.sssp()), times(r.mst()),
                    r.verified() == null ? "**FAILED**" : r.verified()));
        }
        b.append('\n');
        b.append(LoadStages.markdown(rows));
        b.append('\n');
        for (String n : notes) b.append("- ").append(n).append('\n');
        if (!failures.isEmpty()) {
            b.append("\n**Failures**\n\n");
            for (String f : failures) b.append("- ").append(f).append('\n');
        }
        return b.toString();
    }

    private static String times(Times t) {
        return String.format(Locale.ROOT, "%.2f / %.1f", t.kernelMs(), t.kafkaMs());
    }

    private static double gb(long bytes) {
        return bytes / 1e9;
    }

    private static void write(Options o, String markdown) throws IOException {
        if (o.out() == null) return;
        Path parent = o.out().toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(o.out(), markdown);
    }

    static void log(String format, Object... args) {
        System.err.println("[scale-bench] " + String.format(Locale.ROOT, format, args));
    }

    /**
     * This JVM's peak heap and peak RSS (VmHWM), reset before each graph. The heap's peak two ways: the sum of the heap
     * pools' peak usages (each pool's own peak, so an upper bound: eden and the old generation need not peak at once)
     * and the largest used heap a sampler saw every {@link #SAMPLE_MS} ms (a lower bound).
     */
    static final class Memory {
        static final long SAMPLE_MS = 5;
        private static final AtomicLong SAMPLED = new AtomicLong();

        static {
            Thread sampler = new Thread(() -> {
                var heap = ManagementFactory.getMemoryMXBean();
                while (true) {
                    SAMPLED.accumulateAndGet(heap.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(SAMPLE_MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "scale-bench-heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        private Memory() {}

        /** The largest used heap sampled since the last reset. */
        static long sampledHeap() {
            return SAMPLED.get();
        }

        static void reset() {
            System.gc();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP) p.resetPeakUsage();
            }
            SAMPLED.set(0);
            try {
                Files.writeString(Path.of("/proc/self/clear_refs"), "5");   // resets VmHWM to the current RSS
                hwmReset = true;
            } catch (IOException | RuntimeException e) {
                hwmReset = false;   // not Linux, or not allowed: VmHWM is then the process's peak so far
            }
        }

        private static volatile boolean hwmReset;

        /** Whether the last reset reset VmHWM too. */
        static boolean hwmReset() { return hwmReset; }

        static long peakHeap() {
            long sum = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) sum += p.getPeakUsage().getUsed();
            }
            return sum;
        }

        /** VmHWM in bytes; 0 where /proc/self/status cannot be read. */
        static long peakRss() {
            return status("VmHWM:");
        }

        /** VmRSS in bytes: the JVM keeps heap it touched, so the RSS a load starts from includes earlier graphs'. */
        static long rss() {
            return status("VmRSS:");
        }

        private static long status(String field) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith(field)) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            } catch (IOException | RuntimeException e) {
                return 0;
            }
            return 0;
        }
    }

    /** The pending-chunk cap as configured: 0 is the graph budget (the default). */
    private static String pendingCap(long bytes) {
        return bytes > 0 ? HeapBudget.mb(bytes) : "the graph budget";
    }
}
