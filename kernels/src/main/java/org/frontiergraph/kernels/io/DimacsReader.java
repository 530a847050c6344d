package org.frontiergraph.kernels.io;

import java.io.IOException;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * 9th DIMACS challenge {@code .gr}: {@code c} comment lines, one {@code p sp N M} line before any arc, then
 * {@code a u v w} arcs, 1 <= u, v <= N. A missing weight reads as 1. The number of arcs must equal M
 * (a shorter file is reported as truncated).
 */
final class DimacsReader {
    private DimacsReader() {}

    static LoadedGraph read(ByteScanner s, boolean undirected) throws IOException {
        EdgeList edges = null;
        long n = -1, declared = -1, arcs = 0;
        long selfLoops = 0;
        boolean weighted = false;
        while (true) {
            int c = s.nextContentLine("c");
            if (c == ByteScanner.EOF) break;
            int len = s.readToken();
            if (len == 1 && s.tokenByte(0) == 'a') {
                if (edges == null) throw s.error("arc before the 'p sp <vertices> <arcs>' line");
                long u = s.readLong("source vertex");
                long v = s.readLong("target vertex");
                checkVertex(s, u, n);
                checkVertex(s, v, n);
                double w = 1.0;
                if (!s.atLineEnd()) {
                    w = s.readNumber("arc weight");
                    weighted = true;
                }
                if (++arcs > declared) {
                    throw s.error("more arcs than the " + declared + " the p line promises");
                }
                s.endLine("the arc weight");
                if (u == v) selfLoops++;
                edges.add((int) (u - 1), (int) (v - 1), w);
            } else if (len == 1 && s.tokenByte(0) == 'p') {
                if (edges != null) throw s.error("a second 'p' line");
                s.readToken();
                if (!s.tokenText().equals("sp")) {
                    throw s.error("expected 'p sp <vertices> <arcs>', found problem type '" + s.tokenText() + "'");
                }
                n = s.readLong("vertex count");
                declared = s.readLong("arc count");
                if (n < 0 || n > GraphFiles.MAX_VERTICES) {
                    throw s.error("vertex count " + n + " outside 0.." + GraphFiles.MAX_VERTICES);
                }
                if (declared < 0) throw s.error("negative arc count " + declared);
                s.endLine("the arc count");
                edges = new EdgeList((int) n, !undirected, GraphFiles.initialCapacity(declared));
            } else {
                throw s.error("unknown line type '" + s.tokenText() + "'; expected c, p or a");
            }
        }
        if (edges == null) throw s.fileError("no 'p sp <vertices> <arcs>' line");
        if (arcs != declared) {
            throw s.fileError("the p line promises " + declared + " arcs, found " + arcs + " (truncated file?)");
        }
        return new LoadedGraph(edges, 1, GraphFormat.DIMACS, weighted, s.lines, s.comments, s.blanks, selfLoops);
    }

    private static void checkVertex(ByteScanner s, long id, long n) throws GraphFileException {
        if (id < 1 || id > n) throw s.error("vertex " + id + " outside 1.." + n + " (from the p line)");
    }
}
