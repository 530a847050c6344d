package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.frontiergraph.kernels.contract.BackendContract;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The MST contract every backend meets: the minimum spanning forest of the undirected graph underneath, equal to
 * {@link org.frontiergraph.kernels.mst.KruskalReference}'s edge for edge (unique under the (weight, edge id)
 * tie-break), with its component count and exact total weight. A backend's test extends this class and implements
 * {@link #createBackend()}.
 */
public abstract class MstContract extends BackendContract {

    protected final MstResult assertVerifies(String name, CsrGraph g) {
        MstResult r = withResident(g, resident -> {
            MstResult whole = Mst.run(resident, null);
            assertSummaryOf(name, whole, resident.run(Mst.SUMMARY, WholeGraph.QUERY, null));
            return whole;
        });
        Verification v = MstVerifier.verify(g, r, TestGraphs.mstReference(g));
        assertTrue(v.ok(), () -> name + ": " + v.message());
        return r;
    }

    /** A SUMMARY answer is the whole answer's weight (bit for bit), edge count and components. */
    private static void assertSummaryOf(String name, MstResult whole, MstSummary summary) {
        assertEquals(Double.doubleToLongBits(whole.totalWeight()), Double.doubleToLongBits(summary.totalWeight()),
                name + ": SUMMARY weight " + summary.totalWeight() + " vs " + whole.totalWeight());
        assertEquals(whole.edgeIds().length, summary.edges(), name + ": SUMMARY edges");
        assertEquals(whole.components(), summary.components(), name + ": SUMMARY components");
    }

    /**
     * SUMMARY answers equal the whole answer's: integer weights (on the GPU summed on the device), fractional and
     * huge weights (the host's exact sum), a forest of several trees, an edgeless graph; and again after re-weights
     * of the same resident graph.
     */
    @Test
    void summariesEqualTheWholeAnswers() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(41);
        for (int kind = 0; kind < 3; kind++) {
            int n = 3000, m = 9000;
            org.frontiergraph.kernels.graph.EdgeList list = new org.frontiergraph.kernels.graph.EdgeList(n + 5, false, m);
            for (int i = 0; i < m; i++) {
                double w = switch (kind) {
                    case 0 -> rnd.nextInt(1, 1000);
                    case 1 -> rnd.nextInt(1, 1000) / 8.0 + 0.1;
                    default -> 3e9 + rnd.nextInt(1000);   // above int32: ranks as keys
                };
                list.add(rnd.nextInt(n), rnd.nextInt(n), w);
            }
            CsrGraph g = org.frontiergraph.kernels.graph.GraphBuilder.build(list);
            String name = "summary kind " + kind;
            MstResult whole = assertVerifies(name, g);
            assertTrue(whole.components() >= 5, name + ": five isolated vertices at least");
            if (kind == 0) {   // the same resident graph, re-weighted in place (integer weights stay integers)
                org.frontiergraph.kernels.graph.EdgeList heavier = new org.frontiergraph.kernels.graph.EdgeList(g.vertexCount(), false, m);
                for (int u = 0; u < g.vertexCount(); u++) {
                    for (int e = g.rowStart(u); e < g.rowEnd(u); e++) {
                        int v = g.columns()[e];
                        if (u < v) heavier.add(u, v, (u * 7 + v) % 5 == 0 ? g.weights()[e] * 3 : g.weights()[e] + 1);
                    }
                }
                CsrGraph next = org.frontiergraph.kernels.graph.GraphBuilder.build(heavier);
                ResidentGraph r = backend().load(g);
                try {
                    r.run(Mst.SUMMARY, WholeGraph.QUERY, null);
                    r = r.replace(next, backend());
                    MstResult expected = TestGraphs.mstReference(next);
                    assertSummaryOf(name + " re-weighted", expected, r.run(Mst.SUMMARY, WholeGraph.QUERY, null));
                } finally {
                    r.close();
                }
            }
        }
        withResident(TestGraphs.build(4, false), r -> {
            assertSummaryOf("edgeless", Mst.run(r, null), r.run(Mst.SUMMARY, WholeGraph.QUERY, null));
            return null;
        });
    }

    private MstResult mst(CsrGraph g) {
        return withResident(g, r -> Mst.run(r, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void tinyGraphs(Fixture f) {
        assertVerifies(f.name(), f.graph());
    }

    @Test
    void edgelessGraphIsAForestOfSingletons() {
        MstResult r = mst(TestGraphs.build(5, true));
        assertArrayEquals(new int[0], r.edgeIds());
        assertEquals(0.0, r.totalWeight());
        assertEquals(5, r.components());
        assertEquals(1, mst(TestGraphs.build(1, false)).components());
    }

    @Test
    void tiesAreBrokenByEdgeId() {
        // canonical edges: 0:{0,1} 1:{0,2} 2:{0,3} 3:{1,2} 4:{2,3}, all weight 1
        MstResult r = mst(TestGraphs.build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 0, 1, 0, 2, 1));
        assertArrayEquals(new int[] {0, 1, 2}, r.edgeIds());
        assertEquals(3.0, r.totalWeight());
        assertEquals(1, r.components());
    }

    @Test
    void disconnectedGraphGivesASpanningForest() {
        MstResult r = mst(TestGraphs.build(7, false, 0, 1, 1, 1, 2, 2, 2, 0, 3, 3, 4, 1, 4, 5, 1, 5, 3, 1));
        assertEquals(3, r.components());
        assertEquals(4, r.edgeIds().length);
        assertEquals(5.0, r.totalWeight());
    }

    @Test
    void directedGraphUsesTheUndirectedGraphUnderneath() {
        // arcs 0->1 (4) and 1->0 (2) are one undirected edge of weight 2
        MstResult r = mst(TestGraphs.build(3, true, 0, 1, 4, 1, 0, 2, 1, 2, 3, 2, 0, 9));
        assertEquals(5.0, r.totalWeight());
        assertEquals(1, r.components());
    }

    @Test
    void unknownVariantIsRefused() {
        try (ResidentGraph r = backend().load(TestGraphs.build(2, false, 0, 1, 1))) {
            assertThrows(UnsupportedVariantException.class, () -> Mst.run(r, "no-such-variant"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#random")
    void seededRandomGraphs(Fixture f) {
        assertVerifies(f.name(), f.graph());
    }

    @Test
    void kroneckerGraph() {
        Fixture f = TestGraphs.kronecker();
        assertVerifies(f.name(), f.graph());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void realGraphs(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), file + " not found under ../shared/datasets");
        assertVerifies(file, g.get());
    }

    @Test
    void newYorkRoadNetworkWeight() {
        Optional<CsrGraph> g = TestGraphs.real(Datasets.NY);
        assumeTrue(g.isPresent(), Datasets.NY + " not found under ../shared/datasets");
        MstResult r = mst(g.get());
        // 261159288 needs 28 bits: beyond float32's 24-bit exact integers, so an engine must not sum in float
        assertEquals(TestGraphs.NY_MST_WEIGHT, r.totalWeight(), "NY MST weight");
        assertEquals(1, r.components(), "NY is one connected component");
        assertEquals(g.get().vertexCount() - 1, r.edgeIds().length);
    }
}
