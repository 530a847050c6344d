package org.frontiergraph.worker.registry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.NamedEdgeBatch;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * An update of a named graph in ids: its new vertices' names ({@code addedVertexNames}) are checked and numbered
 * after the current vertices, its edges by name ({@code *ByName}) are turned into ids and joined to its edges by id,
 * so the registry applies it as any update. Nothing changes until {@link Resolved#applied}, after the edits applied.
 */
final class NamedUpdates {
    private NamedUpdates() {}

    /** The update in ids, and the names it appends once applied. */
    record Resolved(GraphUpdate update, List<String> newNames) {
        /** The update applied to {@code current}: its new names join the graph's table. */
        void applied(GraphEntry current) {
            if (!newNames.isEmpty()) current.names().append(newNames);
        }
    }

    /**
     * {@code u} in ids against {@code current}. @throws RejectedException UNKNOWN_NAME for a name no vertex has (or
     * names on a graph loaded without them), INVALID_UPDATE for new names that are empty, taken or repeated, for a
     * named graph's new vertices without names, or for edge lists of different lengths
     */
    static Resolved resolve(GraphUpdate u, GraphEntry current) {
        List<String> newNames = u.getAddedVertexNames();
        boolean byName = !newNames.isEmpty() || u.getAddedByName() != null || u.getRemovedByName() != null
                || u.getReweightedByName() != null;
        VertexNameTable names = current.names();
        String what = "update of graph '" + u.getGraphId() + "'";
        if (names == null) {
            if (byName) {
                throw new RejectedException(ErrorCode.UNKNOWN_NAME, what + " names vertices, but the graph was loaded without "
                        + "names (its snapshot is not named); version " + current.version() + " kept");
            }
            return new Resolved(u, List.of());
        }
        int count = u.getAddedVertexCount();
        if (!newNames.isEmpty() && count != 0 && count != newNames.size()) {
            throw new RejectedException(ErrorCode.INVALID_UPDATE, what + " appends " + count + " vertices but names "
                    + newNames.size() + " (addedVertexCount must be 0 or the number of addedVertexNames)");
        }
        if (count > 0 && newNames.isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_UPDATE, what + " appends " + count + " vertices without names; the "
                    + "graph is named, so new vertices need addedVertexNames");
        }
        String bad = names.check(newNames);
        if (bad != null) throw new RejectedException(ErrorCode.INVALID_UPDATE, what + ": new vertex names: " + bad);
        if (!byName) return new Resolved(u, List.of());
        Lookup ids = new Lookup(names, newNames, current.firstVertexId());
        GraphUpdate resolved = GraphUpdate.newBuilder(u).setAddedVertexCount(newNames.size()).setAddedVertexNames(List.of())
                .setAdded(join(what, "added", u.getAdded(), u.getAddedByName(), ids))
                .setRemoved(join(what, "removed", u.getRemoved(), u.getRemovedByName(), ids))
                .setReweighted(join(what, "reweighted", u.getReweighted(), u.getReweightedByName(), ids))
                .setAddedByName(null).setRemovedByName(null).setReweightedByName(null).build();
        if (!ids.unknown.isEmpty()) {
            throw new RejectedException(ErrorCode.UNKNOWN_NAME, what + " names " + ids.unknown.size() + " vertices the graph "
                    + "does not have: " + describe(ids.unknown) + "; version " + current.version() + " kept");
        }
        return new Resolved(resolved, List.copyOf(newNames));
    }

    /** Ids by name: the graph's, then the update's new vertices'; collects the names no vertex has. */
    private static final class Lookup {
        final VertexNameTable names;
        final int first;
        final java.util.Map<String, Integer> newPositions = new java.util.HashMap<>();
        final Set<String> unknown = new LinkedHashSet<>();

        Lookup(VertexNameTable names, List<String> newNames, int first) {
            this.names = names;
            this.first = first;
            for (int i = 0; i < newNames.size(); i++) newPositions.put(newNames.get(i), names.size() + i);
        }

        int id(String name) {
            int p = names.position(name);
            if (p < 0) {
                Integer q = newPositions.get(name);
                if (q == null) {
                    unknown.add(name);
                    return first;
                }
                p = q;
            }
            return first + p;
        }
    }

    /** The edges of {@code byId} followed by those of {@code byName} in ids; null when both are null. */
    private static EdgeBatch join(String what, String field, EdgeBatch byId, NamedEdgeBatch byName, Lookup ids) {
        if (byName == null) return byId;
        int m = byName.getSources().size();
        if (byName.getTargets().size() != m) {
            throw new RejectedException(ErrorCode.INVALID_UPDATE, what + ": " + field + "ByName has " + m + " sources and "
                    + byName.getTargets().size() + " targets");
        }
        double[] named = weights(what, field + "ByName", byName.getWeights(), m);
        int[] s = new int[0], t = new int[0];
        double[] w = new double[0];
        if (byId != null) {
            try {
                s = PackedArrays.toIntArray(byId.getSources());
                t = PackedArrays.toIntArray(byId.getTargets());
                w = weights(what, field, byId.getWeights(), s.length);
            } catch (PackedArrays.MalformedArrayException e) {
                throw new RejectedException(ErrorCode.INVALID_UPDATE, what + ": edge batch '" + field + "' is malformed: " + e.getMessage());
            }
        }
        int k = s.length;
        s = Arrays.copyOf(s, k + m);
        t = Arrays.copyOf(t, k + m);
        w = Arrays.copyOf(w, k + m);
        for (int i = 0; i < m; i++) {
            s[k + i] = ids.id(byName.getSources().get(i));
            t[k + i] = ids.id(byName.getTargets().get(i));
            w[k + i] = named[i];
        }
        return PackedArrays.edgeBatch(s, t, w);
    }

    /** Packed weights of {@code m} edges, every one 1 when empty. */
    private static double[] weights(String what, String field, java.nio.ByteBuffer packed, int m) {
        double[] w;
        try {
            w = PackedArrays.toDoubleArray(packed);
        } catch (PackedArrays.MalformedArrayException e) {
            throw new RejectedException(ErrorCode.INVALID_UPDATE, what + ": " + field + ".weights is malformed: " + e.getMessage());
        }
        if (w.length == 0) {
            w = new double[m];
            Arrays.fill(w, 1.0);
        } else if (w.length != m) {
            throw new RejectedException(ErrorCode.INVALID_UPDATE, what + ": " + field + " has " + m + " edges and " + w.length + " weights");
        }
        return w;
    }

    /** At most five names, quoted. */
    static String describe(Set<String> names) {
        List<String> shown = new ArrayList<>();
        for (String n : names) {
            if (shown.size() == 5) {
                shown.add("...");
                break;
            }
            shown.add("'" + n + "'");
        }
        return String.join(", ", shown);
    }
}
