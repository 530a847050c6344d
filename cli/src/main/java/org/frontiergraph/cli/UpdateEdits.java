package org.frontiergraph.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * The edits of {@code ./frontier update}, in the order given, and the GraphUpdate records that apply them in that
 * order. A GraphUpdate applies its new vertices, then its removals, re-weights and additions (docs/contract.md,
 * "GraphUpdate"), so consecutive edits share one record while they come in that order and name an edge once; an
 * edit that would apply out of order in the record starts the next one. Each record makes one version.
 *
 * <p>The line format of {@code update --file} (CSV or JSON lines, one edit a line; blank lines and lines starting
 * with {@code #} are skipped):
 * <pre>
 *   add,U,V[,W]          {"op":"add","u":U,"v":V,"w":W}        (W: default 1)
 *   remove,U,V           {"op":"remove","u":U,"v":V}
 *   reweight,U,V,W       {"op":"reweight","u":U,"v":V,"w":W}
 *   add-vertices,N       {"op":"add-vertices","n":N}
 * </pre>
 * Fields of a CSV line may be separated by commas, spaces or tabs.
 */
final class UpdateEdits {
    /** The order in which a GraphUpdate applies its parts. */
    enum Op {
        ADD_VERTICES("add-vertices"), REMOVE("remove"), REWEIGHT("reweight"), ADD("add");

        final String word;

        Op(String word) {
            this.word = word;
        }

        static Op of(String word, String where) {
            for (Op o : values()) if (o.word.equals(word.toLowerCase(Locale.ROOT))) return o;
            throw new CliFailure(where + ": unknown edit '" + word + "' (add, remove, reweight or add-vertices)");
        }
    }

    /** One edit: {@code n} new vertices, or an edge (u, v) with weight w (NaN where none was given). */
    record Edit(Op op, int u, int v, double w, int n) {
        static Edit vertices(int n) {
            return new Edit(Op.ADD_VERTICES, 0, 0, Double.NaN, n);
        }

        static Edit edge(Op op, int u, int v, double w) {
            return new Edit(op, u, v, w, 0);
        }
    }

    private final List<Edit> edits = new ArrayList<>();

    void add(Edit e) {
        edits.add(e);
    }

    void forEach(java.util.function.Consumer<Edit> action) {
        edits.forEach(action);
    }

    boolean isEmpty() {
        return edits.isEmpty();
    }

    int size() {
        return edits.size();
    }

    /** Reads edits from {@code in}, one a line; {@code name} names the input in errors. */
    static UpdateEdits read(BufferedReader in, String name) throws IOException {
        UpdateEdits out = new UpdateEdits();
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) continue;
            String where = name + " line " + number;
            out.add(t.startsWith("{") ? UpdateLine.json(t, where) : UpdateLine.csv(t, where));
        }
        return out;
    }

    /**
     * The GraphUpdates that apply the edits in order: a new record where an edit's part comes before the last one's
     * in a record's apply order, where an edge is named twice in one part (both ways: an undirected graph's edge), or
     * where a record holds {@code maxEdges} edges already.
     */
    List<GraphUpdate> updates(String graphId, int maxEdges) {
        List<GraphUpdate> out = new ArrayList<>();
        Batch b = new Batch();
        for (Edit e : edits) {
            if (!b.takes(e, maxEdges)) {
                out.add(b.build(graphId));
                b = new Batch();
            }
            b.add(e);
        }
        if (!b.isEmpty()) out.add(b.build(graphId));
        return out;
    }

    /** The updates of at most one record's worth of edges each ({@link FrontierClient#CHUNK_EDGES}). */
    List<GraphUpdate> updates(String graphId) {
        return updates(graphId, FrontierClient.CHUNK_EDGES);
    }

    /** The edits of one GraphUpdate. */
    private static final class Batch {
        final List<List<Edit>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        final List<Set<Long>> named = List.of(new HashSet<>(), new HashSet<>(), new HashSet<>(), new HashSet<>());
        Op last;
        int edges;

        boolean isEmpty() {
            return last == null;
        }

        boolean takes(Edit e, int maxEdges) {
            if (last == null) return true;
            if (e.op().ordinal() < last.ordinal()) return false;
            if (e.op() == Op.ADD_VERTICES) return true;
            return edges < maxEdges && !named.get(e.op().ordinal()).contains(pair(e.u(), e.v()));
        }

        void add(Edit e) {
            parts.get(e.op().ordinal()).add(e);
            if (e.op() != Op.ADD_VERTICES) {
                named.get(e.op().ordinal()).add(pair(e.u(), e.v()));
                edges++;
            }
            last = e.op();
        }

        GraphUpdate build(String graphId) {
            int vertices = 0;
            for (Edit e : parts.get(Op.ADD_VERTICES.ordinal())) vertices += e.n();
            GraphUpdate.Builder u = GraphUpdate.newBuilder().setGraphId(graphId).setAddedVertexCount(vertices);
            List<Edit> removed = parts.get(Op.REMOVE.ordinal()), reweighted = parts.get(Op.REWEIGHT.ordinal()),
                    added = parts.get(Op.ADD.ordinal());
            if (!removed.isEmpty()) u.setRemoved(batch(removed, false));
            if (!reweighted.isEmpty()) u.setReweighted(batch(reweighted, true));
            if (!added.isEmpty()) u.setAdded(batch(added, true));
            return u.build();
        }

        private static org.frontiergraph.schema.EdgeBatch batch(List<Edit> edits, boolean weighted) {
            int m = edits.size();
            int[] s = new int[m], t = new int[m];
            double[] w = new double[weighted ? m : 0];
            for (int i = 0; i < m; i++) {
                Edit e = edits.get(i);
                s[i] = e.u();
                t[i] = e.v();
                if (weighted) w[i] = Double.isNaN(e.w()) ? 1.0 : e.w();
            }
            return PackedArrays.edgeBatch(s, t, w);
        }

        /** An edge named either way round. */
        private static long pair(int u, int v) {
            return ((long) Math.min(u, v) << 32) | (Math.max(u, v) & 0xffffffffL);
        }
    }
}
