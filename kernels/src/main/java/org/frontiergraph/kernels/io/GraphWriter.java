package org.frontiergraph.kernels.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.frontiergraph.kernels.graph.EdgeList;

/** Formats an EdgeList as text without a String per line; see {@link GraphFiles#write(EdgeList, OutputStream, GraphFormat)}. */
final class GraphWriter {
    private static final long EXACT_LONG = 1L << 53;

    private final EdgeList edges;
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[20];
    private int pos;

    GraphWriter(EdgeList edges, OutputStream out) {
        this.edges = edges;
        this.out = out;
    }

    void write(GraphFormat format) throws IOException {
        int m = edges.size();
        boolean allOne = true, allIntegral = true;
        int selfLoops = 0;
        for (int i = 0; i < m; i++) {
            double w = edges.weight(i);
            if (Double.isNaN(w) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("edge " + i + " (" + edges.source(i) + " -> " + edges.target(i)
                        + ") has weight " + w + "; only finite weights can be written");
            }
            allOne &= w == 1.0;
            allIntegral &= isIntegral(w);
            if (edges.source(i) == edges.target(i)) selfLoops++;
        }
        switch (format) {
            case DIMACS: writeDimacs(m, selfLoops); break;
            case SNAP: writeSnap(m, allOne); break;
            case MATRIX_MARKET: writeMatrixMarket(m, allOne, allIntegral); break;
            default: throw new IllegalArgumentException("unknown format " + format);
        }
        flush();
        out.flush();
    }

    private void writeDimacs(int m, int selfLoops) throws IOException {
        boolean both = !edges.directed();
        long arcs = both ? 2L * m - selfLoops : m;
        text("c written by Frontier" + (both ? " (undirected graph: each edge as two arcs)" : "") + "\n");
        text("p sp ");
        number(edges.vertexCount());
        text(" ");
        number(arcs);
        text("\n");
        for (int i = 0; i < m; i++) {
            int u = edges.source(i), v = edges.target(i);
            double w = edges.weight(i);
            arc(u, v, w);
            if (both && u != v) arc(v, u, w);
        }
    }

    private void arc(int u, int v, double w) throws IOException {
        text("a ");
        number(u + 1L);
        byte_(' ');
        number(v + 1L);
        byte_(' ');
        weight(w);
        byte_('\n');
    }

    private void writeSnap(int m, boolean allOne) throws IOException {
        text(edges.directed() ? "# Directed graph written by Frontier\n"
                : "# Undirected graph written by Frontier: each edge once; read with undirected = true\n");
        text("# Nodes: ");
        number(edges.vertexCount());
        text(" Edges: ");
        number(m);
        text("\n");
        for (int i = 0; i < m; i++) {
            number(edges.source(i));
            byte_('\t');
            number(edges.target(i));
            if (!allOne) {
                byte_('\t');
                weight(edges.weight(i));
            }
            byte_('\n');
        }
    }

    private void writeMatrixMarket(int m, boolean allOne, boolean allIntegral) throws IOException {
        boolean symmetric = !edges.directed();
        String field = allOne ? "pattern" : allIntegral ? "integer" : "real";
        text("%%MatrixMarket matrix coordinate " + field + (symmetric ? " symmetric" : " general") + "\n");
        text("% written by Frontier\n");
        number(edges.vertexCount());
        byte_(' ');
        number(edges.vertexCount());
        byte_(' ');
        number(m);
        byte_('\n');
        for (int i = 0; i < m; i++) {
            int u = edges.source(i), v = edges.target(i);
            int row = symmetric ? Math.max(u, v) : u, col = symmetric ? Math.min(u, v) : v;
            number(row + 1L);
            byte_(' ');
            number(col + 1L);
            if (!allOne) {
                byte_(' ');
                weight(edges.weight(i));
            }
            byte_('\n');
        }
    }

    private static boolean isIntegral(double w) {
        return w == Math.rint(w) && Math.abs(w) < EXACT_LONG;
    }

    private void weight(double w) throws IOException {
        if (isIntegral(w)) number((long) w); else text(Double.toString(w));
    }

    private void number(long v) throws IOException {
        if (pos + 21 > buf.length) flush();
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                text(Long.toString(v));
                return;
            }
            buf[pos++] = '-';
            v = -v;
        }
        int k = 0;
        do {
            digits[k++] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v != 0);
        while (k > 0) buf[pos++] = digits[--k];
    }

    private void byte_(int b) throws IOException {
        if (pos == buf.length) flush();
        buf[pos++] = (byte) b;
    }

    private void text(String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        if (pos + b.length > buf.length) flush();
        if (b.length > buf.length) {
            out.write(b);
            return;
        }
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    private void flush() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
    }
}
