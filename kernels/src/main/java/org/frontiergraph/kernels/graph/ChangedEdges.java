package org.frontiergraph.kernels.graph;

import java.util.Arrays;

/**
 * What a run of updates changed, for an incremental algorithm to repair its previous answer from: the vertex count
 * before the run (vertices from there on are new) and the edges any update of the run removed, re-weighted or added,
 * as endpoint pairs in 0-based ids. A pair may repeat; on an undirected graph a pair stands for both arcs, and on a
 * directed one for the arc {@code u -> v}. Weights are not carried: the graph after the run has them (an absent arc
 * was removed), and the previous answer tells what held before.
 */
public record ChangedEdges(int vertexCountBefore, int[] u, int[] v) {
    public ChangedEdges {
        if (u.length != v.length) throw new IllegalArgumentException("endpoint arrays differ in length");
    }

    public int size() { return u.length; }

    /** Nothing changed: no edge, no new vertex, on a graph of {@code vertexCount} vertices. */
    public boolean isEmpty(int vertexCount) { return u.length == 0 && vertexCount == vertexCountBefore; }

    /** Accumulates the changes of successive updates. Not thread-safe. */
    public static final class Recorder {
        private int vertexCountBefore;
        private int[] u = new int[16], v = new int[16];
        private int count;

        public Recorder(int vertexCount) {
            this.vertexCountBefore = vertexCount;
        }

        void add(int a, int b) {
            if (count == u.length) {
                u = Arrays.copyOf(u, count * 2);
                v = Arrays.copyOf(v, count * 2);
            }
            u[count] = a;
            v[count++] = b;
        }

        /** The pairs of an applied update; self-loops are not stored, so none is recorded. */
        void add(int[] as, int[] bs) {
            for (int i = 0; i < as.length; i++) if (as[i] != bs[i]) add(as[i], bs[i]);
        }

        /** The changes since the recorder was made or last drained; the next run starts at {@code vertexCount}. */
        public ChangedEdges drain(int vertexCount) {
            ChangedEdges c = new ChangedEdges(vertexCountBefore, Arrays.copyOf(u, count), Arrays.copyOf(v, count));
            count = 0;
            vertexCountBefore = vertexCount;
            if (u.length > 4096) {
                u = new int[16];
                v = new int[16];
            }
            return c;
        }
    }
}
