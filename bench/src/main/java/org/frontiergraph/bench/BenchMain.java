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

    /** Runs the benchmark with its options. */
    public interface Runner<O> {
        Result run(O options) throws Exception;
    }

    /** The markdown printed, and whether every check passed. */
    public record Result(String markdown, boolean ok) {}

    public static <O> void main(String name, String[] args, Supplier<? extends BenchCli.Command<O>> cli, Runner<O> runner) {
        FrontierCodec.trust();
        O options = BenchCli.options(name, args, cli);
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
