package org.frontiergraph.kernels.io;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.frontiergraph.kernels.graph.EdgeList;

/** Helpers for the io tests: read inline text, gzip it, describe an EdgeList. */
final class GraphTexts {
    private GraphTexts() {}

    static LoadedGraph read(String text, GraphFormat format) throws IOException {
        return read(text, format, false);
    }

    static LoadedGraph read(String text, GraphFormat format, boolean undirected) throws IOException {
        return GraphFiles.read(new ByteArrayInputStream(bytes(text)), "inline" + format.extension(), format, undirected);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        }
        return out.toByteArray();
    }

    /** "u->v:w" per edge (u-v for undirected), 0-based, in list order. */
    static String describe(EdgeList e) {
        String[] parts = new String[e.size()];
        for (int i = 0; i < e.size(); i++) {
            double w = e.weight(i);
            String ws = w == Math.rint(w) ? Long.toString((long) w) : Double.toString(w);
            parts[i] = e.source(i) + (e.directed() ? "->" : "-") + e.target(i) + ":" + ws;
        }
        return String.join(" ", Arrays.asList(parts));
    }
}
