package org.frontiergraph.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Stack;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.frontiergraph.cli.UpdateEdits.Edit;
import org.frontiergraph.cli.UpdateEdits.Op;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier update}: publishes edits of a graph as GraphUpdate records, in the order given, and prints the
 * version they take the graph to (the graph's last version on the status topic plus one per record). With
 * {@code --wait} it waits until a worker reports that version (exit 0) or rejects one of the records (exit 1 with
 * the worker's reason).
 */
@Command(name = "update", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Change a loaded graph: add, remove or re-weight edges, add vertices; print the version reached.",
        footer = {"", "Edits apply in the order given; each GraphUpdate record published makes one version.",
                "--file lines (CSV or JSON lines; '#' comments):",
                "  add,U,V[,W]      reweight,U,V,W      remove,U,V      add-vertices,N      add-vertex,NAME",
                "  {\"op\":\"reweight\",\"u\":1,\"v\":2,\"w\":7.5}   {\"op\":\"add-vertices\",\"n\":2}",
                "", "Examples:",
                "  ./frontier update --graph rome --reweight 1 2 900 --wait",
                "  ./frontier update --graph rome --add-vertices 1 --add 3354 1 40 --add 1 3354 40",
                "  ./frontier update --graph rome --remove 1 2 --file more-edits.csv",
                "  ./frontier update --graph roads --reweight 'Main & 1st' 'Main & 2nd' 9 --wait",
                "  ./frontier update --graph roads --add-vertex 'Oak & 3rd' --add 'Oak & 2nd' 'Oak & 3rd' 1.5",
                "  generate-edits | ./frontier update --graph rome --file - --wait"})
final class UpdateCommand implements Callable<Integer> {
    @ParentCommand
    FrontierCli cli;

    @Option(names = "--graph", required = true, paramLabel = "ID", description = "The graph's id.")
    String graphId;

    private final UpdateEdits edits = new UpdateEdits();

    /** The edits given so far, in order. */
    UpdateEdits edits() {
        return edits;
    }

    @Option(names = "--reweight", paramLabel = "U V W", parameterConsumer = EditConsumer.class,
            description = "Give the edge U->V the weight W (repeatable).")
    void reweight(Edit e) { edits.add(e); }

    @Option(names = "--add", paramLabel = "U V [W]", parameterConsumer = EditConsumer.class,
            description = "Add the edge U->V, weight W (default 1; an existing edge keeps the smaller weight).")
    void add(Edit e) { edits.add(e); }

    @Option(names = "--remove", paramLabel = "U V", parameterConsumer = EditConsumer.class, description = "Remove the edge U->V.")
    void remove(Edit e) { edits.add(e); }

    @Option(names = "--add-vertices", paramLabel = "N", parameterConsumer = EditConsumer.class,
            description = "Append N vertices (the next ids after the graph's last); later edits may name them.")
    void addVertices(Edit e) { edits.add(e); }

    @Option(names = "--add-vertex", paramLabel = "NAME", description = "Append a vertex named NAME (a named graph); later "
            + "edits may name it (repeatable).")
    void addVertex(String name) { edits.add(Edit.vertex(UpdateLine.vertexText(name, "--add-vertex"))); }

    @Option(names = "--names", description = "U and V are vertex names even where they look like integers (a U or V "
            + "that is not an integer is a name anyway; docs/contract.md \"Vertex names\").")
    boolean names;

    @Option(names = "--file", paramLabel = "FILE", description = "Edits from FILE ('-': standard input), after the options' edits.")
    String file;

    @Option(names = "--wait", description = "Wait until a worker reports the version reached; exit 1 if it rejects an update.")
    boolean await;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class, defaultValue = "60",
            description = "How long --wait waits (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws IOException {
        if (file != null) readFile();
        if (names) edits.allByName();
        if (edits.isEmpty()) throw new ParameterException(kafka.command.commandLine(),
                "nothing to publish: give --reweight, --add, --remove, --add-vertices or --file");
        List<GraphUpdate> updates = edits.updates(graphId);
        KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);
        try (FrontierClient client = new FrontierClient(kafka.clientProperties(), FrontierClient.Topics.defaults());
             TopicWatcher<GraphStatus> status = new TopicWatcher<>(kafka.clientProperties(), client.topics().status(), GraphStatus.class, false);
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            GraphStatus last = LatestStatus.of(kafka.clientProperties(), client.topics().status(), graphId, Duration.ofSeconds(10)).orElse(null);
            if (last != null && last.getState() == GraphState.DROPPED) {
                throw new CliFailure("graph '" + graphId + "' was dropped (its last status says so); load it before updating it");
            }
            if (await && last == null) {
                throw new CliFailure("--wait: graph '" + graphId + "' has no status on " + client.topics().status()
                        + " (not loaded, or loaded before the topic's retention): nothing was published");
            }
            List<RecordMetadata> sent = client.publishAll(updates);
            RecordMetadata first = sent.get(0), end = sent.get(sent.size() - 1);
            String where = String.format(Locale.ROOT, "%s-%d offsets %d..%d", first.topic(), first.partition(), first.offset(), end.offset());
            if (last == null) {
                cli.out.printf(Locale.ROOT, "graph '%s': %d update(s) published (%s); its version is unknown: no status on %s%n",
                        graphId, updates.size(), where, client.topics().status());
                return FrontierCli.OK;
            }
            long reached = last.getVersion() + updates.size();
            if (!await) {
                cli.out.printf(Locale.ROOT, "graph '%s' version %d: %d update(s) published (%s) on version %d%n",
                        graphId, reached, updates.size(), where, last.getVersion());
                return FrontierCli.OK;
            }
            GraphStatus done = awaitVersion(status, errors, first.partition(), first.offset(), end.offset(), reached);
            cli.out.printf(Locale.ROOT, "graph '%s' version %d applied by %s: %d vertices, %d edges (%d update(s), %s)%n",
                    graphId, done.getVersion(), done.getWorker(), done.getVertexCount(), done.getEdgeCount(), updates.size(), where);
            return FrontierCli.OK;
        }
    }

    /** The status of {@code version} or a later one; fails on an error event about one of the records published. */
    private GraphStatus awaitVersion(TopicWatcher<GraphStatus> status, TopicWatcher<ErrorEvent> errors, int partition,
                                     long firstOffset, long lastOffset, long version) {
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        while (System.nanoTime() < deadline) {
            for (ErrorEvent e : errors.poll(Duration.ofMillis(100))) {
                if (e.getPartition() == partition && e.getOffset() >= firstOffset && e.getOffset() <= lastOffset
                        && graphId.equals(e.getGraphId())) {
                    throw new CliFailure("the update at offset " + e.getOffset() + " of graph '" + graphId + "' was rejected: "
                            + e.getCode() + ": " + e.getReason());
                }
            }
            for (GraphStatus s : status.poll(Duration.ofMillis(100))) {
                if (!graphId.equals(s.getGraphId())) continue;
                if (s.getState() == GraphState.DROPPED) throw new CliFailure("graph '" + graphId + "' was dropped while updating it");
                if (s.getVersion() >= version) return s;
            }
        }
        throw new CliFailure("timed out after " + timeoutSeconds + " s waiting for graph '" + graphId + "' version " + version
                + " (is a worker running on " + kafka.bootstrapServers() + "?)");
    }

    private void readFile() throws IOException {
        if (file.equals("-")) {
            append(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), "standard input");
            return;
        }
        Path p = Path.of(file);
        if (!Files.isRegularFile(p)) throw new CliFailure("no such file: " + file);
        try (BufferedReader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            append(r, file);
        }
    }

    private void append(BufferedReader r, String name) throws IOException {
        UpdateEdits read = UpdateEdits.read(r, name);
        read.forEach(edits::add);
    }

    /** Takes an edit option's values from the command line: two or three numbers, or one count. */
    static final class EditConsumer implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec spec) {
            String name = ((OptionSpec) argSpec).longestName();
            Op op = Op.of(name.substring(2), name);
            try {
                if (op == Op.ADD_VERTICES) {
                    argSpec.setValue(Edit.vertices(UpdateLine.count(next(args, name, "N"), name)));
                    return;
                }
                String u = UpdateLine.vertexText(next(args, name, "U V"), name), v = UpdateLine.vertexText(next(args, name, "V"), name);
                double w = Double.NaN;
                if (op == Op.REWEIGHT) w = UpdateLine.weight(next(args, name, "W"), name);
                else if (op == Op.ADD && !args.isEmpty() && isNumber(args.peek())) w = UpdateLine.weight(args.pop(), name);
                argSpec.setValue(Edit.edge(op, u, v, w));
            } catch (CliFailure e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }

        private static String next(Stack<String> args, String option, String what) {
            if (args.isEmpty() || args.peek().startsWith("--")) {
                throw new CliFailure(option + ": missing " + what + " (" + option + " " + usage(option) + ")");
            }
            return args.pop();
        }

        private static String usage(String option) {
            return switch (option) {
                case "--reweight" -> "U V W";
                case "--add" -> "U V [W]";
                case "--remove" -> "U V";
                default -> "N";
            };
        }

        private static boolean isNumber(String s) {
            try {
                Double.parseDouble(s);
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }
}
