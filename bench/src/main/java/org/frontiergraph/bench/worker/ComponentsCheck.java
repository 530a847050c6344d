package org.frontiergraph.bench.worker;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * A reference for SUMMARY answers that stays affordable on a billion edges: Kruskal over the weight classes of an
 * undirected graph with integral weights, each class merged by a lock-free union-find in parallel. Within one weight
 * class the number of successful unions does not depend on their order (it is the drop in the component count), so
 * the minimum spanning forest's total weight is the sum over classes of weight times unions: exact, as is the number
 * of trees (isolated vertices included) and every vertex's component size, which is what BFS and SSSP reach from it.
 * Self-loops never merge; of parallel edges the lightest merges first, as the graph builder keeps the lightest.
 */
final class ComponentsCheck {
    /** Edges a parallel task merges at once. */
    private static final int SLICE = 1 << 16;

    private final AtomicIntegerArray parent;
    private final int[] componentSize;
    private final double totalWeight;
    private final int components;

    private ComponentsCheck(AtomicIntegerArray parent, int[] componentSize, double totalWeight, int components) {
        this.parent = parent;
        this.componentSize = componentSize;
        this.totalWeight = totalWeight;
        this.components = components;
    }

    /** The check of {@code edges} (undirected, weights integral in 0..65535); throws when they are not. */
    static ComponentsCheck of(EdgeList edges) {
        if (edges.directed()) throw new IllegalArgumentException("the components check is for undirected graphs");
        int n = edges.vertexCount(), m = edges.size();
        // counting sort of the edge indices by weight
        int maxWeight = 0;
        for (int i = 0; i < m; i++) {
            double w = edges.weight(i);
            if (w != Math.rint(w) || w < 0 || w > 65_535) {
                throw new IllegalArgumentException("the components check needs integral weights in 0..65535, edge " + i + " has " + w);
            }
            maxWeight = Math.max(maxWeight, (int) w);
        }
        int[] start = new int[maxWeight + 2];
        for (int i = 0; i < m; i++) start[(int) edges.weight(i) + 1]++;
        for (int w = 0; w <= maxWeight; w++) start[w + 1] += start[w];
        int[] order = new int[m], fill = start.clone();
        for (int i = 0; i < m; i++) order[fill[(int) edges.weight(i)]++] = i;
        fill = null;

        AtomicIntegerArray parent = new AtomicIntegerArray(n);
        for (int v = 0; v < n; v++) parent.set(v, v);
        int[] src = edges.sourcesArray(), dst = edges.targetsArray();
        double total = 0;
        long unions = 0;
        for (int w = 0; w <= maxWeight; w++) {
            int from = start[w], to = start[w + 1];
            if (from == to) continue;
            long merged = IntStream.range(0, (to - from + SLICE - 1) / SLICE).parallel().mapToLong(s -> {
                long k = 0;
                for (int j = from + s * SLICE, end = Math.min(to, j + SLICE); j < end; j++) {
                    if (union(parent, src[order[j]], dst[order[j]])) k++;
                }
                return k;
            }).sum();
            total += (double) w * merged;
            unions += merged;
        }
        int[] size = new int[n];
        for (int v = 0; v < n; v++) size[find(parent, v)]++;
        return new ComponentsCheck(parent, size, total, (int) (n - unions));
    }

    /** The vertices BFS and SSSP reach from {@code v}, itself included. */
    long reached(int v) {
        return componentSize[find(parent, v)];
    }

    /** The minimum spanning forest's total weight. */
    double totalWeight() { return totalWeight; }

    /** Its trees, isolated vertices included. */
    int components() { return components; }

    private static int find(AtomicIntegerArray parent, int v) {
        while (true) {
            int p = parent.get(v);
            if (p == v) return v;
            int gp = parent.get(p);
            if (gp != p) parent.compareAndSet(v, p, gp);   // path halving; a lost race only skips a shortcut
            v = gp;
        }
    }

    /** Links the larger root under the smaller; true when this call merged two components. */
    private static boolean union(AtomicIntegerArray parent, int a, int b) {
        while (true) {
            int ra = find(parent, a), rb = find(parent, b);
            if (ra == rb) return false;
            if (ra < rb) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            if (parent.compareAndSet(ra, ra, rb)) return true;
        }
    }
}
