package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * Prim's algorithm with a binary heap: the CPU baseline of paper 000 (it compares with Boost's Prim), selectable
 * as MST variant {@code prim} on the CPU engine. Minimum spanning forest (restarts in every component, in vertex
 * order), same (weight, edge id) tie-break as every other MST here, so the edge set is the unique one.
 * <p>
 * An indexed binary min-heap of vertices keyed by (weight of the best edge to the tree, its edge id) with
 * decrease-key, as Boost's {@code prim_minimum_spanning_tree} (a d-ary heap there). The adjacency is built once from
 * {@link CsrGraph#undirectedEdges()}; O((n + m) log n).
 */
public final class CpuPrim {
    public static final String VARIANT = "prim";

    private CpuPrim() {}

    public static MstResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        UndirectedEdges edges = g.undirectedEdges();
        int n = g.vertexCount(), m = edges.size();
        int[] off = new int[n + 1];
        for (int i = 0; i < m; i++) {
            off[edges.u[i] + 1]++;
            off[edges.v[i] + 1]++;
        }
        for (int v = 0; v < n; v++) off[v + 1] += off[v];
        int[] fill = Arrays.copyOf(off, n);
        int[] to = new int[2 * m], eid = new int[2 * m];
        for (int i = 0; i < m; i++) {
            int p = fill[edges.u[i]]++;
            to[p] = edges.v[i];
            eid[p] = i;
            p = fill[edges.v[i]]++;
            to[p] = edges.u[i];
            eid[p] = i;
        }
        double[] w = edges.w;
        double[] keyW = new double[n];
        int[] keyId = new int[n];          // best edge id to the tree, -1 none
        boolean[] done = new boolean[n];
        Heap heap = new Heap(n, keyW, keyId);
        int[] chosen = new int[Math.max(0, n - 1)];
        int count = 0;
        Arrays.fill(keyId, -1);
        for (int root = 0; root < n; root++) {
            if (done[root]) continue;
            heap.push(root);
            while (!heap.isEmpty()) {
                int x = heap.pop();
                done[x] = true;
                if (keyId[x] >= 0) chosen[count++] = keyId[x];
                for (int p = off[x]; p < off[x + 1]; p++) {
                    int y = to[p];
                    if (done[y]) continue;
                    int id = eid[p];
                    if (keyId[y] < 0 || less(w[id], id, keyW[y], keyId[y])) {
                        boolean fresh = keyId[y] < 0;
                        keyW[y] = w[id];
                        keyId[y] = id;
                        if (fresh) heap.push(y);
                        else heap.decrease(y);
                    }
                }
            }
        }
        int[] ids = Arrays.copyOf(chosen, count);
        Arrays.sort(ids);
        return new MstResult(ids, ExactSum.of(w, ids), n - count, Timing.since(t0));
    }

    static boolean less(double w1, int id1, double w2, int id2) {
        int c = Double.compare(w1, w2);
        return c < 0 || (c == 0 && id1 < id2);
    }

    /** Indexed binary min-heap of vertices; a vertex without an edge (keyId -1, a root) sorts first. */
    private static final class Heap {
        private final int[] heap;
        private final int[] where;
        private final double[] keyW;
        private final int[] keyId;
        private int size;

        Heap(int n, double[] keyW, int[] keyId) {
            heap = new int[n];
            where = new int[n];
            Arrays.fill(where, -1);
            this.keyW = keyW;
            this.keyId = keyId;
        }

        boolean isEmpty() { return size == 0; }

        private boolean before(int a, int b) {
            if (keyId[a] < 0) return keyId[b] >= 0;
            if (keyId[b] < 0) return false;
            return less(keyW[a], keyId[a], keyW[b], keyId[b]);
        }

        void push(int v) {
            heap[size] = v;
            where[v] = size;
            up(size++);
        }

        void decrease(int v) { up(where[v]); }

        int pop() {
            int top = heap[0];
            where[top] = -1;
            int last = heap[--size];
            if (size > 0) {
                heap[0] = last;
                where[last] = 0;
                down(0);
            }
            return top;
        }

        private void up(int i) {
            int v = heap[i];
            while (i > 0) {
                int p = (i - 1) >>> 1;
                if (!before(v, heap[p])) break;
                heap[i] = heap[p];
                where[heap[i]] = i;
                i = p;
            }
            heap[i] = v;
            where[v] = i;
        }

        private void down(int i) {
            int v = heap[i];
            while (true) {
                int c = 2 * i + 1;
                if (c >= size) break;
                if (c + 1 < size && before(heap[c + 1], heap[c])) c++;
                if (!before(heap[c], v)) break;
                heap[i] = heap[c];
                where[heap[i]] = i;
                i = c;
            }
            heap[i] = v;
            where[v] = i;
        }
    }
}
