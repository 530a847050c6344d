package org.frontiergraph.cli;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.List;
import java.util.Locale;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * A BFS, SSSP, MST or CC answer decoded from its chunks into rows in the user's vertex ids: what the CSV, DOT and
 * GeoJSON writers print. A vertex row is (vertex, value, parent), value being the distance (SSSP) or the hop count
 * (BFS), {@code +Infinity} when unreachable, parent -1 when none (the source is its own parent), or the component
 * label (CC, no parents: {@code parent} is null). An MST row is an edge (u, v, weight). {@link #pathTo} keeps the
 * rows of one path, in order from the source.
 */
final class AnswerRows {
    final QueryResult head;
    final int[] vertex;
    final double[] value;
    final int[] parent;
    final int[] u;
    final int[] v;
    final double[] weight;
    /** True when the vertex rows are one path, source first (from {@link #pathTo}). */
    final boolean path;

    private AnswerRows(QueryResult head, int[] vertex, double[] value, int[] parent, int[] u, int[] v, double[] weight,
                       boolean path) {
        this.head = head;
        this.vertex = vertex;
        this.value = value;
        this.parent = parent;
        this.u = u;
        this.v = v;
        this.weight = weight;
        this.path = path;
    }

    Algorithm algorithm() { return head.getAlgorithm(); }

    boolean isForest() { return head.getAlgorithm() == Algorithm.MST; }

    /** The name of a vertex row's value: {@code hops} (BFS), {@code label} (CC) or {@code distance} (SSSP). */
    String valueName() {
        return head.getAlgorithm() == Algorithm.BFS ? "hops" : head.getAlgorithm() == Algorithm.CC ? "label" : "distance";
    }

    /**
     * The rows of a complete, successful answer's chunks (in chunk order).
     *
     * @throws IllegalArgumentException for an answer without rows: APSP, a SUMMARY, or one that failed
     */
    static AnswerRows of(List<QueryResult> chunks) {
        QueryResult h = chunks.get(0);
        if (h.getAlgorithm() == Algorithm.APSP) throw new IllegalArgumentException("an APSP answer is a matrix, not rows");
        if (h.getAlgorithm() == Algorithm.MST) {
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
            return new AnswerRows(h, null, null, null, u, v, w, false);
        }
        int n = 0;
        for (QueryResult c : chunks) n += length(c);
        if (n == 0 && h.getParents() == null && h.getLabels() == null) {
            throw new IllegalArgumentException("the answer holds no vertices");
        }
        boolean parents = chunks.stream().anyMatch(c -> c.getParents() != null);
        int[] vertex = new int[n], parent = parents ? new int[n] : null;
        double[] value = new double[n];
        int k = 0;
        for (QueryResult c : chunks) {
            int len = length(c);
            IntBuffer listed = c.getVertices() == null ? null : PackedArrays.ints(c.getVertices());
            // whole values: hop counts (BFS, -1 unreachable) or component labels (CC)
            IntBuffer whole = c.getHops() != null ? PackedArrays.ints(c.getHops())
                    : c.getLabels() != null ? PackedArrays.ints(c.getLabels()) : null;
            DoubleBuffer dist = c.getDistances() == null ? null : PackedArrays.doubles(c.getDistances());
            IntBuffer par = c.getParents() == null ? null : PackedArrays.ints(c.getParents());
            for (int i = 0; i < len; i++, k++) {
                vertex[k] = listed != null ? listed.get(i) : c.getFirstVertexId() + c.getOffset() + i;
                value[k] = dist != null ? dist.get(i) : whole.get(i) < 0 ? Double.POSITIVE_INFINITY : whole.get(i);
                if (parent != null) parent[k] = par == null ? -1 : par.get(i);
            }
        }
        return new AnswerRows(h, vertex, value, parent, null, null, null, false);
    }

    private static int length(QueryResult c) {
        if (c.getParents() != null) return PackedArrays.intCount(c.getParents());
        if (c.getHops() != null) return PackedArrays.intCount(c.getHops());
        if (c.getLabels() != null) return PackedArrays.intCount(c.getLabels());
        return c.getDistances() == null ? 0 : PackedArrays.doubleCount(c.getDistances());
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
        if (!isFull()) throw new IllegalStateException("a path needs a FULL BFS or SSSP answer");
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
        return new AnswerRows(head, pv, pd, pp, null, null, null, true);
    }

    /** Whole numbers without a fraction ({@code 803}), others as Java writes doubles; unreachable is empty. */
    static String number(double d) {
        if (Double.isInfinite(d) || Double.isNaN(d)) return "";
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return Double.toString(d);
    }
}
