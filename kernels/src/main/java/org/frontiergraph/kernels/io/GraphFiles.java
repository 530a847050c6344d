package org.frontiergraph.kernels.io;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * Reads and writes graph files: DIMACS {@code .gr}, SNAP edge lists and MatrixMarket {@code .mtx}, each plain or
 * gzip-compressed (compression is detected from the first two bytes, not the name).
 *
 * <p>What the readers do with real files' quirks:
 * <ul>
 *   <li>CRLF line endings, blank lines, leading/trailing spaces and tabs: accepted.</li>
 *   <li>Comment lines ({@code c} DIMACS, {@code #} or {@code %} SNAP, {@code %} MatrixMarket): skipped anywhere
 *       and counted in {@link LoadedGraph#commentLines()}.</li>
 *   <li>Self-loops and duplicate edges: kept in the {@link EdgeList}, in file order. {@code GraphBuilder} then drops
 *       self-loops and merges duplicates to the smallest weight (CsrGraph's storage policy). Self-loops are
 *       counted in {@link LoadedGraph#selfLoops()}.</li>
 *   <li>Missing weights (DIMACS arcs, SNAP's optional third column): weight 1, the deterministic rule for
 *       unweighted graphs; MatrixMarket {@code pattern} entries likewise get weight 1.</li>
 *   <li>Negative weights are read as written; {@code GraphBuilder} rejects them (InvalidGraphException), since
 *       Frontier's algorithms require non-negative weights. NaN and infinite weights are rejected here.</li>
 *   <li>Anything else (a malformed line, an id outside the header's range, a header that disagrees with the
 *       number of lines, truncated or corrupt gzip data): {@link GraphFileException}, an IOException whose
 *       message names the file and line.</li>
 * </ul>
 * Parsing is a byte-level scanner (no String per line), about as fast as inflating the gzip stream.
 */
public final class GraphFiles {
    /** The most vertices a graph may have (CSR row offsets are an int array of n + 1). */
    public static final int MAX_VERTICES = Integer.MAX_VALUE - 9;

    private static final int IO_BUFFER = 1 << 16;
    private static final long PROGRESS_STEP = 1L << 20;

    private GraphFiles() {}

    /** Reads {@code file}, the format told by its name ({@link GraphFormat#fromFileName}). */
    public static LoadedGraph read(Path file) throws IOException {
        return read(file, GraphFormat.fromFileName(file.getFileName().toString()));
    }

    /** Reads {@code file} as {@code format}, directed unless the format says otherwise. */
    public static LoadedGraph read(Path file, GraphFormat format) throws IOException {
        return read(file, format, false, null);
    }

    /**
     * Reads {@code file} as {@code format}, reporting progress.
     *
     * @param bytesRead called with the number of bytes of the file (compressed bytes for .gz) read so far, about
     *                  every MiB and once at the end; compare with {@code Files.size(file)}. May be null.
     */
    public static LoadedGraph read(Path file, GraphFormat format, LongConsumer bytesRead) throws IOException {
        return read(file, format, false, bytesRead);
    }

    /**
     * Reads {@code file} as {@code format}.
     *
     * @param undirected when true, every line is an undirected edge (SNAP files often list each undirected edge once;
     *                   for DIMACS and MatrixMarket {@code general} this ignores the direction). When false, SNAP and
     *                   DIMACS are directed and MatrixMarket follows its banner ({@code symmetric} is undirected).
     * @param bytesRead  progress callback as in {@link #read(Path, GraphFormat, LongConsumer)}; may be null
     */
    public static LoadedGraph read(Path file, GraphFormat format, boolean undirected, LongConsumer bytesRead)
            throws IOException {
        String name = file.getFileName().toString();
        try (InputStream raw = Files.newInputStream(file)) {
            InputStream counted = bytesRead == null ? raw : new CountingInputStream(raw, bytesRead);
            LoadedGraph g = read(counted, name, format, undirected);
            if (counted instanceof CountingInputStream c) c.report();
            return g;
        }
    }

    /**
     * Reads a graph from a stream (plain or gzip; not closed). {@code name} identifies it in error messages.
     */
    public static LoadedGraph read(InputStream in, String name, GraphFormat format, boolean undirected)
            throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, IO_BUFFER);
        buffered.mark(2);
        int b0 = buffered.read(), b1 = buffered.read();
        buffered.reset();
        InputStream text = buffered;
        if (b0 == 0x1f && b1 == 0x8b) {
            try {
                text = new GZIPInputStream(buffered, IO_BUFFER);
            } catch (IOException e) {
                throw new GraphFileException(name, 0, "truncated or corrupt gzip header (" + e.getMessage() + ")", e);
            }
        }
        ByteScanner s = new ByteScanner(text, name, IO_BUFFER);
        s.skipByteOrderMark();
        switch (format) {
            case DIMACS: return DimacsReader.read(s, undirected);
            case SNAP: return SnapReader.read(s, undirected);
            case MATRIX_MARKET: return MatrixMarketReader.read(s, undirected);
            default: throw new IllegalArgumentException("unknown format " + format);
        }
    }

    /**
     * Writes {@code edges} to {@code file} in the format its name tells, gzip-compressed when the name ends in
     * {@code .gz}. See {@link #write(EdgeList, OutputStream, GraphFormat)} for what each format holds.
     */
    public static void write(EdgeList edges, Path file) throws IOException {
        write(edges, file, GraphFormat.fromFileName(file.getFileName().toString()));
    }

    /** Writes {@code edges} to {@code file} as {@code format}; gzip-compressed when the name ends in {@code .gz}. */
    public static void write(EdgeList edges, Path file, GraphFormat format) throws IOException {
        boolean gz = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".gz");
        try (OutputStream raw = Files.newOutputStream(file);
             OutputStream out = gz ? new GZIPOutputStream(raw, IO_BUFFER) : raw) {
            write(edges, out, format);
        }
    }

    /**
     * Writes {@code edges} as {@code format} (the stream is flushed, not closed). What reading it back gives:
     * <ul>
     *   <li>DIMACS: a directed graph with the same vertex count; an undirected edge list is written as two arcs
     *       per edge (one per self-loop), so it reads back as the equivalent directed graph.</li>
     *   <li>MatrixMarket: {@code symmetric} for undirected lists (one triangle), {@code general} for directed;
     *       field {@code pattern} when every weight is 1, {@code integer} when all are integers, else
     *       {@code real}. Reads back as the same edge list.</li>
     *   <li>SNAP: one line per edge, 0-based, a weight column unless every weight is 1. SNAP has no header, so
     *       trailing isolated vertices are lost and an undirected list must be read back with
     *       {@code undirected = true} (a comment line says so).</li>
     * </ul>
     * Integral weights are written as integers, others in Java's shortest round-trip decimal form.
     *
     * @throws IllegalArgumentException when a weight is NaN or infinite
     */
    public static void write(EdgeList edges, OutputStream out, GraphFormat format) throws IOException {
        new GraphWriter(edges, out).write(format);
    }

    static int initialCapacity(long declaredEdges) {
        return (int) Math.max(16, Math.min(declaredEdges, 1L << 24));
    }

    /** Counts the bytes read from the file and reports them about every {@link #PROGRESS_STEP} bytes. */
    private static final class CountingInputStream extends FilterInputStream {
        private final LongConsumer listener;
        private long count;
        private long nextReport = PROGRESS_STEP;

        CountingInputStream(InputStream in, LongConsumer listener) {
            super(in);
            this.listener = listener;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) advance(1);
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) advance(n);
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            if (k > 0) advance(k);
            return k;
        }

        @Override
        public boolean markSupported() { return false; }

        private void advance(long n) {
            count += n;
            if (count >= nextReport) {
                nextReport = count + PROGRESS_STEP;
                listener.accept(count);
            }
        }

        void report() { listener.accept(count); }
    }
}
