package org.frontiergraph.cli;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.List;
import java.util.Locale;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoders;
import org.frontiergraph.worker.query.AnswerShape;

/**
 * An answer decoded from its chunks into rows in the user's vertex ids, by the answer's shape (its encoder's
 * {@link AnswerShape}; no algorithm is named here): what the CSV, DOT and GeoJSON writers print. A vertex row is
 * (vertex, value, parent): for a tree the value (a distance or a hop count) {@code +Infinity} when unreachable and
 * parent -1 when none (the source is its own parent); for a labelling the label, no parents ({@code parent} is null).
 * An edge row is an edge (u, v, weight). {@link #pathTo} keeps the rows of one path, in order from the source.
 */
final class AnswerRows {
    final QueryResult head;
    final AnswerShape shape;
    final int[] vertex;
    final double[] value;
    final int[] parent;
    final int[] u;
    final int[] v;
    final double[] weight;
    /** True when the vertex rows are one path, source first (from {@link #pathTo}). */
    final boolean path;

    private AnswerRows(QueryResult head, AnswerShape shape, int[] vertex, double[] value, int[] parent, int[] u, int[] v,
                       double[] weight, boolean path) {
        this.head = head;
        this.shape = shape;
        this.vertex = vertex;
        this.value = value;
        this.parent = parent;
        this.u = u;
        this.v = v;
        this.weight = weight;
        this.path = path;
    }

    /** True for rows of edges (a forest), false for rows of vertices. */
    boolean isForest() { return shape.kind() == AnswerShape.Kind.EDGES; }

    /** The name of a vertex row's value: {@code hops}, {@code distance}, {@code label} (the shape's). */
    String valueName() {
        return shape.valueName();
    }

    /** True when a vertex row's value is a whole number that travelled as int32 (hops, labels), not a distance. */
    boolean wholeValues() {
        return !shape.values().real;
    }

    /**
     * The rows of a complete, successful answer's chunks (in chunk order).
     *
     * @throws IllegalArgumentException for an answer without rows: a matrix (APSP), a SUMMARY, or one that failed
     */
    static AnswerRows of(List<QueryResult> chunks) {
        QueryResult h = chunks.get(0);
        AnswerShape shape = AnswerEncoders.of(h.getAlgorithm()).shape();
        if (!shape.hasRows()) {
            throw new IllegalArgumentException("an " + h.getAlgorithm() + " answer is a matrix, not rows");
        }
        if (shape.kind() == AnswerShape.Kind.EDGES) {
            int m = 0;
            for (QueryResult c : chunks) if (c.getMstEdges() != null) m += PackedArrays.intCount(c.getMstEdges().getSources());
            int[] u = new int[m], v = new int[m];
            double[] w = new double[m];
            int k = 0;
            for (QueryResult c : chunks) {
                EdgeBatch b = c.getMstEdges();
                if (b == null) continue;
                IntBuffer s = PackedArrays.ints(b.getSources()), t = PackedArrays.ints(b.getTargets());
                DoubleBuffer x = PackedArrays.doubles(b.getWeights());
                for (int i = 0; i < s.limit(); i++, k++) {
                    u[k] = s.get(i);
                    v[k] = t.get(i);
                    w[k] = x.limit() == 0 ? 1 : x.get(i);
                }
            }
            if (k == 0 && h.getTotalWeight() == null) throw new IllegalArgumentException("the answer holds no edges");
            return new AnswerRows(h, shape, null, null, null, u, v, w, false);
        }
        VertexArray values = shape.values();
        boolean tree = shape.isTree();
        int n = 0;
        for (QueryResult c : chunks) n += length(c, values);
        if (n == 0 && (tree ? VertexArray.PARENTS : values).in(h) == null) {
            throw new IllegalArgumentException("the answer holds no vertices");
        }
        int[] vertex = new int[n], parent = tree ? new int[n] : null;
        double[] value = new double[n];
        int k = 0;
        for (QueryResult c : chunks) {
            int len = length(c, values);
            IntBuffer listed = c.getVertices() == null ? null : PackedArrays.ints(c.getVertices());
            ByteBuffer packed = values.in(c);
            // int32 values (hops, labels): negative is none; float64 values (distances) as they are
            IntBuffer whole = packed == null || values.real ? null : PackedArrays.ints(packed);
            DoubleBuffer real = packed == null || !values.real ? null : PackedArrays.doubles(packed);
            IntBuffer par = tree && VertexArray.PARENTS.in(c) != null ? PackedArrays.ints(VertexArray.PARENTS.in(c)) : null;
            for (int i = 0; i < len; i++, k++) {
                vertex[k] = listed != null ? listed.get(i) : c.getFirstVertexId() + c.getOffset() + i;
                value[k] = real != null ? real.get(i) : whole.get(i) < 0 ? Double.POSITIVE_INFINITY : whole.get(i);
                if (parent != null) parent[k] = par == null ? -1 : par.get(i);
            }
        }
        return new AnswerRows(h, shape, vertex, value, parent, null, null, null, false);
    }

    /** The vertex rows of a chunk: its parents' count where it has them, else its values'. */
    private static int length(QueryResult c, VertexArray values) {
        if (c.getParents() != null) return PackedArrays.intCount(c.getParents());
        return values.count(c);
    }

    /** True when the rows are every vertex of the graph in id order (a FULL answer), so parents can be followed. */
    boolean isFull() {
        return !isForest() && !path && head.getVertices() == null && vertex.length == head.getVertexCount();
    }

    /**
     * The path from the source to {@code target}, followed through the parents: its rows in order, source first.
     *
     * @throws CliFailure when the target is not a vertex of the graph, is unreachable, or the parents do not lead
     *         back to the source (a broken answer)
     */
    AnswerRows pathTo(int target) {
        if (!isFull() || !shape.isTree()) throw new IllegalStateException("a path needs a FULL tree answer");
        int first = head.getFirstVertexId(), n = vertex.length, source = head.getSource();
        String graph = "graph '" + head.getGraphId() + "' version " + head.getGraphVersion();
        if (target < first || target - first >= n) {
            throw new CliFailure(String.format(Locale.ROOT, "--path-to %d: no such vertex in %s (ids %d..%d)",
                    target, graph, first, first + n - 1));
        }
        if (value[target - first] == Double.POSITIVE_INFINITY) {
            throw new CliFailure("--path-to " + target + ": not reachable from " + source + " in " + graph);
        }
        int[] rows = new int[n];
        int len = 0;
        for (int at = target; ; ) {
            rows[len++] = at - first;
            if (at == source) break;
            int p = parent[at - first];
            if (p < first || p - first >= n || len == n) {
                throw new CliFailure("--path-to " + target + ": the parents of the answer do not lead back to " + source
                        + " (at vertex " + at + ", parent " + p + ")");
            }
            at = p;
        }
        int[] pv = new int[len], pp = new int[len];
        double[] pd = new double[len];
        for (int i = 0; i < len; i++) {
            int r = rows[len - 1 - i];
            pv[i] = vertex[r];
            pd[i] = value[r];
            pp[i] = parent[r];
        }
        return new AnswerRows(head, shape, pv, pd, pp, null, null, null, true);
    }

    /** Whole numbers without a fraction ({@code 803}), others as Java writes doubles; unreachable is empty. */
    static String number(double d) {
        if (Double.isInfinite(d) || Double.isNaN(d)) return "";
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return Double.toString(d);
    }
}
