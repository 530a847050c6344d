package org.frontiergraph.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.query.AnswerEncoders;
import org.frontiergraph.worker.query.AnswerShape;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ./frontier query}: sends one query, waits for every chunk of its result and prints it (stdout, or
 * {@code --output FILE}) as JSON, CSV, DOT or GeoJSON; with {@code --path-to V} only the path from the source to V.
 * Options that cannot work together are refused before anything is sent (exit 2); a failed answer exits 1 with
 * its status and reason (the JSON format still prints the answer).
 */
@Command(name = "query", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Send a query, wait for its result and print it.",
        footer = {"", "Examples:",
                "  ./frontier query --graph ny --algorithm sssp --source 1 --output ny-sssp.json",
                "  ./frontier query --graph ny --algorithm bfs --source 1 --targets 2,3,264346",
                "  ./frontier query --graph ny --algorithm sssp --source 1 --path-to 5000 --format csv",
                "  ./frontier query --graph ny --algorithm mst --format geojson --coordinates USA-road-d.NY.co.gz",
                "  ./frontier query --graph ny --algorithm cc --mode summary",
                "  ./frontier query --graph roads --algorithm sssp --source 'Main & 1st' --format csv   (a named graph)"})
final class QueryCommand implements Callable<Integer> {
    @ParentCommand
    FrontierCli cli;

    @Option(names = "--graph", required = true, paramLabel = "ID", description = "The graph's id.")
    String graphId;

    @Option(names = "--algorithm", required = true, paramLabel = "ALGORITHM", converter = Converters.AlgorithmName.class,
            completionCandidates = Converters.AlgorithmNames.class, description = "What to compute: ${COMPLETION-CANDIDATES}.")
    Algorithm algorithm;

    @Option(names = "--source", paramLabel = "V",
            description = "The source vertex (BFS, SSSP), in the file's own ids, or its name on a named graph.")
    String source;

    @Option(names = "--targets", paramLabel = "V", split = ",",
            description = "Answer only these vertices (implies --mode targets): ids, or names on a named graph.")
    List<String> targets = new ArrayList<>();

    @Option(names = "--names", description = "The vertices given are names, even where they look like integers (one that "
            + "is not an integer is a name anyway), and the answer comes with the vertices' names (also MST, CC, APSP).")
    boolean names;

    @Option(names = "--mode", paramLabel = "full|targets|summary", converter = Converters.ModeName.class,
            description = "full: every vertex (default); targets: --targets only; summary: counts and extremes.")
    ResultMode mode;

    @Option(names = "--path-to", paramLabel = "V",
            description = "Print only the path from --source to V (BFS, SSSP), followed through the parents (an id, or a name "
                    + "when the vertices are named).")
    String pathTo;

    @Option(names = "--format", paramLabel = "json|csv|dot|geojson", converter = Converters.OutputFormatName.class,
            defaultValue = "json", description = "Output format (default: ${DEFAULT-VALUE}); geojson needs --coordinates.")
    OutputFormat format;

    @Option(names = "--coordinates", paramLabel = "FILE.co",
            description = "Vertex coordinates for --format geojson: a DIMACS .co file (optionally .gz).")
    Path coordinatesFile;

    @Option(names = "--variant", paramLabel = "NAME", description = "An engine variant (see the README's table).")
    String variant;

    @Option(names = "--backend", paramLabel = "auto|gpu|cpu", converter = Converters.BackendName.class,
            description = "The engine for this query (default: the worker's).")
    String backend;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the answer to FILE instead of stdout.")
    Path output;

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class, defaultValue = "120",
            description = "How long to wait for the answer (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws IOException {
        ResultMode m = checkOptions();
        VertexArgs v = VertexArgs.of(source, targets, names || (pathTo != null && !VertexArgs.isId(pathTo)));
        Coordinates coordinates = coordinatesFile == null ? null : Coordinates.read(coordinatesFile);
        GraphQuery q = GraphQuery.newBuilder()
                .setQueryId(UUID.randomUUID().toString())
                .setGraphId(graphId)
                .setAlgorithm(algorithm)
                .setVariant(variant)
                .setSource(v.source())
                .setTargets(v.targets())
                .setSourceName(v.sourceName())
                .setTargetNames(v.targetNames())
                .setWithNames(v.byName())
                .setResultMode(m)
                .setBackend(backend)
                .build();
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        String bootstrap = kafka.bootstrapServers();
        KafkaReachability.check(kafka.clientProperties(), KafkaReachability.TIMEOUT);
        List<QueryResult> chunks;
        try (FrontierClient client = new FrontierClient(kafka.clientProperties(), FrontierClient.Topics.defaults())) {
            chunks = client.query(q, timeout).orElseThrow(() -> new CliFailure("timed out after " + timeout.toSeconds()
                    + " s waiting for the result of query " + q.getQueryId() + " (is a worker running on " + bootstrap + "?)"));
        }
        QueryResult head = chunks.get(0);
        if (head.getStatus() != ResultStatus.OK) {
            if (format == OutputFormat.JSON && pathTo == null) print(chunks, null, coordinates);
            throw new CliFailure(head.getStatus() + ": " + head.getError());
        }
        AnswerRows path = pathTo == null ? null : AnswerRows.of(chunks).pathTo(pathTarget(chunks, v.byName()));
        print(chunks, path, coordinates);
        return FrontierCli.OK;
    }

    /** The id of --path-to: its name looked up in the answer's names when the vertices are named. */
    private int pathTarget(List<QueryResult> chunks, boolean byName) {
        if (!byName) return Integer.parseInt(pathTo.strip());
        return JsonAnswer.names(chunks).entrySet().stream().filter(e -> e.getValue().equals(pathTo)).map(java.util.Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new CliFailure("--path-to: graph '" + graphId + "' has no vertex named '" + pathTo + "'"));
    }

    /** Refuses options that cannot work together, before anything is sent; returns the result mode to ask for. */
    ResultMode checkOptions() {
        AnswerShape shape = AnswerEncoders.of(algorithm).shape();
        boolean tree = shape.isTree();
        String algo = algorithm.name().toLowerCase(Locale.ROOT);
        for (String bad : java.util.Arrays.asList(VertexArgs.badId("--source", java.util.Collections.singletonList(source)),
                VertexArgs.badId("--targets", targets), VertexArgs.badId("--path-to", java.util.Collections.singletonList(pathTo)))) {
            if (bad != null) throw usage(bad);
        }
        if (tree && source == null) throw usage("--algorithm " + algo + " needs --source V");
        ResultMode m = mode != null ? mode : targets.isEmpty() ? ResultMode.FULL : ResultMode.TARGETS;
        if (m == ResultMode.TARGETS && targets.isEmpty()) throw usage("--mode targets needs --targets V,V,...");
        if (m != ResultMode.TARGETS && !targets.isEmpty()) throw usage("--targets goes with --mode targets, not " + lower(m));
        if (pathTo != null) {
            if (!tree) {
                throw usage("--path-to needs --algorithm " + Converters.names(algorithms(AnswerShape::isTree), " or ")
                        + " (a tree of parents), not " + algo);
            }
            if (m != ResultMode.FULL) throw usage("--path-to follows the parents of the FULL answer: drop --mode " + lower(m)
                    + (targets.isEmpty() ? "" : " and --targets"));
        }
        if (format != OutputFormat.JSON) {
            String f = "--format " + lower(format);
            if (m == ResultMode.SUMMARY) throw usage(f + " prints rows: not with --mode summary (use json)");
            if (!shape.hasRows()) throw usage(f + " does not apply to " + algorithm.name() + " (a distance matrix): use json");
            if (format != OutputFormat.CSV && !shape.drawn()) {
                throw usage(f + " draws a tree or a forest (" + String.join(", ", algorithms(AnswerShape::drawn)) + "), not "
                        + algo + ": use json or csv");
            }
        }
        if (format == OutputFormat.GEOJSON && coordinatesFile == null) {
            throw usage("--format geojson needs vertex coordinates: --coordinates FILE.co (a DIMACS coordinate file, "
                    + "e.g. USA-road-d.NY.co.gz)");
        }
        if (format != OutputFormat.GEOJSON && coordinatesFile != null) throw usage("--coordinates goes with --format geojson");
        return m;
    }

    private void print(List<QueryResult> chunks, AnswerRows path, Coordinates coordinates) throws IOException {
        if (output != null) {
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                write(chunks, path, coordinates, w);
            }
        } else {
            write(chunks, path, coordinates, new OutputStreamWriter(cli.out, StandardCharsets.UTF_8));
        }
    }

    /** The answer (or its path) in the chosen format. */
    void write(List<QueryResult> chunks, AnswerRows path, Coordinates coordinates, Writer w) throws IOException {
        if (format == OutputFormat.JSON) {
            if (path == null) JsonAnswer.write(chunks, w);
            else JsonAnswer.writePath(path.head, path.vertex, path.valueName(), path.value[path.value.length - 1], names(chunks), w);
            return;
        }
        AnswerRows rows = path != null ? path : AnswerRows.of(chunks);
        switch (format) {
            case CSV -> CsvAnswer.write(rows, names(chunks), w);
            case DOT -> DotAnswer.write(rows, w);
            case GEOJSON -> GeoJsonAnswer.write(rows, coordinates, w);
            default -> throw new IllegalStateException(format.name());
        }
    }

    private static java.util.Map<Integer, String> names(List<QueryResult> chunks) {
        return JsonAnswer.names(chunks);
    }

    /** The value names of the algorithms whose answer's shape passes {@code test}, in the encoders' order. */
    private static List<String> algorithms(Predicate<AnswerShape> test) {
        return AnswerEncoders.ALL.stream().filter(e -> test.test(e.shape()))
                .map(e -> e.algorithm().name().toLowerCase(Locale.ROOT)).toList();
    }

    private ParameterException usage(String message) {
        return new ParameterException(kafka.command.commandLine(), message);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
