package org.frontiergraph.kernels.io;

import java.io.IOException;

/**
 * A graph file that cannot be read: a malformed line, a vertex id beyond the header, a header that disagrees with
 * the body, truncated or corrupt gzip data. Checked (an {@link IOException}) because, like a missing file, it is a
 * fact about the input that a caller must expect, never a bug.
 *
 * <p>The message reads {@code file:line: reason}, one line, e.g.
 * {@code USA-road-d.NY.gr.gz:12: vertex 264347 outside 1..264346 (from the p line)}. Line 0 means the whole file
 * (for example "the p line promises 733846 arcs, found 12").
 */
public class GraphFileException extends IOException {
    private final String file;
    private final long line;
    private final String reason;

    public GraphFileException(String file, long line, String reason) {
        this(file, line, reason, null);
    }

    public GraphFileException(String file, long line, String reason, Throwable cause) {
        super(file + ":" + line + ": " + reason, cause);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    /** The file name as the caller gave it (not the full path). */
    public String file() { return file; }

    /** The 1-based line number, or 0 when the problem concerns the whole file. */
    public long line() { return line; }

    /** The reason alone, without file and line. */
    public String reason() { return reason; }
}
