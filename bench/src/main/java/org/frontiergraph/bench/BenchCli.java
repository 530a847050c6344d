package org.frontiergraph.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The benchmarks' command lines, parsed by picocli as the CLI's are: a benchmark's {@link Command} is a picocli
 * {@code @Command} class whose fields are its options, turned by {@link Command#options} into the benchmark's options
 * (the checks that span options included). Every benchmark answers {@code --help} ({@code -h}); an unknown option, a
 * missing or malformed value is a {@link UsageException} naming the option. A number may hold underscores or commas
 * ({@code 10_000}, {@code 1,000}; in a list, underscores only) and spaces around it; an option given twice takes its
 * last value (deploy/gpu/bundle-bench.sh adds {@code --out} and {@code --command} after the caller's arguments). The
 * options several benchmarks share are mixins ({@link Output}, {@link Graphs}, {@link Backend}, {@link Runs}), each
 * benchmark giving its own defaults for them ({@link Command#defaults}).
 */
public final class BenchCli {
    private BenchCli() {}

    /** Columns of --help text, as the CLI's. */
    private static final int HELP_WIDTH = 110;

    /** A benchmark's command line: a picocli {@code @Command} class. */
    public interface Command<O> {
        /**
         * The options parsed into this command's fields, checked; {@code args}: the command line as given (for the
         * default {@code --command}). @throws IllegalArgumentException a bad combination of options
         */
        O options(String[] args);

        /** Defaults of the shared options ({@code --graphs} -> {@code "ny,kron20"}); the others' are their fields'. */
        default Map<String, String> defaults() {
            return Map.of();
        }
    }

    /** A bad command line (its message says what), or {@code --help} (an empty message); with the usage to show. */
    public static final class UsageException extends IllegalArgumentException {
        private final String usage;

        public UsageException(String message) {
            this(message, null);
        }

        UsageException(String message, String usage) {
            super(message);
            this.usage = usage;
        }

        public boolean help() {
            return getMessage().isEmpty();
        }

        /** The usage of the command (or step) the command line went wrong in; null when not known. */
        public String usage() {
            return usage;
        }
    }

    /**
     * {@code command} filled from {@code args} and turned into options. @throws UsageException for {@code --help}, an
     * unknown option, a bad value or a bad combination
     */
    public static <O> O parse(Command<O> command, String[] args) {
        CommandLine cl = commandLine(command);
        ParseResult parsed;
        try {
            parsed = cl.parseArgs(args);
        } catch (ParameterException e) {
            throw new UsageException(message(e), usage(e.getCommandLine()));
        }
        ParseResult last = parsed;
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.isUsageHelpRequested()) throw new UsageException("", usage(p.commandSpec().commandLine()));
            last = p;
        }
        try {
            return command.options(args);
        } catch (UsageException e) {
            throw e.usage() != null ? e : new UsageException(e.getMessage(), usage(last.commandSpec().commandLine()));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), usage(last.commandSpec().commandLine()));
        }
    }

    /**
     * The options of benchmark {@code name}; on {@code --help} (the usage on stdout, exit 0) or a bad command line
     * (what was wrong and the usage on stderr, exit 2) the JVM exits here.
     */
    public static <O> O options(String name, String[] args, Supplier<? extends Command<O>> cli) {
        try {
            return parse(cli.get(), args);
        } catch (UsageException e) {
            if (e.help()) {
                System.out.println(e.usage());
                System.exit(0);
            }
            System.err.println(name + ": " + e.getMessage());
            System.err.println(e.usage());
            System.exit(2);
            throw e;
        }
    }

    /** {@code command}'s --help text. */
    public static String usage(Command<?> command) {
        return usage(commandLine(command));
    }

    private static String usage(CommandLine cl) {
        StringWriter s = new StringWriter();
        cl.usage(new PrintWriter(s));
        return s.toString().stripTrailing();
    }

    private static CommandLine commandLine(Command<?> command) {
        CommandLine cl = new CommandLine(command);
        cl.setUsageHelpWidth(HELP_WIDTH);
        cl.setOverwrittenOptionsAllowed(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.registerConverter(Integer.class, s -> Integer.valueOf(number(s)));
        cl.registerConverter(int.class, s -> Integer.valueOf(number(s)));
        cl.registerConverter(Long.class, s -> Long.valueOf(number(s)));
        cl.registerConverter(long.class, s -> Long.valueOf(number(s)));
        Map<String, String> defaults = command.defaults();
        cl.setDefaultValueProvider(arg -> arg instanceof OptionSpec o ? defaults.get(o.longestName()) : null);
        List<CommandSpec> specs = new ArrayList<>(List.of(cl.getCommandSpec()));
        cl.getSubcommands().values().forEach(sub -> specs.add(sub.getCommandSpec()));
        for (CommandSpec spec : specs) {
            spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("this help").build());
            spec.usageMessage().showDefaultValues(true);
        }
        return cl;
    }

    private static String number(String s) {
        return s.trim().replace("_", "").replace(",", "");
    }

    /** One line: the option and what was wrong with it. */
    private static String message(ParameterException e) {
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            return (word.startsWith("-") ? "unknown option '" : "unexpected argument '") + word + "' (--help lists the options)";
        }
        if (e.getCause() instanceof TypeConversionException t && e.getArgSpec() instanceof OptionSpec o) {
            return o.longestName() + ": " + t.getMessage();
        }
        return e.getMessage();
    }

    /** {@code csv}'s elements, trimmed, lower case, without empty ones. */
    public static List<String> names(String csv) {
        List<String> out = new ArrayList<>();
        for (String s : csv.split(",")) if (!s.isBlank()) out.add(s.trim().toLowerCase(Locale.ROOT));
        return out;
    }

    /** Where the markdown goes and the command line it records. */
    public static final class Output {
        @Option(names = "--out", paramLabel = "FILE.md", description = "also write the markdown here (besides stdout)")
        private Path out;

        @Option(names = "--command", paramLabel = "TEXT", description = "the command line to record (default: this one)")
        private String command;

        /** The file, or null: stdout only. */
        public Path out() {
            return out;
        }

        /** {@code --command}, or null when not given. */
        public String command() {
            return command;
        }

        /** The command to record: {@code --command}, else {@code name} and {@code args}. */
        public String command(String name, String[] args) {
            return command != null ? command : (name + " " + String.join(" ", args)).trim();
        }
    }

    /** {@code --graphs}: graph names as {@link org.frontiergraph.bench.gpu.GpuBench#edges} takes them. */
    public static final class Graphs {
        @Option(names = "--graphs", paramLabel = "G,G", description = "graphs as GpuBench names them: ny, luxembourg, "
                + "rome99, enron, facebook (../shared/datasets or $FRONTIER_DATASETS), kronSCALE, uniformSCALE, gridSIDE")
        private String graphs;

        /** The names, trimmed and in lower case. @throws UsageException when they name no graph */
        public List<String> graphs() {
            List<String> g = names(graphs);
            if (g.isEmpty()) throw new UsageException("--graphs names no graph");
            return g;
        }
    }

    /** {@code --backend auto|gpu|cpu}. */
    public static final class Backend {
        @Option(names = "--backend", paramLabel = "auto|gpu|cpu", description = "the compute backend")
        private String backend;

        /** In lower case. @throws UsageException for another name */
        public String backend() {
            String b = backend.toLowerCase(Locale.ROOT);
            if (!List.of("auto", "gpu", "cpu").contains(b)) throw new UsageException("--backend auto|gpu|cpu");
            return b;
        }
    }

    /** {@code --runs N}: timed runs (a median over them). */
    public static final class Runs {
        @Option(names = "--runs", paramLabel = "N", description = "timed runs")
        private int runs;

        /** @throws UsageException below 1 */
        public int runs() {
            if (runs < 1) throw new UsageException("--runs must be at least 1");
            return runs;
        }
    }
}
