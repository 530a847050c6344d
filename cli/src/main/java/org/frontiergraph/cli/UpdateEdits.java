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
import org.frontiergraph.schema.NamedEdgeBatch;
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
 *   add-vertex,NAME      {"op":"add-vertex","name":NAME}        (a named graph's new vertex)
 * </pre>
 * Fields of a CSV line are separated by commas when it has one, else by spaces or tabs. On a named graph U and V may
 * be names (docs/contract.md, "Vertex names"): an edge whose U or V is not an integer is sent by name (both ends), as
 * is every edge with {@code --names}.
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
            if (word.equalsIgnoreCase(NAMED_VERTEX)) return ADD_VERTICES;
            throw new CliFailure(where + ": unknown edit '" + word + "' (add, remove, reweight, add-vertices or add-vertex)");
        }
    }

    /** The edit word of one named new vertex. */
    static final String NAMED_VERTEX = "add-vertex";

    /**
     * One edit: {@code n} new vertices ({@code name}: one named vertex), or an edge (u, v) with weight w (NaN where
     * none was given), by id or, {@code byName}, by the vertices' names.
     */
    record Edit(Op op, String u, String v, double w, int n, String name, boolean byName) {
        static Edit vertices(int n) {
            return new Edit(Op.ADD_VERTICES, null, null, Double.NaN, n, null, false);
        }

        static Edit vertex(String name) {
            return new Edit(Op.ADD_VERTICES, null, null, Double.NaN, 1, name, true);
        }

        /** An edge: by name when U or V is not an integer. */
        static Edit edge(Op op, String u, String v, double w) {
            return new Edit(op, u, v, w, 0, null, !isId(u) || !isId(v));
        }

        Edit byNames() {
            return op == Op.ADD_VERTICES ? this : new Edit(op, u, v, w, n, name, true);
        }

        private static boolean isId(String s) {
            try {
                Integer.parseInt(s);
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
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

    /** Every edge by name ({@code update --names}: names that look like integers). */
    void allByName() {
        edits.replaceAll(Edit::byNames);
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
        final List<Set<String>> named = List.of(new HashSet<>(), new HashSet<>(), new HashSet<>(), new HashSet<>());
        Op last;
        int edges;

        boolean isEmpty() {
            return last == null;
        }

        boolean takes(Edit e, int maxEdges) {
            if (last == null) return true;
            if (e.op().ordinal() < last.ordinal()) return false;
            if (e.op() == Op.ADD_VERTICES) return true;
            return edges < maxEdges && !named.get(e.op().ordinal()).contains(pair(e));
        }

        void add(Edit e) {
            parts.get(e.op().ordinal()).add(e);
            if (e.op() != Op.ADD_VERTICES) {
                named.get(e.op().ordinal()).add(pair(e));
                edges++;
            }
            last = e.op();
        }

        GraphUpdate build(String graphId) {
            int vertices = 0;
            List<String> names = new ArrayList<>();
            for (Edit e : parts.get(Op.ADD_VERTICES.ordinal())) {
                if (e.name() != null) names.add(e.name());
                else vertices += e.n();
            }
            GraphUpdate.Builder u = GraphUpdate.newBuilder().setGraphId(graphId)
                    .setAddedVertexCount(names.isEmpty() ? vertices : vertices + names.size()).setAddedVertexNames(names);
            List<Edit> removed = parts.get(Op.REMOVE.ordinal()), reweighted = parts.get(Op.REWEIGHT.ordinal()),
                    added = parts.get(Op.ADD.ordinal());
            u.setRemoved(batch(removed, false, false)).setRemovedByName(named(removed, false));
            u.setReweighted(batch(reweighted, true, false)).setReweightedByName(named(reweighted, true));
            u.setAdded(batch(added, true, false)).setAddedByName(named(added, true));
            return u.build();
        }

        /** The edits by id, or null when there are none. */
        private static org.frontiergraph.schema.EdgeBatch batch(List<Edit> all, boolean weighted, boolean byName) {
            List<Edit> edits = all.stream().filter(e -> e.byName() == byName).toList();
            if (edits.isEmpty()) return null;
            int m = edits.size();
            int[] s = new int[m], t = new int[m];
            for (int i = 0; i < m; i++) {
                s[i] = UpdateLine.vertex(edits.get(i).u(), "vertex");
                t[i] = UpdateLine.vertex(edits.get(i).v(), "vertex");
            }
            return PackedArrays.edgeBatch(s, t, weights(edits, weighted));
        }

        /** The edits by name, or null when there are none. */
        private static NamedEdgeBatch named(List<Edit> all, boolean weighted) {
            List<Edit> edits = all.stream().filter(Edit::byName).toList();
            if (edits.isEmpty()) return null;
            return new NamedEdgeBatch(edits.stream().map(Edit::u).toList(), edits.stream().map(Edit::v).toList(),
                    PackedArrays.pack(weights(edits, weighted)));
        }

        private static double[] weights(List<Edit> edits, boolean weighted) {
            double[] w = new double[weighted ? edits.size() : 0];
            for (int i = 0; i < w.length; i++) w[i] = Double.isNaN(edits.get(i).w()) ? 1.0 : edits.get(i).w();
            return w;
        }

        /** An edge named either way round. */
        private static String pair(Edit e) {
            String a = (e.byName() ? "n:" : "i:") + e.u(), b = (e.byName() ? "n:" : "i:") + e.v();
            return a.compareTo(b) <= 0 ? a + "\u0000" + b : b + "\u0000" + a;
        }
    }
}
