package org.frontiergraph.cli;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;

/**
 * An answer as a Graphviz graph: for a tree (BFS, SSSP) a {@code digraph} of the tree edges {@code parent -> vertex}
 * (or of the path's edges), labelled with the edge's share of the distance (values that are not whole counts), the
 * source drawn as a double circle; for a forest (MST) an undirected {@code graph} of the edges labelled with their
 * weights. Unreached vertices are left
 * out. {@code dot -Tsvg answer.dot > answer.svg} draws it.
 */
final class DotAnswer {
    private DotAnswer() {}

    static void write(AnswerRows rows, Writer out) throws IOException {
        var h = rows.head;
        String what = h.getAlgorithm() + (h.getSource() != null ? " from " + h.getSource() : "")
                + (rows.path ? ", path to " + rows.vertex[rows.vertex.length - 1] : "");
        out.write((rows.isForest() ? "graph " : "digraph ") + quote(h.getGraphId()) + " {\n");
        out.write("  // " + comment("graph '" + h.getGraphId() + "' version " + h.getGraphVersion() + ": " + what) + "\n");
        if (rows.isForest()) {
            for (int i = 0; i < rows.u.length; i++) {
                out.write(String.format(Locale.ROOT, "  %d -- %d [label=\"%s\"];%n", rows.u[i], rows.v[i],
                        AnswerRows.number(rows.weight[i])));
            }
        } else {
            if (h.getSource() != null) out.write("  " + h.getSource() + " [shape=doublecircle];\n");
            int first = h.getFirstVertexId();
            for (int i = 0; i < rows.vertex.length; i++) {
                int p = rows.parent[i], v = rows.vertex[i];
                if (p < 0 || p == v || rows.value[i] == Double.POSITIVE_INFINITY) continue;
                String label = "";
                if (!rows.wholeValues()) {
                    double parentValue = rows.path ? rows.value[i - 1] : rows.isFull() ? rows.value[p - first] : Double.NaN;
                    if (!Double.isNaN(parentValue)) label = " [label=\"" + AnswerRows.number(rows.value[i] - parentValue) + "\"]";
                }
                out.write("  " + p + " -> " + v + label + ";\n");
            }
        }
        out.write("}\n");
        out.flush();
    }

    /** A DOT quoted string: {@code "} and {@code \} escaped, line breaks as spaces. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\r\\n]", " ") + "\"";
    }

    private static String comment(String s) {
        return s.replaceAll("[\\r\\n]", " ");
    }
}
