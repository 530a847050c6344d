package org.frontiergraph.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.worker.config.FrontierConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier load}: reads a graph file, publishes it as a chunked snapshot and waits until a worker reports
 * the version loaded (exit 0) or rejects it (exit 1 with the worker's reason).
 */
@Command(name = "load", sortOptions = false,
        description = "Publish a graph file (.gr, .txt, .mtx, optionally .gz) as a snapshot; exit 0 once a worker holds it.")
final class LoadCommand implements Callable<Integer> {
    /** How long the graph's last status is looked for when choosing the version. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @ParentCommand
    FrontierCli cli;

    /** Not mixinStandardHelpOptions: its -V/--version would take the name of the snapshot's --version. */
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--graph", paramLabel = "ID", description = "The graph's id (the Kafka key); required unless --estimate.")
    String graphId;

    @Parameters(paramLabel = "FILE", arity = "1", description = "DIMACS .gr, SNAP .txt/.edges/.el or MatrixMarket .mtx, optionally .gz.")
    Path file;

    @Option(names = "--format", paramLabel = "dimacs|snap|mtx", converter = Converters.GraphFormatName.class,
            description = "The file's format (default: from its name).")
    GraphFormat format;

    @Option(names = "--undirected", description = "A SNAP edge list of an undirected graph (each line is an edge both ways).")
    boolean undirected;

    @Option(names = "--names", description = "The file's vertices are names (a SNAP or CSV edge list 'A B [W]', by tabs, "
            + "else commas, else spaces): they are numbered from 0 as first seen and published with the snapshot, so queries, "
            + "updates and subscriptions may name them (docs/contract.md \"Vertex names\").")
    boolean names;

    @Option(names = "--names-file", paramLabel = "FILE", description = "Name the vertices of a graph read by id (DIMACS, "
            + "MatrixMarket, SNAP): one name a line, in id order from the file's first id.")
    Path namesFile;

    @Option(names = "--version", paramLabel = "N", converter = Converters.Version.class,
            description = "The snapshot version (default: the clock's, ms << 20, or above the version the status topic "
                    + "reports, docs/contract.md \"Choosing versions\"); must exceed the version held.")
    Long version;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class, defaultValue = "300",
            description = "How long to wait for a worker to load it (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(names = "--estimate", description = "Publish nothing: print the host and device bytes the graph will take on a "
            + "worker and whether it fits its heap budget (exit 0 if it fits, 1 if not).")
    boolean estimate;

    @Option(names = "--heap", paramLabel = "SIZE", converter = Estimate.HeapSize.class,
            description = "With --estimate: the worker's maximum heap, as -Xmx (default: this JVM's, set by FRONTIER_JAVA_OPTS as for a worker).")
    Long heap;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws IOException {
        if (graphId == null && !estimate) {
            throw new picocli.CommandLine.ParameterException(kafka.command.commandLine(), "Missing required option: '--graph=ID'");
        }
        if (!Files.isRegularFile(file)) throw new CliFailure("no such file: " + file);
        if (names && namesFile != null) throw usage("--names reads names from the edge list; --names-file names a graph read by id: one of them");
        if (names && format != null && format != GraphFormat.SNAP) throw usage("--names reads a SNAP or CSV edge list; name a "
                + format.name() + " graph with --names-file FILE");
        GraphFormat f = format != null ? format : names ? GraphFormat.SNAP : fromName(file);
        if (estimate) {
            LoadedGraph g = names ? named(NamedGraphFile.readEdgeList(file, undirected)) : GraphFiles.read(file, f, undirected, null);
            Estimate e = Estimate.of(g, heap != null ? heap : Runtime.getRuntime().maxMemory(), new FrontierConfig());
            e.print(cli.out);
            return e.fits() ? FrontierCli.OK : FrontierCli.FAILED;
        }
        String bootstrap = kafka.bootstrapServers();
        KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);   // before reading a large file
        long size = Files.size(file);
        Progress progress = new Progress(cli.err, "reading " + file.getFileName(), size);
        LoadedGraph g;
        List<String> vertexNames = null;
        if (names) {
            NamedGraphFile.Named n = NamedGraphFile.readEdgeList(file, undirected);
            g = named(n);
            vertexNames = n.names();
        } else {
            g = GraphFiles.read(file, f, undirected, progress::bytes);
            if (namesFile != null) vertexNames = NamedGraphFile.readNames(namesFile, g.vertexCount());
        }
        progress.done(g.vertexCount() + (vertexNames != null ? " named" : "") + " vertices, " + g.edgeCount() + " edges");
        long v = version != null ? version
                : LatestStatus.nextSnapshotVersion(kafka.clientProperties(), FrontierClient.Topics.defaults().status(), graphId, TIMEOUT);
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        try (FrontierClient client = new FrontierClient(kafka.clientProperties(), FrontierClient.Topics.defaults());
             TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            Progress sending = new Progress(cli.err, "publishing " + graphId + " v" + v, g.edgeCount());
            if (vertexNames == null) client.publishSnapshot(graphId, v, Snapshots.of(g.edges()), g.firstVertexId(), g.weighted(), sending::bytes);
            else client.publishSnapshot(graphId, v, Snapshots.of(g.edges()), g.firstVertexId(), g.weighted(), vertexNames, sending::bytes);
            sending.done("sent to " + bootstrap);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                Optional<GraphStatus> s = status.awaitFirst(x -> x.getGraphId().equals(graphId) && x.getVersion() == v,
                        Duration.ofMillis(200));
                if (s.isPresent()) {
                    GraphStatus st = s.get();
                    if (st.getState() == GraphState.REJECTED) {
                        throw new CliFailure("worker rejected graph '" + graphId + "' version " + v + ": " + st.getReason());
                    }
                    cli.out.printf(Locale.ROOT, "graph '%s' version %d loaded by %s: %d vertices, %d edges on %s (%.1f MB resident)%n",
                            graphId, v, st.getWorker(), st.getVertexCount(), st.getEdgeCount(), st.getBackend(),
                            st.getResidentBytes() / 1e6);
                    return FrontierCli.OK;
                }
                Optional<ErrorEvent> e = errors.awaitFirst(x -> graphId.equals(x.getGraphId()), Duration.ofMillis(200));
                if (e.isPresent()) {
                    throw new CliFailure("worker rejected graph '" + graphId + "': " + e.get().getCode() + ": " + e.get().getReason());
                }
            }
            throw new CliFailure("timed out after " + timeout.toSeconds() + " s waiting for a worker to load graph '" + graphId
                    + "' version " + v + " (is a worker running on " + bootstrap + "?)");
        }
    }

    private static LoadedGraph named(NamedGraphFile.Named n) {
        return new LoadedGraph(n.edges(), 0, GraphFormat.SNAP, n.weighted(), 0, 0, 0, 0);
    }

    private picocli.CommandLine.ParameterException usage(String message) {
        return new picocli.CommandLine.ParameterException(kafka.command.commandLine(), message);
    }

    private GraphFormat fromName(Path f) {
        try {
            return GraphFormat.fromFileName(f.getFileName().toString());
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(kafka.command.commandLine(), e.getMessage() + " (--format)");
        }
    }
}
