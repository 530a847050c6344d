package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * CPU engine SSSP: Dijkstra on primitive arrays, sequential (on the road graphs Frontier serves, a tight Dijkstra
 * beats parallel delta-stepping on a few cores). Two priority queues:
 * <ul>
 *   <li>integral weights: a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan, "Faster algorithms for the shortest path
 *       problem", JACM 1990) with lazy deletion. Its keys are the very doubles dist[u] + w, read as longs: with
 *       integral weights every such double is an integer below 2^62, so the conversion is exact and keeps order;</li>
 *   <li>otherwise: an indexed 4-ary heap with decrease-key, keys stored next to vertices.</li>
 * </ul>
 * Either way distances equal {@link DijkstraReference}'s exactly: vertices are settled in distance order and dist[v]
 * is the minimum over settled predecessors u of the same double sum dist[u] + w(u,v).
 */
public final class CpuSssp {
    private static final int ARITY = 4;
    private static final int NOT_QUEUED = -1;
    private static final int SETTLED = -2;

    private CpuSssp() {}

    public static SsspResult run(CsrGraph g, int source) {
        return g.integralWeights() ? radix(g, source) : heap(g, source);
    }

    /** Dijkstra with a radix heap; integral weights only. */
    static SsspResult radix(CsrGraph g, int source) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        double[] dist = new double[n];
        int[] parent = new int[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        Arrays.fill(parent, SsspResult.NO_PARENT);
        dist[source] = 0;
        parent[source] = source;

        RadixHeap heap = new RadixHeap();
        heap.push(source, 0);
        while (heap.size > 0) {
            long key = heap.popMinKey();
            int u = heap.poppedVertex;
            double du = dist[u];
            if ((long) du != key) continue; // stale: u was re-pushed with a smaller key (and settled then)
            for (int e = off[u], end = off[u + 1]; e < end; e++) {
                int v = col[e];
                double nd = du + w[e];
                if (nd < dist[v]) {
                    dist[v] = nd;
                    parent[v] = u;
                    heap.push(v, (long) nd);
                }
            }
        }
        return new SsspResult(source, dist, parent, Timing.since(t0));
    }

    /** Dijkstra with an indexed 4-ary heap; any non-negative weights. */
    static SsspResult heap(CsrGraph g, int source) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        double[] dist = new double[n];
        int[] parent = new int[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        Arrays.fill(parent, SsspResult.NO_PARENT);
        dist[source] = 0;
        parent[source] = source;

        Heap heap = new Heap(n);
        heap.push(source, 0);
        while (heap.size > 0) {
            int u = heap.popMin();
            double du = dist[u];
            for (int e = off[u], end = off[u + 1]; e < end; e++) {
                int v = col[e];
                double nd = du + w[e];
                if (nd < dist[v]) { // never true for a settled v: weights are non-negative
                    dist[v] = nd;
                    parent[v] = u;
                    heap.pushOrDecrease(v, nd);
                }
            }
        }
        return new SsspResult(source, dist, parent, Timing.since(t0));
    }

    /** Indexed d-ary min-heap of vertices by key; {@code pos[v]} is v's slot, {@link #NOT_QUEUED} or {@link #SETTLED}. */
    private static final class Heap {
        final int[] vertex;
        final double[] key;
        final int[] pos;
        int size;

        Heap(int n) {
            vertex = new int[Math.max(1, n)];
            key = new double[Math.max(1, n)];
            pos = new int[n];
            Arrays.fill(pos, NOT_QUEUED);
        }

        void push(int v, double k) {
            siftUp(size++, v, k);
        }

        void pushOrDecrease(int v, double k) {
            int p = pos[v];
            siftUp(p == NOT_QUEUED ? size++ : p, v, k);
        }

        int popMin() {
            int min = vertex[0];
            pos[min] = SETTLED;
            int last = --size;
            if (last > 0) siftDown(0, vertex[last], key[last]);
            return min;
        }

        private void siftUp(int i, int v, double k) {
            while (i > 0) {
                int p = (i - 1) / ARITY;
                double pk = key[p];
                if (pk <= k) break;
                int pv = vertex[p];
                vertex[i] = pv;
                key[i] = pk;
                pos[pv] = i;
                i = p;
            }
            vertex[i] = v;
            key[i] = k;
            pos[v] = i;
        }

        private void siftDown(int i, int v, double k) {
            int n = size;
            while (true) {
                int c = ARITY * i + 1;
                if (c >= n) break;
                int end = Math.min(c + ARITY, n);
                int best = c;
                double bk = key[c];
                for (int j = c + 1; j < end; j++) {
                    double kj = key[j];
                    if (kj < bk) { bk = kj; best = j; }
                }
                if (bk >= k) break;
                int bv = vertex[best];
                vertex[i] = bv;
                key[i] = bk;
                pos[bv] = i;
                i = best;
            }
            vertex[i] = v;
            key[i] = k;
            pos[v] = i;
        }
    }

    /**
     * Monotone radix heap of (vertex, key) entries with lazy deletion. Bucket 0 holds keys equal to the last
     * popped key; bucket b > 0 holds keys whose highest bit differing from it is bit b - 1. A pop refills bucket 0
     * from the first non-empty bucket, moving each entry down at most 64 times over its life.
     */
    private static final class RadixHeap {
        private static final int BUCKETS = 65;
        final int[][] vertices = new int[BUCKETS][];
        final long[][] keys = new long[BUCKETS][];
        final int[] counts = new int[BUCKETS];
        long last;
        int size;
        int poppedVertex;

        RadixHeap() {
            for (int b = 0; b < BUCKETS; b++) {
                vertices[b] = new int[16];
                keys[b] = new long[16];
            }
        }

        private int bucket(long key) {
            return key == last ? 0 : 64 - Long.numberOfLeadingZeros(key ^ last);
        }

        void push(int v, long key) {
            append(bucket(key), v, key);
            size++;
        }

        private void append(int b, int v, long key) {
            int c = counts[b];
            if (c == vertices[b].length) {
                vertices[b] = Arrays.copyOf(vertices[b], c * 2);
                keys[b] = Arrays.copyOf(keys[b], c * 2);
            }
            vertices[b][c] = v;
            keys[b][c] = key;
            counts[b] = c + 1;
        }

        /** Removes an entry with the smallest key; returns the key and leaves the vertex in {@link #poppedVertex}. */
        long popMinKey() {
            if (counts[0] == 0) {
                int b = 1;
                while (counts[b] == 0) b++;
                int[] vs = vertices[b];
                long[] ks = keys[b];
                int c = counts[b];
                long min = ks[0];
                for (int i = 1; i < c; i++) if (ks[i] < min) min = ks[i];
                last = min;
                counts[b] = 0;
                for (int i = 0; i < c; i++) append(bucket(ks[i]), vs[i], ks[i]);
            }
            int c = --counts[0];
            size--;
            poppedVertex = vertices[0][c];
            return keys[0][c];
        }
    }
}
