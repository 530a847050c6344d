package org.frontiergraph.bench.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * The end-to-end benchmark a user would run before adopting Frontier: everything goes through Kafka, as a pipeline
 * would send it, to one worker. Per graph: snapshot load throughput, closed-loop p50/p99 per algorithm and result
 * mode (with the worker's own LatencyEvent medians beside), burst throughput with N SUMMARY queries in flight,
 * sustained single-edge re-weights with one query per 1,000, one re-weight then one query, and sustained structural
 * single-edge updates (alternately an edge removed and one added) with one query per 1,000. Every answer's status
 * and graph version are checked, a sample of answers against the CPU engine. Prints a markdown table with the date,
 * the machine and the command, and writes it to {@code --out}. Exit status 0 when every answer was right, 1 when
 * not, 2 on a bad command line.
 *
 * <pre>java -cp ... org.frontiergraph.bench.kafka.KafkaBench [--bootstrap HOST:PORT [--start-worker]] [--graphs ny,kron20]
 *      [--backend auto|gpu|cpu] [--queries 100] [--burst 1000] [--updates 10000] [--out kafka-bench.md] ...</pre>
 *
 * (see {@link BenchOptions} for every option; docs/benchmarks.md, "Through Kafka", for results).
 */
public final class KafkaBench {
    private KafkaBench() {}

    /** A run's measurements and their markdown. */
    record Outcome(Report report, String markdown) {}

    public static void main(String[] args) {
        BenchMain.main("KafkaBench", args, BenchOptions.Cli::new, o -> {
            Outcome r = run(o);
            return new BenchMain.Result(r.markdown(), r.report().allOk());
        });
    }

    /** The client's Kafka settings: the cluster and the codec of {@code --compression}. */
    private static Properties clientSettings(BenchCluster cluster, BenchOptions o) {
        Properties p = FrontierClient.kafka(cluster.bootstrapServers());
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, o.compression());
        return p;
    }

    static Outcome run(BenchOptions o) throws IOException {
        FrontierCodec.trust();
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        String runId = "kb" + Long.toString(System.currentTimeMillis(), 36);
        String loadBefore = Machine.loadAverage();
        Report report = new Report();
        String where;
        log("starting %s", o.bootstrap() == null ? "an embedded broker and a worker" : "on " + o.bootstrap());
        try (BenchCluster cluster = BenchCluster.start(o);
             FrontierClient client = new FrontierClient(clientSettings(cluster, o), FrontierClient.Topics.defaults());
             BenchProducer producer = new BenchProducer(client.kafkaSettings(), client.topics().graphs());
             OutputTracker outputs = new OutputTracker(client.kafkaSettings(), client.topics(), runId, Duration.ofSeconds(120))) {
            where = cluster.description();
            GraphBench.Io io = new GraphBench.Io(cluster, client, producer, outputs, runId);
            log("%s; ready after %.1f s", where, (System.nanoTime() - t0) / 1e9);
            warmUp(io, o, report);
            for (String name : o.graphs()) {
                GpuBench.Edges e;
                try {
                    e = GpuBench.edges(name);
                } catch (IllegalArgumentException | IOException x) {
                    report.failures.add(name + ": " + x.getMessage());
                    continue;
                }
                if (e == null) {
                    report.failures.add(name + ": its dataset was not found (../shared/datasets or FRONTIER_DATASETS)");
                    continue;
                }
                log("%s: %,d vertices, %,d edges", name, e.edges().vertexCount(), e.edges().size());
                try {
                    new GraphBench(name, e.edges(), e.firstVertexId(), o, io, report).run();
                } catch (IllegalStateException x) {
                    report.failures.add(name + ": " + x.getMessage() + " (the graph's remaining scenarios were skipped)");
                    log("%s FAILED: %s", name, x.getMessage());
                }
                for (OutputTracker.Error err : outputs.errors("kbench-" + name)) {
                    if (err.event().getQueryId() == null) {
                        report.failures.add(name + ": the worker reported " + err.event().getCode() + ": " + err.event().getReason());
                    }
                }
                // the graphs so far, in case the run is cut off before the end (the GPU machine's time is limited)
                write(o, report.markdown(header(o, where, started, (System.nanoTime() - t0) / 1e9, loadBefore, Machine.loadAverage())
                        .replace("### KafkaBench, ", "### KafkaBench (in progress: graphs up to " + name + "), ")));
            }
        }
        String markdown = report.markdown(header(o, where, started, (System.nanoTime() - t0) / 1e9, loadBefore, Machine.loadAverage()));
        write(o, markdown);
        return new Outcome(report, markdown);
    }

    private static void write(BenchOptions o, String markdown) throws IOException {
        if (o.out() == null) return;
        Path parent = o.out().toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        Files.writeString(o.out(), markdown);
    }

    /**
     * A small graph loaded and asked once per algorithm before anything is timed: the worker has then joined its
     * group, created its topics and run each code path once.
     */
    private static void warmUp(GraphBench.Io io, BenchOptions o, Report report) {
        String id = "kbench-warmup";
        EdgeList g = UniformRandomGraph.generate(1_000, 8_000, o.seed(), 100, false);
        long version = System.currentTimeMillis();
        Duration timeout = Duration.ofSeconds(Math.max(120, o.timeoutS()));
        CompletableFuture<OutputTracker.Loaded> loaded = io.outputs().expectVersion(id, version);
        io.client().publishSnapshot(id, version, Snapshots.of(g), 0, true, null);
        GraphBench.await(io, loaded, "the warm-up graph loaded (is a worker running?)", timeout, id);
        for (Algorithm a : List.of(Algorithm.BFS, Algorithm.SSSP, Algorithm.MST)) {
            GraphQuery q = GraphQuery.newBuilder().setQueryId(io.runId() + "-warmup-" + a).setGraphId(id).setAlgorithm(a)
                    .setSource(a == Algorithm.MST ? null : 0).build();
            CompletableFuture<OutputTracker.Answer> answer = io.outputs().expect(q.getQueryId(), false);
            io.producer().send(id, q);
            OutputTracker.Head h = GraphBench.await(io, answer, "the warm-up " + a + " answer", timeout, id).head();
            report.answers++;
            if (h.status() != ResultStatus.OK || h.version() != version) {
                report.failures.add("warm-up " + a + ": " + h.status() + " on version " + h.version() + " - " + h.error());
            }
        }
        log("warm-up graph loaded and answered");
    }

    private static String header(BenchOptions o, String where, ZonedDateTime started, double seconds, String loadBefore,
                                 String loadAfter) {
        StringBuilder b = new StringBuilder();
        b.append("### KafkaBench, ").append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
        b.append("- command: `").append(o.command()).append("`\n");
        b.append("- Kafka and worker: ").append(where).append('\n');
        for (String line : Machine.describe().split("\n")) b.append("- ").append(line.replaceAll(" +", " ")).append('\n');
        b.append("- GPU: ").append(Machine.gpus().replace("\n", "; ")).append('\n');
        b.append(String.format(Locale.ROOT, "- settings: backend %s; closed loop %d queries a row after %d warm-up; burst %d; updates %d"
                        + " (one query per %d); update-then-query %d; %d load runs; %d answers a row checked against the CPU engine;"
                        + " budget %d s a row; seed %d; client compression %s%n", o.backend(), o.queries(), o.warmup(), o.burst(),
                o.updates(), o.queryEvery(), o.queries(), o.runs("load") ? o.loadRuns() : 1, o.verify(), o.budgetS(), o.seed(),
                o.compression()));
        b.append(String.format(Locale.ROOT, "- took %.0f s; load average (1, 5, 15 min) %s before, %s after%n", seconds,
                loadBefore, loadAfter));
        return b.toString();
    }

    static void log(String format, Object... args) {
        System.err.println("[kafka-bench] " + String.format(Locale.ROOT, format, args));
    }
}
