package org.frontiergraph.worker.subscription;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * What changed in a subscription's answer since its previous push: vertices whose value or parent changed (BFS,
 * SSSP), or forest edges by endpoint pair with the last operation on each (MST: a weight when the edge joined the
 * forest or changed weight, NaN when it left). Repairs between two pushes (a throttled subscription) accumulate;
 * only the last operation on an edge counts, so a consumer that removes, then adds or overwrites, ends up with the
 * forest.
 */
final class Pending {
    private final BitSet vertices = new BitSet();
    private final Map<Long, Double> edges = new HashMap<>();
    /** The answer was recomputed: the next push is complete. */
    private boolean all;

    /** One repair's changes: sorted vertex ids, or edge pairs ({@code u << 32 | v}, u < v) with weights (NaN: left). */
    record Changes(int[] vertices, long[] edges, double[] weights) {
        static final Changes NONE = new Changes(new int[0], new long[0], new double[0]);

        boolean isEmpty() { return vertices.length == 0 && edges.length == 0; }

        static Changes ofVertices(int[] vertices) { return new Changes(vertices, NONE.edges, NONE.weights); }

        static Changes ofEdges(long[] edges, double[] weights) { return new Changes(NONE.vertices, edges, weights); }
    }

    void add(Changes c) {
        for (int v : c.vertices()) vertices.set(v);
        for (int i = 0; i < c.edges().length; i++) edges.put(c.edges()[i], c.weights()[i]);
    }

    boolean isEmpty() { return !all && vertices.isEmpty() && edges.isEmpty(); }

    void markAll() { all = true; }

    /** Whether everything may have changed (the answer was recomputed): the next push is complete. */
    boolean all() { return all; }

    /** Whether any of {@code targets} (engine ids) changed. */
    boolean anyOf(int[] targets) {
        if (all) return true;
        for (int t : targets) if (vertices.get(t)) return true;
        return false;
    }

    int[] vertices() { return vertices.stream().toArray(); }

    Map<Long, Double> edges() { return edges; }

    void clear() {
        all = false;
        vertices.clear();
        edges.clear();
    }

    static long pair(int u, int v) {
        return u < v ? ((long) u << 32) | (v & 0xffffffffL) : ((long) v << 32) | (u & 0xffffffffL);
    }

    static int first(long pair) { return (int) (pair >>> 32); }

    static int second(long pair) { return (int) pair; }
}
