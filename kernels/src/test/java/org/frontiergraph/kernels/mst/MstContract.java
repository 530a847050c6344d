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
        MstResult r = withResident(g, resident -> Mst.run(resident, null));
        Verification v = MstVerifier.verify(g, r, TestGraphs.mstReference(g));
        assertTrue(v.ok(), () -> name + ": " + v.message());
        return r;
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
