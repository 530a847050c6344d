package org.frontiergraph.bench;

import java.util.function.Supplier;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * The command line of a benchmark, written once: parse the options ({@link BenchCli}: {@code --help} prints the usage,
 * exit 0; a bad command line prints what was wrong and the usage on stderr, exit 2), run, print the markdown, exit 0
 * when every check passed, 1 when one did not or the run failed. {@code System.exit} ends the JVM even though the
 * embedded broker's and worker's threads were only stopped.
 */
public final class BenchMain {
    private BenchMain() {}

    /** Parses a hand-written command line (RebuildBench's, until it moves to {@link BenchCli}). */
    public interface Parser<O> {
        O parse(String[] args);
    }

    /** Runs the benchmark with its options. */
    public interface Runner<O> {
        Result run(O options) throws Exception;
    }

    /** The markdown printed, and whether every check passed. */
    public record Result(String markdown, boolean ok) {}

    public static <O> void main(String name, String[] args, Supplier<? extends BenchCli.Command<O>> cli, Runner<O> runner) {
        FrontierCodec.trust();
        run(name, BenchCli.options(name, args, cli), runner);
    }

    /**
     * As {@link #main(String, String[], Supplier, Runner)} for a hand-written parser: an IllegalArgumentException is a
     * usage error (its message and {@code usage} on stderr, exit 2; an empty message is --help, exit 0).
     */
    public static <O> void main(String name, String usage, String[] args, Parser<O> parser, Runner<O> runner) {
        FrontierCodec.trust();
        O options;
        try {
            options = parser.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) System.err.println(name + ": " + e.getMessage());
            System.err.println(usage);
            System.exit(e.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        run(name, options, runner);
    }

    private static <O> void run(String name, O options, Runner<O> runner) {
        int status;
        try {
            Result r = runner.run(options);
            System.out.println(r.markdown());
            status = r.ok() ? 0 : 1;
        } catch (Exception e) {
            System.err.println(name + " failed: " + e);
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }
}
