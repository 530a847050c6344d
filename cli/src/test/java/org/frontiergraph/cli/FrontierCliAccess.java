package org.frontiergraph.cli;

import java.io.PrintStream;

/** The command line run in-process, for tests outside this package (integration tests). */
public final class FrontierCliAccess {
    private FrontierCliAccess() {}

    /** Runs one command line as {@code ./frontier} would; returns its exit status. */
    public static int run(String[] argv, PrintStream out, PrintStream err) {
        return FrontierCli.run(argv, out, err);
    }
}
