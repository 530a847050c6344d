package org.frontiergraph.kernels.io;

import java.util.Locale;

/**
 * The graph file formats Frontier reads and writes. Each may be gzip-compressed ({@code .gz}); compression is
 * detected from the file's first bytes, the format from its name or {@link #parse(String) a flag}.
 */
public enum GraphFormat {
    /**
     * 9th DIMACS challenge shortest-path graphs ({@code .gr}): {@code c} comments, one {@code p sp N M} line,
     * then {@code a u v w} arcs with 1-based ids. Directed.
     */
    DIMACS(1, "dimacs", ".gr"),
    /**
     * Stanford SNAP edge lists ({@code .txt}, {@code .edges}, {@code .el}): {@code #} (or {@code %}) comments,
     * {@code u v [w]} separated by spaces or tabs, 0-based ids, vertex count = largest id + 1. Directed unless the
     * reader is told otherwise.
     */
    SNAP(0, "snap", ".txt", ".edges", ".el"),
    /**
     * MatrixMarket {@code coordinate} matrices ({@code .mtx}): {@code pattern|real|integer},
     * {@code general} (directed) or {@code symmetric} (undirected); 1-based ids.
     */
    MATRIX_MARKET(1, "mtx", ".mtx");

    private final int firstVertexId;
    private final String flag;
    private final String[] extensions;

    GraphFormat(int firstVertexId, String flag, String... extensions) {
        this.firstVertexId = firstVertexId;
        this.flag = flag;
        this.extensions = extensions;
    }

    /** The user's id of internal vertex 0: 1 for DIMACS and MatrixMarket, 0 for SNAP. */
    public int firstVertexId() { return firstVertexId; }

    /** The name accepted by {@link #parse(String)} for a {@code --format} flag. */
    public String flag() { return flag; }

    /** The usual file extension, e.g. {@code .gr}. */
    public String extension() { return extensions[0]; }

    /**
     * The format named by a file's extension, ignoring case and a trailing {@code .gz}:
     * {@code .gr} DIMACS; {@code .txt}, {@code .edges}, {@code .el} SNAP; {@code .mtx} MatrixMarket.
     *
     * @throws IllegalArgumentException for any other name, saying which extensions are known
     */
    public static GraphFormat fromFileName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        String base = lower.endsWith(".gz") ? lower.substring(0, lower.length() - 3) : lower;
        for (GraphFormat f : values()) {
            for (String ext : f.extensions) {
                if (base.endsWith(ext) && base.length() > ext.length()) return f;
            }
        }
        throw new IllegalArgumentException("cannot tell the graph format of '" + name
                + "': expected .gr, .txt, .edges, .el or .mtx (optionally .gz); pass a format explicitly");
    }

    /**
     * The format named by a flag value: {@code dimacs} (or {@code gr}), {@code snap}, {@code mtx}
     * (or {@code matrixmarket}, {@code matrix_market}); case-insensitive.
     *
     * @throws IllegalArgumentException for any other value
     */
    public static GraphFormat parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        switch (v) {
            case "dimacs": case "gr": return DIMACS;
            case "snap": case "txt": case "edges": case "el": return SNAP;
            case "mtx": case "matrixmarket": case "matrix_market": case "matrix-market": return MATRIX_MARKET;
            default:
                throw new IllegalArgumentException("unknown graph format '" + value + "': expected dimacs, snap or mtx");
        }
    }
}
