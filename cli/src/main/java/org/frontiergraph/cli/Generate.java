package org.frontiergraph.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.generate.seeds.Counterexample;
import org.frontiergraph.kernels.generate.seeds.GtGraphRandom;
import org.frontiergraph.kernels.generate.seeds.HarishRandom;
import org.frontiergraph.kernels.generate.seeds.HarishScaleFree;
import org.frontiergraph.kernels.generate.seeds.MartinDense;
import org.frontiergraph.kernels.generate.seeds.MartinFixedDegree;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code ./frontier generate}: writes a seeded synthetic graph (the seed papers' graphs and the project's own
 * generators) to a file that {@code ./frontier load} reads back. Exit 0 when written, 2 for bad usage (one line
 * saying why), 1 when the file cannot be written.
 */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Write a seeded synthetic graph to FILE (.gr, .txt, .mtx, optionally .gz) that load reads back.",
        footer = {"", "KIND (the defaults in brackets):",
                "  gtgraph           paper 000: undirected, connected, N=16384, M=2N, weights 1..1000",
                "  harish-random     004: undirected, average degree D=6, weights 1..10, N=1000000",
                "  harish-scalefree  004: 0.1%% hubs of degree <= 1000, average degree 6, N=1000000",
                "  martin            003: directed, every vertex D=7 predecessors, weights 1..10, N=1048576",
                "  martin-dense      003: in-degree N/5, N=4096",
                "  counterexample    003 Fig. 5: N=1024",
                "  uniform           directed G(N, M), N=1000000, M=8N, weights 1..1000",
                "  kronecker         Graph500, 2^S vertices, S=16, edge factor D=16",
                "  grid              road-like, N=1000000"})
final class Generate implements Callable<Integer> {
    /** The options each kind reads beyond --kind, --seed and --format. */
    private static final Map<String, Set<String>> OPTIONS = Map.of(
            "gtgraph", Set.of("vertices", "edges"),
            "harish-random", Set.of("vertices", "degree"),
            "harish-scalefree", Set.of("vertices"),
            "martin", Set.of("vertices", "degree"),
            "martin-dense", Set.of("vertices"),
            "counterexample", Set.of("vertices"),
            "uniform", Set.of("vertices", "edges"),
            "kronecker", Set.of("scale", "vertices", "degree"),
            "grid", Set.of("vertices"));
    private static final List<String> KINDS = List.of("gtgraph", "harish-random", "harish-scalefree", "martin",
            "martin-dense", "counterexample", "uniform", "kronecker", "grid");
    private static final long DEFAULT_SEED = 1;
    private static final int UNIFORM_MAX_WEIGHT = 1000;
    private static final int GRID_MAX_WEIGHT = 100;

    @ParentCommand
    FrontierCli cli;

    @picocli.CommandLine.Spec   // qualified: Spec here is the record below
    CommandSpec command;

    @Option(names = "--kind", required = true, paramLabel = "KIND", converter = KindName.class,
            description = "Which generator (below).")
    String kind;

    @Option(names = "--vertices", paramLabel = "N", converter = Converters.Count.class, description = "Vertex count.")
    Long vertices;

    @Option(names = "--edges", paramLabel = "M", converter = Converters.Count.class, description = "Edge count (gtgraph, uniform).")
    Long edges;

    @Option(names = "--degree", paramLabel = "D", converter = Converters.Count.class,
            description = "Degree (harish-random, martin, kronecker's edge factor).")
    Long degree;

    @Option(names = "--scale", paramLabel = "S", converter = Converters.Count.class, description = "kronecker: 2^S vertices.")
    Long scale;

    @Option(names = "--seed", paramLabel = "S", converter = Converters.AnyLong.class,
            description = "The seed (default: " + DEFAULT_SEED + "); the same seed gives the same file.")
    Long seed;

    @Option(names = "--format", paramLabel = "dimacs|snap|mtx", converter = Converters.GraphFormatName.class,
            description = "The file's format (default: from its name).")
    GraphFormat format;

    @Parameters(paramLabel = "FILE", arity = "1", description = "Where to write the graph.")
    Path file;

    /** Lower-case kinds, accepted in any case. */
    static final class KindName implements ITypeConverter<String> {
        @Override
        public String convert(String s) {
            String k = s.trim().toLowerCase(Locale.ROOT);
            if (!OPTIONS.containsKey(k)) throw new TypeConversionException("'" + s + "' is not a graph kind (" + String.join(", ", KINDS) + ")");
            return k;
        }
    }

    /** Generates and writes the graph. */
    @Override
    public Integer call() {
        Spec spec = spec();
        EdgeList generated;
        try {
            generated = spec.generate();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        } catch (OutOfMemoryError e) {
            throw new CliFailure("not enough memory for this graph (raise -Xmx via FRONTIER_JAVA_OPTS)");
        }
        try {
            GraphFiles.write(generated, spec.file, spec.format);
        } catch (IOException e) {
            throw new CliFailure("cannot write " + spec.file + ": " + e);
        }
        cli.out.printf(Locale.ROOT, "wrote %s: %s, %d vertices, %d edges (%s) to %s as %s%n", spec.kind, spec.description,
                generated.vertexCount(), generated.size(), generated.directed() ? "directed" : "undirected", spec.file,
                spec.format.flag());
        if (!generated.directed() && spec.format == GraphFormat.SNAP) {
            cli.out.println("SNAP lists each undirected edge once: load it with ./frontier load --undirected");
        }
        return FrontierCli.OK;
    }

    private ParameterException usage(String message) {
        return new ParameterException(command.commandLine(), message);
    }

    /** A parsed command: what to generate and where to write it. */
    record Spec(String kind, int vertices, long edges, int degree, int scale, long seed, GraphFormat format, Path file,
                String description) {
        EdgeList generate() {
            return switch (kind) {
                case "gtgraph" -> GtGraphRandom.generate(vertices, edges, seed);
                case "harish-random" -> HarishRandom.generate(vertices, degree, seed);
                case "harish-scalefree" -> HarishScaleFree.generate(vertices, seed);
                case "martin" -> MartinFixedDegree.generate(vertices, degree, seed);
                case "martin-dense" -> MartinDense.generate(vertices, seed);
                case "counterexample" -> Counterexample.generate(vertices);
                case "uniform" -> UniformRandomGraph.generate(vertices, edges, seed, UNIFORM_MAX_WEIGHT, true);
                case "kronecker" -> KroneckerGraph.generate(scale, degree, seed);
                case "grid" -> GridRoadGraph.generate(gridRows(vertices), vertices / gridRows(vertices), seed,
                        GRID_MAX_WEIGHT);
                default -> throw new IllegalStateException(kind);
            };
        }
    }

    /** What the options ask for; options a kind does not read are refused. */
    Spec spec() {
        Map<String, Long> given = new java.util.LinkedHashMap<>();
        if (vertices != null) given.put("vertices", vertices);
        if (edges != null) given.put("edges", edges);
        if (degree != null) given.put("degree", degree);
        if (scale != null) given.put("scale", scale);
        for (String option : given.keySet()) {
            if (!OPTIONS.get(kind).contains(option)) throw usage("--" + option + " does not apply to --kind " + kind);
        }
        GraphFormat f;
        try {
            f = format != null ? format : GraphFormat.fromFileName(file.getFileName().toString());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        long s = seed == null ? DEFAULT_SEED : seed;
        return switch (kind) {
            case "gtgraph" -> {
                int n = intOption("vertices", vertices, 1 << 14);
                long m = edges != null ? edges : 2L * n;
                yield new Spec(kind, n, m, 0, 0, s, f, file, "GTgraph random, seed " + s);
            }
            case "harish-random" -> {
                int n = intOption("vertices", vertices, 1_000_000);
                int d = intOption("degree", degree, HarishRandom.AVERAGE_DEGREE);
                yield new Spec(kind, n, 0, d, 0, s, f, file, "average degree " + d + ", seed " + s);
            }
            case "harish-scalefree" -> new Spec(kind, intOption("vertices", vertices, 1_000_000), 0, 0, 0, s, f, file,
                    "0.1% hubs, average degree 6, seed " + s);
            case "martin" -> {
                int n = intOption("vertices", vertices, 1 << 20);
                int d = intOption("degree", degree, MartinFixedDegree.DEGREE);
                yield new Spec(kind, n, 0, d, 0, s, f, file, "in-degree " + d + ", seed " + s);
            }
            case "martin-dense" -> new Spec(kind, intOption("vertices", vertices, 4096), 0, 0, 0, s, f, file,
                    "in-degree n/5, seed " + s);
            case "counterexample" -> new Spec(kind, intOption("vertices", vertices, Counterexample.VERTICES), 0, 0, 0, s,
                    f, file, "paper 003 Fig. 5 (no seed)");
            case "uniform" -> {
                int n = intOption("vertices", vertices, 1_000_000);
                long m = edges != null ? edges : 8L * n;
                yield new Spec(kind, n, m, 0, 0, s, f, file, "G(n, m), seed " + s);
            }
            case "kronecker" -> {
                int sc = kroneckerScale();
                int d = intOption("degree", degree, 16);
                yield new Spec(kind, 1 << sc, 0, d, sc, s, f, file, "scale " + sc + ", edge factor " + d + ", seed " + s);
            }
            case "grid" -> {
                int n = intOption("vertices", vertices, 1_000_000);
                if (n < 1) throw usage("--vertices must be >= 1, got " + n);
                int rows = gridRows(n), cols = n / rows;
                yield new Spec(kind, rows * cols, 0, 0, 0, s, f, file, rows + " x " + cols + " grid, seed " + s);
            }
            default -> throw new IllegalStateException(kind);
        };
    }

    /** floor(sqrt(n)) rows of n / rows columns: the squarest grid of at most n vertices. */
    static int gridRows(int n) {
        return Math.max(1, (int) Math.sqrt(n));
    }

    private int kroneckerScale() {
        if (scale != null && vertices != null) {
            throw usage("give --scale or --vertices (a power of two) for kronecker, not both");
        }
        if (vertices != null) {
            long n = vertices;
            if (n < 2 || n > (1 << 30) || Long.bitCount(n) != 1) {
                throw usage("kronecker --vertices must be a power of two, got " + n);
            }
            return Long.numberOfTrailingZeros(n);
        }
        return intOption("scale", scale, 16);
    }

    private int intOption(String name, Long value, int dflt) {
        if (value == null) return dflt;
        if (value > Integer.MAX_VALUE) throw usage("--" + name + " is too large: " + value);
        return (int) (long) value;
    }
}
