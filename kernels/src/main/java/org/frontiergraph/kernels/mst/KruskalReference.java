package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/** Kruskal with (weight, edge id) order and union-find, written to be obviously right. The MST verifier's reference. */
public final class KruskalReference {
    private KruskalReference() {}

    public static MstResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        UndirectedEdges edges = g.undirectedEdges();
        Integer[] order = IntStream.range(0, edges.size()).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> edges.w[i]).thenComparingInt(i -> i));
        int[] parent = IntStream.range(0, g.vertexCount()).toArray();
        int[] chosen = new int[Math.max(0, g.vertexCount() - 1)];
        int count = 0;
        for (int id : order) {
            int a = find(parent, edges.u[id]), b = find(parent, edges.v[id]);
            if (a != b) {
                parent[a] = b;
                chosen[count++] = id;
            }
        }
        int[] ids = Arrays.copyOf(chosen, count);
        Arrays.sort(ids);
        return new MstResult(ids, ExactSum.of(edges.w, ids), g.vertexCount() - count, Timing.since(t0));
    }

    static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
