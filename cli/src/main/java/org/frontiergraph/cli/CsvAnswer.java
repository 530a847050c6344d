package org.frontiergraph.cli;

import java.io.IOException;
import java.io.Writer;

/**
 * An answer as CSV with a header line: {@code vertex,distance,parent} (SSSP), {@code vertex,hops,parent} (BFS) or
 * {@code vertex,label} (CC), one row per vertex (or per vertex of the path, source first), empty fields for
 * unreachable vertices; for MST {@code u,v,weight}, one row per forest edge. Every field is a number, so nothing is
 * quoted; with the answer's vertex names (an answer asked by name), vertices, parents and labels are their names,
 * quoted as RFC 4180 quotes a field when they hold a comma, a quote or a line break.
 */
final class CsvAnswer {
    private CsvAnswer() {}

    static void write(AnswerRows rows, Writer out) throws IOException {
        write(rows, java.util.Map.of(), out);
    }

    static void write(AnswerRows rows, java.util.Map<Integer, String> names, Writer out) throws IOException {
        java.util.function.IntFunction<String> vertex = id -> names.isEmpty() ? Integer.toString(id) : quoted(names.getOrDefault(id, Integer.toString(id)));
        boolean labels = !names.isEmpty() && rows.valueName().equals("label");
        StringBuilder line = new StringBuilder();
        if (rows.isForest()) {
            out.write("u,v,weight\n");
            for (int i = 0; i < rows.u.length; i++) {
                line.setLength(0);
                line.append(vertex.apply(rows.u[i])).append(',').append(vertex.apply(rows.v[i])).append(',').append(AnswerRows.number(rows.weight[i])).append('\n');
                out.write(line.toString());
            }
        } else {
            out.write("vertex," + rows.valueName() + (rows.parent != null ? ",parent\n" : "\n"));
            for (int i = 0; i < rows.vertex.length; i++) {
                line.setLength(0);
                line.append(vertex.apply(rows.vertex[i])).append(',')
                        .append(labels ? vertex.apply((int) rows.value[i]) : AnswerRows.number(rows.value[i]));
                if (rows.parent != null) {
                    line.append(',');
                    if (rows.parent[i] >= 0) line.append(vertex.apply(rows.parent[i]));
                }
                out.write(line.append('\n').toString());
            }
        }
        out.flush();
    }

    private static String quoted(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) return field;
        return '"' + field.replace("\"", "\"\"") + '"';
    }
}
