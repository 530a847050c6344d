package org.frontiergraph.kernels.io;

import java.io.IOException;
import java.util.Locale;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * MatrixMarket {@code coordinate} matrix as a graph: entry (i, j) is an edge i -> j, 1-based.
 * Banner {@code %%MatrixMarket matrix coordinate <field> <symmetry>} with field {@code pattern} (weight 1),
 * {@code real} or {@code integer} (the value is the weight, as written: a negative value is kept here and then
 * rejected by GraphBuilder) and symmetry {@code general} (directed) or {@code symmetric} (undirected; the file
 * holds one triangle). Then {@code %} comments, the size line {@code rows cols entries} (rows must equal cols),
 * and exactly {@code entries} entry lines. Unlike SNAP and DIMACS, a real/integer entry without a value is an
 * error: the banner promised one.
 */
final class MatrixMarketReader {
    private MatrixMarketReader() {}

    static LoadedGraph read(ByteScanner s, boolean undirected) throws IOException {
        long selfLoops = 0;
        // banner: first line
        if (s.skipSpaces() == ByteScanner.EOF) throw s.error("empty file; expected a %%MatrixMarket banner");
        s.lines++;
        s.readToken();
        if (!s.tokenText().equalsIgnoreCase("%%MatrixMarket")) {
            throw s.error("expected '%%MatrixMarket matrix coordinate <field> <symmetry>', found '" + s.tokenText() + "'");
        }
        String object = word(s, "object (matrix)");
        String layout = word(s, "format (coordinate)");
        String field = word(s, "field (pattern, real or integer)");
        String symmetry = word(s, "symmetry (general or symmetric)");
        if (!object.equals("matrix")) throw s.error("unsupported MatrixMarket object '" + object + "'; expected matrix");
        if (!layout.equals("coordinate")) {
            throw s.error("unsupported MatrixMarket format '" + layout + "'; only coordinate (sparse) is a graph");
        }
        boolean pattern;
        switch (field) {
            case "pattern": pattern = true; break;
            case "real": case "integer": case "double": pattern = false; break;
            default: throw s.error("unsupported MatrixMarket field '" + field + "'; expected pattern, real or integer");
        }
        boolean symmetric;
        switch (symmetry) {
            case "general": symmetric = false; break;
            case "symmetric": symmetric = true; break;
            default: throw s.error("unsupported MatrixMarket symmetry '" + symmetry + "'; expected general or symmetric");
        }
        s.endLine("the symmetry");

        EdgeList edges = null;
        long n = -1, declared = -1, entries = 0;
        String valueName = "entry value (the banner says " + field + ")";
        while (true) {
            int c = s.nextContentLine("%");
            if (c == ByteScanner.EOF) break;
            if (edges == null) {
                long rows = s.readLong("row count");
                long cols = s.readLong("column count");
                declared = s.readLong("entry count");
                if (rows != cols) {
                    throw s.error("matrix is " + rows + " x " + cols + "; a graph's adjacency matrix must be square");
                }
                if (rows < 0 || rows > GraphFiles.MAX_VERTICES) {
                    throw s.error("vertex count " + rows + " outside 0.." + GraphFiles.MAX_VERTICES);
                }
                if (declared < 0) throw s.error("negative entry count " + declared);
                s.endLine("the entry count");
                n = rows;
                edges = new EdgeList((int) n, !(symmetric || undirected), GraphFiles.initialCapacity(declared));
                continue;
            }
            long i = s.readLong("row index");
            long j = s.readLong("column index");
            checkVertex(s, i, n);
            checkVertex(s, j, n);
            double w = pattern ? 1.0 : s.readNumber(valueName);
            if (++entries > declared) throw s.error("more entries than the " + declared + " the size line promises");
            s.endLine(pattern ? "the column index (pattern entries have no value)" : "the entry value");
            if (i == j) selfLoops++;
            edges.add((int) (i - 1), (int) (j - 1), w);
        }
        if (edges == null) throw s.fileError("no size line '<rows> <cols> <entries>'");
        if (entries != declared) {
            throw s.fileError("the size line promises " + declared + " entries, found " + entries + " (truncated file?)");
        }
        return new LoadedGraph(edges, 1, GraphFormat.MATRIX_MARKET, !pattern, s.lines, s.comments, s.blanks, selfLoops);
    }

    private static String word(ByteScanner s, String what) throws IOException {
        if (s.readToken() == 0) throw s.error("banner is missing its " + what);
        return s.tokenText().toLowerCase(Locale.ROOT);
    }

    private static void checkVertex(ByteScanner s, long id, long n) throws GraphFileException {
        if (id < 1 || id > n) throw s.error("vertex " + id + " outside 1.." + n + " (from the size line)");
    }
}
