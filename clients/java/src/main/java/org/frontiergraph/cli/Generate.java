package org.frontiergraph.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

/**
 * {@code ./frontier generate}: writes a seeded synthetic graph (the seed papers' graphs and the project's own
 * generators) to a file that {@code ./frontier load} reads back. Exit 0 when written, 2 for bad usage (one line
 * saying why), 1 when the file cannot be written.
 */
final class Generate {
    static final String USAGE = String.join("\n",
            "  generate --kind KIND [--vertices N] [--edges M] [--degree D] [--scale S] [--seed S]",
            "           [--format dimacs|snap|mtx] FILE",
            "      write a seeded synthetic graph to FILE (.gr, .txt, .mtx, optionally .gz); KIND is one of",
            "      gtgraph (paper 000: undirected, connected, N=16384, M=2N, weights 1..1000),",
            "      harish-random (004: undirected, average degree D=6, weights 1..10, N=1000000),",
            "      harish-scalefree (004: 0.1% hubs of degree <= 1000, average degree 6, N=1000000),",
            "      martin (003: directed, every vertex D=7 predecessors, weights 1..10, N=1048576),",
            "      martin-dense (003: in-degree N/5, N=4096), counterexample (003 Fig. 5: N=1024),",
            "      uniform (directed G(N, M), N=1000000, M=8N, weights 1..1000),",
            "      kronecker (Graph500, 2^S vertices, S=16, edge factor D=16), grid (road-like, N=1000000)");

    private static final Set<String> VALUED = Set.of("kind", "vertices", "edges", "degree", "scale", "seed", "format");
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

    private Generate() {}

    /** Parses {@code argv[from..]}, generates and writes the graph; returns the exit status. */
    static int run(String[] argv, int from, PrintStream out, PrintStream err) {
        Spec spec;
        try {
            spec = parse(Args.parse(argv, from, VALUED, Set.of()));
        } catch (Args.UsageException | IllegalArgumentException e) {
            err.println("frontier generate: " + e.getMessage());
            return 2;
        }
        EdgeList edges;
        try {
            edges = spec.generate();
        } catch (IllegalArgumentException e) {
            err.println("frontier generate: " + e.getMessage());
            return 2;
        } catch (OutOfMemoryError e) {
            err.println("frontier generate: not enough memory for this graph (raise -Xmx via FRONTIER_JAVA_OPTS)");
            return 1;
        }
        try {
            GraphFiles.write(edges, spec.file, spec.format);
        } catch (IOException e) {
            err.println("frontier generate: cannot write " + spec.file + ": " + e);
            return 1;
        }
        out.printf(Locale.ROOT, "wrote %s: %s, %d vertices, %d edges (%s) to %s as %s%n", spec.kind, spec.description,
                edges.vertexCount(), edges.size(), edges.directed() ? "directed" : "undirected", spec.file,
                spec.format.flag());
        if (!edges.directed() && spec.format == GraphFormat.SNAP) {
            out.println("SNAP lists each undirected edge once: load it with ./frontier load --undirected");
        }
        return 0;
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

    static Spec parse(Args a) {
        String kind = a.require("kind").toLowerCase(Locale.ROOT);
        Set<String> allowed = OPTIONS.get(kind);
        if (allowed == null) throw new Args.UsageException("unknown --kind '" + kind + "'; expected one of " + KINDS);
        for (String option : a.options.keySet()) {
            if (!option.equals("kind") && !option.equals("seed") && !option.equals("format") && !allowed.contains(option)) {
                throw new Args.UsageException("--" + option + " does not apply to --kind " + kind);
            }
        }
        if (a.positional.size() != 1) throw new Args.UsageException("generate needs exactly one output FILE");
        Path file = Path.of(a.positional.get(0));
        GraphFormat format = a.get("format") != null ? GraphFormat.parse(a.get("format"))
                : GraphFormat.fromFileName(file.getFileName().toString());
        long seed = seed(a);
        return switch (kind) {
            case "gtgraph" -> {
                int n = intOption(a, "vertices", 1 << 14);
                long m = longOption(a, "edges", 2L * n);
                yield new Spec(kind, n, m, 0, 0, seed, format, file, "GTgraph random, seed " + seed);
            }
            case "harish-random" -> {
                int n = intOption(a, "vertices", 1_000_000);
                int d = intOption(a, "degree", HarishRandom.AVERAGE_DEGREE);
                yield new Spec(kind, n, 0, d, 0, seed, format, file, "average degree " + d + ", seed " + seed);
            }
            case "harish-scalefree" -> new Spec(kind, intOption(a, "vertices", 1_000_000), 0, 0, 0, seed, format, file,
                    "0.1% hubs, average degree 6, seed " + seed);
            case "martin" -> {
                int n = intOption(a, "vertices", 1 << 20);
                int d = intOption(a, "degree", MartinFixedDegree.DEGREE);
                yield new Spec(kind, n, 0, d, 0, seed, format, file, "in-degree " + d + ", seed " + seed);
            }
            case "martin-dense" -> new Spec(kind, intOption(a, "vertices", 4096), 0, 0, 0, seed, format, file,
                    "in-degree n/5, seed " + seed);
            case "counterexample" -> new Spec(kind, intOption(a, "vertices", Counterexample.VERTICES), 0, 0, 0, seed,
                    format, file, "paper 003 Fig. 5 (no seed)");
            case "uniform" -> {
                int n = intOption(a, "vertices", 1_000_000);
                long m = longOption(a, "edges", 8L * n);
                yield new Spec(kind, n, m, 0, 0, seed, format, file, "G(n, m), seed " + seed);
            }
            case "kronecker" -> {
                int scale = kroneckerScale(a);
                int d = intOption(a, "degree", 16);
                yield new Spec(kind, 1 << scale, 0, d, scale, seed, format, file,
                        "scale " + scale + ", edge factor " + d + ", seed " + seed);
            }
            case "grid" -> {
                int n = intOption(a, "vertices", 1_000_000);
                if (n < 1) throw new Args.UsageException("--vertices must be >= 1, got " + n);
                int rows = gridRows(n), cols = n / rows;
                yield new Spec(kind, rows * cols, 0, 0, 0, seed, format, file,
                        rows + " x " + cols + " grid, seed " + seed);
            }
            default -> throw new IllegalStateException(kind);
        };
    }

    /** floor(sqrt(n)) rows of n / rows columns: the squarest grid of at most n vertices. */
    static int gridRows(int n) {
        return Math.max(1, (int) Math.sqrt(n));
    }

    private static int kroneckerScale(Args a) {
        if (a.get("scale") != null && a.get("vertices") != null) {
            throw new Args.UsageException("give --scale or --vertices (a power of two) for kronecker, not both");
        }
        if (a.get("vertices") != null) {
            int n = intOption(a, "vertices", 0);
            if (n < 2 || Integer.bitCount(n) != 1) {
                throw new Args.UsageException("kronecker --vertices must be a power of two, got " + n);
            }
            return Integer.numberOfTrailingZeros(n);
        }
        return intOption(a, "scale", 16);
    }

    /** Any long, negative too. */
    private static long seed(Args a) {
        String s = a.get("seed");
        if (s == null) return DEFAULT_SEED;
        try {
            return Long.parseLong(s.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new Args.UsageException("--seed must be an integer, got '" + s + "'");
        }
    }

    private static int intOption(Args a, String name, int dflt) {
        long v = longOption(a, name, dflt);
        if (v > Integer.MAX_VALUE) throw new Args.UsageException("--" + name + " is too large: " + v);
        return (int) v;
    }

    private static long longOption(Args a, String name, long dflt) {
        String s = a.get(name);
        if (s == null) return dflt;
        try {
            long v = Long.parseLong(s.trim().replace("_", ""));
            if (v < 0) throw new Args.UsageException("--" + name + " must not be negative, got " + s);
            return v;
        } catch (NumberFormatException e) {
            throw new Args.UsageException("--" + name + " must be an integer, got '" + s + "'");
        }
    }
}
