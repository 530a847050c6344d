package org.frontiergraph.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.frontiergraph.kernels.io.GraphFileException;
import org.frontiergraph.schema.codec.FrontierCodec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code ./frontier} command: worker, demo, load, update, query, subscribe, graphs, tail, generate; {@code --help}
 * on each. Exit status 0 when it worked, 1 when it failed ({@code frontier: <reason>}, one line, never an exception's
 * class), 2 for bad usage ({@code frontier <command>: <option>: <what was wrong>}, one line). Standard output carries
 * only a command's output; logs and messages go to standard error ({@value #LOG_CONFIG}).
 *
 * <p>Parsed by picocli directly, not through Micronaut's picocli integration ({@code PicocliRunner}): that starts a
 * Micronaut context for the command itself, and the worker's jar on this classpath holds eager {@code @Context}
 * beans ({@code TopicAdmin}, {@code GraphConsumer}) that would connect to Kafka, create topics and join the worker
 * group on every {@code ./frontier query}. The commands need no injection; {@code worker} and {@code demo} start the
 * worker's own context through {@code FrontierWorker.start}, with the broker they chose.
 */
@Command(name = "frontier", mixinStandardHelpOptions = true, versionProvider = FrontierCli.Version.class,
        description = "Frontier: streaming graph analytics over Kafka (BFS, SSSP, MST, APSP).",
        subcommands = {WorkerCommand.class, Demo.class, LoadCommand.class, UpdateCommand.class, QueryCommand.class,
                SubscribeCommand.class, GraphsCommand.class, TailCommand.class, Generate.class, HelpCommand.class},
        footer = {"", "Every command answers --help. Exit status: 0 ok, 1 failed, 2 bad usage."})
public final class FrontierCli implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    /** Columns of --help text (picocli's default, 80, breaks the examples). */
    private static final int HELP_WIDTH = 110;

    final PrintStream out;
    final PrintStream err;

    @Spec
    CommandSpec spec;

    FrontierCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The CLI's logback configuration: the worker's, on standard error. */
    static final String LOG_CONFIG = "frontier-cli-logback.xml";

    public static void main(String[] argv) {
        // before the first logger: logs go to stderr, stdout carries only the command's output
        if (System.getProperty("logback.configurationFile") == null) System.setProperty("logback.configurationFile", LOG_CONFIG);
        System.exit(run(argv, System.out, System.err));
    }

    /** Runs one command line; returns its exit status. */
    static int run(String[] argv, PrintStream out, PrintStream err) {
        FrontierCodec.trust();
        CommandLine cli = commandLine(out, err);
        return cli.execute(argv);
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new FrontierCli(out, err));
        cli.setUsageHelpWidth(HELP_WIDTH);
        cli.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cli.setParameterExceptionHandler(FrontierCli::usageError);
        cli.setExecutionExceptionHandler(FrontierCli::failure);
        return cli;
    }

    /** {@code ./frontier} alone: the command list on stderr, exit 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE;
    }

    /** One line: {@code frontier query: --source: 'abc' is not a vertex id (an integer)}. */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        String message = e.getMessage();
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            message = unmatched(c, u.getUnmatched().get(0));
        } else if (e.getCause() instanceof TypeConversionException t && e.getArgSpec() != null) {
            String name = e.getArgSpec() instanceof OptionSpec o ? o.longestName() : e.getArgSpec().paramLabel();
            message = name + ": " + t.getMessage();
        }
        c.getErr().println(c.getCommandSpec().qualifiedName(" ") + ": " + message);
        return USAGE;
    }

    /** The first word not understood, and where to look. */
    private static String unmatched(CommandLine c, String word) {
        boolean top = c.getCommandSpec().parent() == null;
        String help = "./" + c.getCommandSpec().qualifiedName(" ") + " --help";
        if (top && !word.startsWith("-")) {
            return "unknown command '" + word + "' (" + String.join(", ", c.getSubcommands().keySet()) + "; " + help + ")";
        }
        return (word.startsWith("-") ? "unknown option '" : "unexpected argument '") + word + "' (" + help + " lists the options)";
    }

    /** A command that failed: its reason in one line, exit 1 (2 for a Kafka setting the client refused). */
    private static int failure(Exception e, CommandLine c, ParseResult parsed) {
        PrintWriter err = c.getErr();
        if (e instanceof KafkaReachability.BadSetting) {
            err.println(c.getCommandSpec().qualifiedName(" ") + ": " + e.getMessage());
            return USAGE;
        }
        err.println("frontier: " + (e instanceof CliFailure || e instanceof GraphFileException ? e.getMessage() : reason(e)));
        return FAILED;
    }

    /**
     * What went wrong, for a person: the first message along the causes that is not only another exception's
     * {@code toString} (Kafka's and the JDK's wrappers), with any leading class name taken off.
     */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (m == null || m.isBlank() || (t.getCause() != null && m.equals(t.getCause().toString()))) continue;
            return CLASS_PREFIX.matcher(m).replaceFirst("");
        }
        return "an unexpected failure with no message (" + (e instanceof Error ? "the JVM" : "internal") + ")";
    }

    /** {@code java.lang.IllegalStateException: } or {@code org.apache.kafka...TimeoutException: } at a message's start. */
    private static final java.util.regex.Pattern CLASS_PREFIX =
            java.util.regex.Pattern.compile("^(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error): ");

    /** {@code --version}: the jar's version, when run from the jar. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = FrontierCli.class.getPackage().getImplementationVersion();
            return new String[] {"frontier " + (v == null ? "(development build)" : v)};
        }
    }
}
