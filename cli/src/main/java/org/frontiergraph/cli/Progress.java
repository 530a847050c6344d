package org.frontiergraph.cli;

import java.io.PrintStream;
import java.util.Locale;

/** Progress on stderr for large files: a percentage at most every half second. */
final class Progress {
    private final PrintStream err;
    private final String what;
    private final long total;
    private final boolean enabled;
    private long lastPrint;

    Progress(PrintStream err, String what, long total) {
        this.err = err;
        this.what = what;
        this.total = Math.max(1, total);
        this.enabled = total > 1_000_000;
    }

    void bytes(long done) {
        long now = System.nanoTime();
        if (enabled && now - lastPrint > 500_000_000L) {
            lastPrint = now;
            err.printf(Locale.ROOT, "\r%s: %3d%%", what, Math.min(100, done * 100 / total));
        }
    }

    void done(String summary) {
        err.println((enabled ? "\r" : "") + what + ": done, " + summary);
    }
}
