package org.frontiergraph.cli;

import java.io.IOException;
import java.io.Writer;

/**
 * An answer as CSV with a header line: {@code vertex,distance,parent} (SSSP), {@code vertex,hops,parent} (BFS) or
 * {@code vertex,label} (CC), one row per vertex (or per vertex of the path, source first), empty fields for
 * unreachable vertices; for MST {@code u,v,weight}, one row per forest edge. Every field is a number, so nothing is
 * quoted.
 */
final class CsvAnswer {
    private CsvAnswer() {}

    static void write(AnswerRows rows, Writer out) throws IOException {
        StringBuilder line = new StringBuilder();
        if (rows.isForest()) {
            out.write("u,v,weight\n");
            for (int i = 0; i < rows.u.length; i++) {
                line.setLength(0);
                line.append(rows.u[i]).append(',').append(rows.v[i]).append(',').append(AnswerRows.number(rows.weight[i])).append('\n');
                out.write(line.toString());
            }
        } else {
            out.write("vertex," + rows.valueName() + (rows.parent != null ? ",parent\n" : "\n"));
            for (int i = 0; i < rows.vertex.length; i++) {
                line.setLength(0);
                line.append(rows.vertex[i]).append(',').append(AnswerRows.number(rows.value[i]));
                if (rows.parent != null) {
                    line.append(',');
                    if (rows.parent[i] >= 0) line.append(rows.parent[i]);
                }
                out.write(line.append('\n').toString());
            }
        }
        out.flush();
    }
}
