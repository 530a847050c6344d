package org.frontiergraph.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.io.GraphFileException;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.FrontierWorker;

/**
 * The {@code ./frontier} command: worker, demo, load, query, generate. Errors print one line and exit non-zero
 * (1: failed, 2: bad usage).
 */
public final class FrontierCli {
    static final String USAGE = String.join("\n",
            "usage: ./frontier <command> [options]",
            "  worker [--bootstrap HOST:PORT] [--backend auto|gpu|cpu]",
            "      run a worker; without a bootstrap it starts an embedded Kafka broker on localhost:9092",
            "  demo   run broker, worker and a demo workload; print and verify the answers",
            "  load --graph ID FILE [--format dimacs|snap|mtx] [--undirected] [--version N] [--timeout SECONDS]",
            "      publish a graph file (.gr, .txt, .mtx, optionally .gz) as a snapshot; exit 0 once the worker holds it",
            "  query --graph ID --algorithm bfs|sssp|mst [--source V] [--targets V,V,...] [--mode full|targets|summary]",
            "        [--variant NAME] [--backend auto|gpu|cpu] [--output FILE] [--timeout SECONDS]",
            "      send a query, wait for its result and print it (or write it to FILE) as JSON",
            Generate.USAGE,
            "all commands but generate take --bootstrap HOST:PORT (default: $KAFKA_BOOTSTRAP_SERVERS or localhost:9092)");

    private FrontierCli() {}

    public static void main(String[] argv) {
        System.exit(run(argv, System.out, System.err));
    }

    static int run(String[] argv, PrintStream out, PrintStream err) {
        org.frontiergraph.schema.codec.FrontierCodec.trust();
        if (argv.length == 0 || argv[0].equals("help") || argv[0].equals("--help") || argv[0].equals("-h")) {
            out.println(USAGE);
            return argv.length == 0 ? 2 : 0;
        }
        try {
            return switch (argv[0]) {
                case "worker" -> worker(Args.parse(argv, 1, Set.of("bootstrap", "backend"), Set.of()));
                case "demo" -> Demo.run(Args.parse(argv, 1, Set.of("backend"), Set.of()).get("backend"), out);
                case "load" -> load(Args.parse(argv, 1, Set.of("bootstrap", "graph", "format", "version", "timeout"),
                        Set.of("undirected")), out, err);
                case "generate" -> Generate.run(argv, 1, out, err);
                case "query" -> query(Args.parse(argv, 1, Set.of("bootstrap", "graph", "algorithm", "source", "targets",
                        "mode", "variant", "backend", "output", "timeout"), Set.of()), out);
                default -> throw new Args.UsageException("unknown command '" + argv[0] + "'");
            };
        } catch (Args.UsageException e) {
            err.println("frontier: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (CliFailure e) {
            err.println("frontier: " + e.getMessage());
            return 1;
        } catch (GraphFileException e) {
            err.println("frontier: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            err.println("frontier: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return 1;
        }
    }

    static String bootstrap(Args a) {
        String b = FrontierWorker.configuredBootstrap(a.get("bootstrap"));
        return b == null ? "localhost:9092" : b;
    }

    /** A worker on the configured cluster, or on an embedded broker (see EmbeddedKafkaBroker.startLocal) when none is. */
    private static int worker(Args a) throws InterruptedException {
        if (a.get("backend") != null) System.setProperty("frontier.backend", a.get("backend"));
        String bootstrap = FrontierWorker.configuredBootstrap(a.get("bootstrap"));
        EmbeddedKafkaBroker broker = bootstrap == null ? EmbeddedKafkaBroker.startLocal() : null;
        FrontierWorker w;
        try {
            w = FrontierWorker.start(broker == null ? bootstrap : broker.bootstrapServers(), Map.of());
        } catch (RuntimeException e) {
            if (broker != null) broker.close();
            throw e;
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            w.close();   // the worker before the broker: the other order hangs Kafka clients on close
            if (broker != null) broker.close();
            stop.countDown();
        }, "frontier-shutdown"));
        System.out.println("frontier worker running; Kafka at " + w.bootstrapServers() + "; Ctrl-C stops it");
        stop.await();
        return 0;
    }

    private static int load(Args a, PrintStream out, PrintStream err) throws IOException {
        String graphId = a.require("graph");
        if (a.positional.size() != 1) throw new Args.UsageException("load needs exactly one FILE");
        Path file = Path.of(a.positional.get(0));
        if (!Files.isRegularFile(file)) throw new CliFailure("no such file: " + file);
        GraphFormat format = a.get("format") != null ? GraphFormat.parse(a.get("format"))
                : GraphFormat.fromFileName(file.getFileName().toString());
        long size = Files.size(file);
        Progress progress = new Progress(err, "reading " + file.getFileName(), size);
        LoadedGraph g = GraphFiles.read(file, format, a.flag("undirected"), progress::bytes);
        progress.done(g.vertexCount() + " vertices, " + g.edgeCount() + " edges");
        long version = Long.parseLong(a.get("version", Long.toString(System.currentTimeMillis())));
        Duration timeout = Duration.ofSeconds(Long.parseLong(a.get("timeout", "300")));
        String bootstrap = bootstrap(a);
        try (FrontierClient client = new FrontierClient(bootstrap);
             TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            Progress sending = new Progress(err, "publishing " + graphId + " v" + version, g.edgeCount());
            client.publishSnapshot(graphId, version, g.edges(), g.firstVertexId(), g.weighted(), sending::bytes);
            sending.done("sent to " + bootstrap);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                Optional<GraphStatus> s = status.awaitFirst(x -> x.getGraphId().equals(graphId) && x.getVersion() == version,
                        Duration.ofMillis(200));
                if (s.isPresent()) {
                    GraphStatus st = s.get();
                    out.printf(Locale.ROOT, "graph '%s' version %d loaded by %s: %d vertices, %d edges on %s (%.1f MB resident)%n",
                            graphId, version, st.getWorker(), st.getVertexCount(), st.getEdgeCount(), st.getBackend(),
                            st.getResidentBytes() / 1e6);
                    return 0;
                }
                Optional<ErrorEvent> e = errors.awaitFirst(x -> graphId.equals(x.getGraphId()), Duration.ofMillis(200));
                if (e.isPresent()) throw new CliFailure("worker rejected graph '" + graphId + "': " + e.get().getCode() + ": " + e.get().getReason());
            }
            throw new CliFailure("timed out after " + timeout.toSeconds() + " s waiting for a worker to load graph '" + graphId
                    + "' version " + version + " (is a worker running on " + bootstrap + "?)");
        }
    }

    private static int query(Args a, PrintStream out) throws IOException {
        Algorithm algorithm;
        try {
            algorithm = Algorithm.valueOf(a.require("algorithm").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException("--algorithm must be bfs, sssp or mst");
        }
        List<Integer> targets = new ArrayList<>();
        if (a.get("targets") != null) for (String t : a.get("targets").split(",")) targets.add(Integer.parseInt(t.trim()));
        ResultMode mode = ResultMode.valueOf(a.get("mode", targets.isEmpty() ? "full" : "targets").toUpperCase(Locale.ROOT));
        GraphQuery q = GraphQuery.newBuilder()
                .setQueryId(UUID.randomUUID().toString())
                .setGraphId(a.require("graph"))
                .setAlgorithm(algorithm)
                .setVariant(a.get("variant"))
                .setSource(a.get("source") == null ? null : Integer.parseInt(a.get("source")))
                .setTargets(targets)
                .setResultMode(mode)
                .setBackend(a.get("backend"))
                .build();
        Duration timeout = Duration.ofSeconds(Long.parseLong(a.get("timeout", "120")));
        String bootstrap = bootstrap(a);
        List<QueryResult> chunks;
        try (FrontierClient client = new FrontierClient(bootstrap)) {
            chunks = client.query(q, timeout).orElseThrow(() -> new CliFailure("timed out after " + timeout.toSeconds()
                    + " s waiting for the result of query " + q.getQueryId() + " (is a worker running on " + bootstrap + "?)"));
        }
        QueryResult head = chunks.get(0);
        if (a.get("output") != null) {
            try (Writer w = Files.newBufferedWriter(Path.of(a.get("output")), StandardCharsets.UTF_8)) {
                JsonAnswer.write(chunks, w);
            }
        } else {
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            JsonAnswer.write(chunks, w);
        }
        if (head.getStatus() != org.frontiergraph.schema.ResultStatus.OK) {
            throw new CliFailure(head.getStatus() + ": " + head.getError());
        }
        return 0;
    }

    /** A failure with a one-line reason for the user. */
    /** Progress on stderr for large files: a percentage at most every half second. */
    static final class Progress {
        private final PrintStream err;
        private final String what;
        private final long total;
        private long lastPrint;
        private final boolean enabled;

        Progress(PrintStream err, String what, long total) {
            this.err = err;
            this.what = what;
            this.total = Math.max(1, total);
            this.enabled = total > 1_000_000;
        }

        void bytes(long done) {
            long now = System.nanoTime();
            if (enabled && now - lastPrint > 500_000_000L) {
                lastPrint = now;
                err.printf(Locale.ROOT, "\r%s: %3d%%", what, Math.min(100, done * 100 / total));
            }
        }

        void done(String summary) {
            err.println((enabled ? "\r" : "") + what + ": done, " + summary);
        }
    }
}
