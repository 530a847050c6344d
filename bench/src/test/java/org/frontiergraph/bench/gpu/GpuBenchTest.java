package org.frontiergraph.bench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.junit.jupiter.api.Test;

/** GpuBench's BFS-order relabelling is a renumbering: the same graph up to vertex ids. */
class GpuBenchTest {
    @Test
    void bfsOrderRenumbersWithoutChangingTheGraph() {
        EdgeList grid = GridRoadGraph.generate(40, 30, 5, 100);
        // the grid's ids shuffled (a layout without locality), so that the renumbering has something to recover
        int n = grid.vertexCount();
        int[] perm = new int[n];
        for (int v = 0; v < n; v++) perm[v] = v;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(9);
        for (int v = n - 1; v > 1; v--) {
            int j = 1 + rnd.nextInt(v), t = perm[v];   // vertex 0 stays 0
            perm[v] = perm[j];
            perm[j] = t;
        }
        EdgeList e = new EdgeList(n, grid.directed(), grid.size());
        for (int i = 0; i < grid.size(); i++) e.add(perm[grid.source(i)], perm[grid.target(i)], grid.weight(i));
        EdgeList r = GpuBench.bfsOrder(e);
        assertEquals(e.size(), r.size());
        assertEquals(e.vertexCount(), r.vertexCount());
        CsrGraph a = GraphBuilder.build(e), b = GraphBuilder.build(r);
        assertEquals(a.arcCount(), b.arcCount());
        assertEquals(KruskalReference.run(a).totalWeight(), KruskalReference.run(b).totalWeight());
        // vertex 0 keeps id 0 (the BFS root): its hop counts are the same multiset
        int[] ha = BfsReference.run(a, 0).hops().clone(), hb = BfsReference.run(b, 0).hops().clone();
        Arrays.sort(ha);
        Arrays.sort(hb);
        assertEquals(Arrays.toString(ha), Arrays.toString(hb));
        // and neighbours get near ids again: the mean id gap along arcs is a fraction of the shuffled layout's
        assertEquals(true, meanGap(b) * 5 < meanGap(a), "mean gap " + meanGap(b) + " vs " + meanGap(a));
    }

    private static double meanGap(CsrGraph g) {
        long sum = 0;
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int k = g.rowStart(u); k < g.rowEnd(u); k++) sum += Math.abs(g.columns()[k] - u);
        }
        return (double) sum / g.arcCount();
    }
}
