package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * CPU engine SSSP: Dijkstra on primitive arrays with an indexed 4-ary heap and decrease-key. The heap holds each
 * unsettled vertex at most once, with its key next to it (no pointer chasing into {@code dist} while sifting).
 *
 * <p>Distances equal {@link DijkstraReference}'s exactly: both settle vertices in distance order and compute
 * dist[v] as the minimum over settled predecessors u of the same double sum dist[u] + w(u,v). Sequential: on the
 * road graphs Frontier serves, a tight Dijkstra beats parallel delta-stepping on a few cores.
 */
public final class CpuSssp {
    private static final int ARITY = 4;
    private static final int NOT_QUEUED = -1;
    private static final int SETTLED = -2;

    private CpuSssp() {}

    public static SsspResult run(CsrGraph g, int source) {
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
}
