package org.frontiergraph.worker.subscription;

import java.util.Arrays;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.standing.Delta;

/**
 * What changed in a subscription's answer since its previous push: vertices whose value or parent changed (BFS,
 * SSSP) or whose label changed (CC), with the kind's own content ({@link Delta#content()}: CC's merges and
 * splits), or forest edges by endpoint pair with
 * the last operation on each (MST: a weight when the edge joined the forest or changed weight, NaN when it left).
 * Repairs between two pushes (a throttled subscription) accumulate: the vertices are the union (the push gives their
 * latest entries), the kind's content is listed batch after batch in order, and only the last operation on an
 * edge counts, so a consumer that removes, then adds or overwrites, ends up with the forest.
 *
 * <p>A subscription that pushes after every batch holds one repair's {@link Delta} at a time: those are kept as
 * they are, shared with the other subscriptions of the same answer (nothing copied), and {@link #only()} tells the
 * push builder that their DELTA push can be encoded once for all of them. Only a second repair's changes before a
 * push copy them into the sets.
 */
final class Pending {
    private final BitSet vertices = new BitSet();
    private final Map<Long, Double> edges = new HashMap<>();
    private final List<Object> content = new ArrayList<>();
    /** The changes of one repair when they are all this holds (the sets are then empty); else null. */
    private Delta only;
    /** The answer was recomputed: the next push is complete. */
    private boolean all;

    void add(Delta c) {
        if (c.isEmpty() || all) return;   // all: the next push is complete whatever else changed
        if (only == null && vertices.isEmpty() && edges.isEmpty() && content.isEmpty()) {
            only = c;
            return;
        }
        if (only != null) {
            merge(only);
            only = null;
        }
        merge(c);
    }

    private void merge(Delta c) {
        for (int v : c.vertices()) vertices.set(v);
        for (int i = 0; i < c.edges().length; i++) edges.put(c.edges()[i], c.weights()[i]);
        content.addAll(c.content());
    }

    boolean isEmpty() { return !all && only == null && vertices.isEmpty() && edges.isEmpty() && content.isEmpty(); }

    void markAll() { all = true; }

    /** Whether everything may have changed (the answer was recomputed): the next push is complete. */
    boolean all() { return all; }

    /** The one repair's changes this holds and nothing else, the same instance as given to {@link #add}; else null. */
    Delta only() { return all ? null : only; }

    /** Whether any of {@code targets} (engine ids) changed. */
    boolean anyOf(int[] targets) {
        if (all) return true;
        if (only != null) {
            for (int t : targets) if (Arrays.binarySearch(only.vertices(), t) >= 0) return true;
            return false;
        }
        for (int t : targets) if (vertices.get(t)) return true;
        return false;
    }

    /** The changed vertices, ascending (the shared array of {@link #only()} when that is set: do not modify). */
    int[] vertices() { return only != null ? only.vertices() : vertices.stream().toArray(); }

    /** The forest edges changed, by pair, with the last operation on each. */
    Map<Long, Double> edges() {
        if (only == null) return edges;
        Map<Long, Double> m = new HashMap<>();
        for (int i = 0; i < only.edges().length; i++) m.put(only.edges()[i], only.weights()[i]);
        return m;
    }

    /** The kind's own content (CC: the components that merged or split), repair after repair; do not modify. */
    List<?> content() { return only != null ? only.content() : content; }

    void clear() {
        all = false;
        only = null;
        vertices.clear();
        edges.clear();
        content.clear();
    }
}
