package org.frontiergraph.bench.repro;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * Dijkstra with a Fibonacci heap (Fredman and Tarjan), the CPU baseline of paper 003 ("FH", after SPLIB): sequential,
 * decrease-key with cascading cuts, nodes in parallel primitive arrays indexed by vertex. Only for the reproduction;
 * the CPU engine's own SSSP uses a radix heap.
 */
final class FibonacciDijkstra {
    private FibonacciDijkstra() {}

    static SsspResult run(CsrGraph g, int source) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        double[] dist = new double[n];
        int[] parent = new int[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        Arrays.fill(parent, SsspResult.NO_PARENT);
        Heap h = new Heap(n, dist);
        dist[source] = 0;
        parent[source] = source;
        h.insert(source);
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        while (h.min >= 0) {
            int u = h.extractMin();
            double du = dist[u];
            for (int a = off[u]; a < off[u + 1]; a++) {
                int v = col[a];
                double nd = du + w[a];
                if (nd < dist[v]) {
                    boolean queued = h.state[v] == Heap.QUEUED;
                    if (!queued && h.state[v] == Heap.DONE) continue;
                    dist[v] = nd;
                    parent[v] = u;
                    if (queued) h.decreaseKey(v);
                    else h.insert(v);
                }
            }
        }
        return new SsspResult(source, dist, parent, Timing.since(t0));
    }

    /** Fibonacci heap over vertices 0..n-1 keyed by {@code key[v]}. */
    static final class Heap {
        static final byte NEW = 0, QUEUED = 1, DONE = 2;
        final double[] key;
        final int[] parent, child, left, right, degree;
        final boolean[] mark;
        final byte[] state;
        int min = -1;
        int size;
        int[] buckets = new int[64];

        Heap(int n, double[] key) {
            this.key = key;
            parent = new int[n];
            child = new int[n];
            left = new int[n];
            right = new int[n];
            degree = new int[n];
            mark = new boolean[n];
            state = new byte[n];
        }

        void insert(int v) {
            parent[v] = -1;
            child[v] = -1;
            degree[v] = 0;
            mark[v] = false;
            state[v] = QUEUED;
            addRoot(v);
            size++;
        }

        private void addRoot(int v) {
            parent[v] = -1;
            if (min < 0) {
                left[v] = right[v] = v;
                min = v;
            } else {
                left[v] = min;
                right[v] = right[min];
                left[right[min]] = v;
                right[min] = v;
                if (key[v] < key[min]) min = v;
            }
        }

        private void unlink(int v) {
            left[right[v]] = left[v];
            right[left[v]] = right[v];
        }

        int extractMin() {
            int z = min;
            // children of z become roots
            int c = child[z];
            if (c >= 0) {
                int x = c;
                do {
                    int next = right[x];
                    parent[x] = -1;
                    x = next;
                } while (x != c);
                // splice child list into root list
                int zr = right[z], cl = left[c];
                right[z] = c;
                left[c] = z;
                right[cl] = zr;
                left[zr] = cl;
            }
            int after = right[z];
            unlink(z);
            state[z] = DONE;
            size--;
            if (after == z) {
                min = -1;
            } else {
                min = after;
                consolidate();
            }
            return z;
        }

        private void consolidate() {
            Arrays.fill(buckets, -1);
            // collect roots first (the list changes while linking)
            int count = 0;
            int x = min;
            do {
                count++;
                x = right[x];
            } while (x != min);
            int[] roots = new int[count];
            for (int i = 0; i < count; i++) {
                roots[i] = x;
                x = right[x];
            }
            for (int w : roots) {
                int a = w;
                int d = degree[a];
                while (buckets[d] >= 0) {
                    int b = buckets[d];
                    if (key[b] < key[a] || key[b] == key[a] && b < a) {
                        int t = a;
                        a = b;
                        b = t;
                    }
                    link(b, a);
                    buckets[d] = -1;
                    d++;
                }
                buckets[d] = a;
            }
            min = -1;
            for (int d = 0; d < buckets.length; d++) {
                int a = buckets[d];
                if (a < 0) continue;
                if (min < 0) {
                    left[a] = right[a] = a;
                    min = a;
                } else {
                    addRoot(a);
                }
            }
        }

        /** Makes root b a child of root a. */
        private void link(int b, int a) {
            unlink(b);
            parent[b] = a;
            mark[b] = false;
            int c = child[a];
            if (c < 0) {
                child[a] = b;
                left[b] = right[b] = b;
            } else {
                left[b] = c;
                right[b] = right[c];
                left[right[c]] = b;
                right[c] = b;
            }
            degree[a]++;
        }

        void decreaseKey(int v) {
            int p = parent[v];
            if (p >= 0 && key[v] < key[p]) {
                cut(v, p);
                cascadingCut(p);
            }
            if (key[v] < key[min]) min = v;
        }

        private void cut(int v, int p) {
            if (right[v] == v) child[p] = -1;
            else {
                if (child[p] == v) child[p] = right[v];
                unlink(v);
            }
            degree[p]--;
            mark[v] = false;
            addRoot(v);
        }

        private void cascadingCut(int y) {
            int z = parent[y];
            while (z >= 0) {
                if (!mark[y]) {
                    mark[y] = true;
                    return;
                }
                cut(y, z);
                y = z;
                z = parent[y];
            }
        }
    }
}
