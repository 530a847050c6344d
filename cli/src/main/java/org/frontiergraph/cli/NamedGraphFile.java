package org.frontiergraph.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.frontiergraph.client.VertexNames;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * Named vertices for {@code ./frontier load} (docs/contract.md, "Vertex names"): an edge list whose endpoints are
 * names ({@code --names}: SNAP or CSV, {@code A B [W]} per line, separated by tabs, else commas, else spaces; {@code #} and
 * {@code %} comment lines; names numbered from 0 in the order first seen), or a names file for a graph read by id
 * ({@code --names-file}: one name a line, the name of vertex {@code firstVertexId}, then the next).
 */
final class NamedGraphFile {
    private NamedGraphFile() {}

    /** A named edge list: its edges in ids from 0, whether a line had a weight, and the names in id order. */
    record Named(EdgeList edges, boolean weighted, List<String> names) {}

    static Named readEdgeList(Path file, boolean undirected) throws IOException {
        EdgeList edges = new EdgeList(0, !undirected, 1 << 10);
        VertexNames ids = new VertexNames();
        boolean weighted = false;
        try (BufferedReader r = reader(file)) {
            String line;
            long number = 0;
            while ((line = r.readLine()) != null) {
                number++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#") || t.startsWith("%")) continue;
                String[] f = fields(t);
                if (f.length < 2 || f.length > 3) {
                    throw new CliFailure(file + " line " + number + ": expected 'SOURCE TARGET [WEIGHT]', found '" + t + "'");
                }
                double w = 1;
                if (f.length == 3) {
                    try {
                        w = Double.parseDouble(f[2]);
                    } catch (NumberFormatException e) {
                        throw new CliFailure(file + " line " + number + ": the weight '" + f[2] + "' is not a number");
                    }
                    weighted = true;
                }
                if (f[0].isEmpty() || f[1].isEmpty()) throw new CliFailure(file + " line " + number + ": an empty vertex name");
                edges.add(ids.id(f[0]), ids.id(f[1]), w);
            }
        }
        edges.ensureVertexCount(ids.size());
        return new Named(edges, weighted, ids.names());
    }

    /** A line's fields: split at tabs when it has one, else at commas when it has one (CSV), else at spaces. */
    private static String[] fields(String line) {
        String sep = line.indexOf('\t') >= 0 ? "\t" : line.indexOf(',') >= 0 ? "," : " +";
        String[] f = line.split(sep, -1);
        for (int i = 0; i < f.length; i++) f[i] = f[i].strip();
        return f;
    }

    /** A names file: exactly {@code vertexCount} non-empty lines. */
    static List<String> readNames(Path file, int vertexCount) throws IOException {
        List<String> names = new ArrayList<>(vertexCount);
        try (BufferedReader r = reader(file)) {
            String line;
            while ((line = r.readLine()) != null) {
                String t = line.strip();
                if (t.isEmpty()) throw new CliFailure(file + " line " + (names.size() + 1) + ": an empty vertex name");
                names.add(t);
            }
        }
        if (names.size() != vertexCount) {
            throw new CliFailure(file + " has " + names.size() + " names; the graph has " + vertexCount
                    + " vertices (one name a line, in id order)");
        }
        return names;
    }

    private static BufferedReader reader(Path file) throws IOException {
        if (!Files.isRegularFile(file)) throw new CliFailure("no such file: " + file);
        InputStream in = Files.newInputStream(file);
        if (file.getFileName().toString().endsWith(".gz")) in = new GZIPInputStream(in);
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
}
