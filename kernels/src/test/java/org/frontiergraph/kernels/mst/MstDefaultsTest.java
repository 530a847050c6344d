package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.junit.jupiter.api.Test;

/**
 * The GPU MST default by the graph's shape ({@link Mst#eclByDefault}; docs/benchmarks.md, "The MST default by the
 * graph's shape"): {@code ecl} where its light filter splits the edges, {@code boruvka} on sparse graphs and on dense
 * graphs whose weights are all equal (SNAP web and social graphs read without weights), where ecl lost 1.4-2x.
 */
class MstDefaultsTest {
    /** n vertices, m random edges, weights drawn from 1..maxWeight (1: every weight 1). */
    private static CsrGraph random(int n, int m, int maxWeight, boolean directed) {
        SplittableRandom r = new SplittableRandom(7);
        EdgeList e = new EdgeList(n, directed, m);
        for (int i = 0; i < m; i++) e.add(r.nextInt(n), r.nextInt(n), 1 + r.nextInt(maxWeight));
        return GraphBuilder.build(e);
    }

    private static String gpuDefault(CsrGraph g) {
        AlgorithmSpec.Choice<?, ?> c = Mst.SPEC.choose(GpuBackend.NAME, null, g);
        return c.variant().name();
    }

    @Test
    void denseGraphsWithSpreadWeightsGetEcl() {
        CsrGraph g = random(4_000, 40_000, 255, false);
        assertTrue(Mst.dense(g));
        assertTrue(Mst.lightFilterSplits(g));
        assertEquals("ecl", gpuDefault(g));
        assertEquals("ecl", gpuDefault(TestGraphs.kronecker().graph()));
    }

    @Test
    void denseGraphsWithEqualWeightsGetBoruvka() {
        for (boolean directed : new boolean[] {false, true}) {
            CsrGraph g = random(4_000, 40_000, 1, directed);
            assertTrue(Mst.dense(g), "dense");
            assertFalse(Mst.lightFilterSplits(g), "every edge is light when every weight is 1");
            assertEquals("boruvka", gpuDefault(g));
        }
    }

    @Test
    void denseGraphsWithTwoWeightsMostlyOneGetBoruvka() {
        SplittableRandom r = new SplittableRandom(3);
        EdgeList e = new EdgeList(4_000, false, 40_000);
        for (int i = 0; i < 40_000; i++) e.add(r.nextInt(4_000), r.nextInt(4_000), r.nextInt(10) == 0 ? 2 : 1);
        CsrGraph g = GraphBuilder.build(e);
        assertFalse(Mst.lightFilterSplits(g), "nine edges in ten are light at weight 1");
        assertEquals("boruvka", gpuDefault(g));
    }

    @Test
    void sparseGraphsGetBoruvka() {
        CsrGraph g = random(10_000, 12_000, 255, false);
        assertFalse(Mst.dense(g));
        assertEquals("boruvka", gpuDefault(g));
        assertEquals("boruvka", gpuDefault(TestGraphs.path(1000)));
    }

    @Test
    void edgelessGraphsGetBoruvka() {
        assertFalse(Mst.lightFilterSplits(TestGraphs.build(5, false)));
        assertEquals("boruvka", gpuDefault(TestGraphs.build(5, false)));
    }
}
