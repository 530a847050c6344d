package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.seeds.GtGraphRandom;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CPU Prim (binary heap, forest, (weight, edge id) tie-break) equals Kruskal's forest edge for edge. */
class CpuPrimTest {
    private static void assertSameAsKruskal(String name, CsrGraph g) {
        MstResult r = CpuPrim.run(g);
        Verification v = MstVerifier.verify(g, r, KruskalReference.run(g));
        assertTrue(v.ok(), () -> name + ": " + v.message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void tinyGraphs(Fixture f) {
        assertSameAsKruskal(f.name(), f.graph());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#random")
    void randomGraphs(Fixture f) {
        assertSameAsKruskal(f.name(), f.graph());
    }

    @ParameterizedTest(name = "GTgraph 2^{0} vertices")
    @ValueSource(ints = {7, 8, 9, 10, 11, 12, 13, 14})
    void gtGraphsOfPaper000(int log) {
        int n = 1 << log;
        assertSameAsKruskal("gtgraph n=" + n, GraphBuilder.build(GtGraphRandom.generate(n, 2L * n, log)));
    }

    @Test
    void disconnectedGraphIsAForest() {
        CsrGraph g = GraphBuilder.build(GtGraphRandom.generate(5_000, 3_000, 21, false));
        assertSameAsKruskal("G(5000, 3000)", g);
        assertTrue(CpuPrim.run(g).components() > 1);
    }

    @Test
    void tiesAreBrokenByEdgeId() {
        MstResult r = CpuPrim.run(TestGraphs.build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 0, 1, 0, 2, 1));
        assertArrayEquals(new int[] {0, 1, 2}, r.edgeIds());
    }

    @Test
    void selectableAsCpuVariantPrim() {
        CsrGraph g = GraphBuilder.build(GtGraphRandom.generate(1_000, 2_000, 3));
        try (ComputeBackend cpu = new CpuBackend(); ResidentGraph r = cpu.load(g)) {
            MstResult prim = Mst.run(r, CpuPrim.VARIANT);
            assertArrayEquals(KruskalReference.run(g).edgeIds(), prim.edgeIds());
        }
    }

    @Test
    void rome99AndNewYork() {
        Optional<CsrGraph> rome = TestGraphs.real(Datasets.ROME);
        assumeTrue(rome.isPresent(), Datasets.ROME + " not found");
        assertSameAsKruskal(Datasets.ROME, rome.get());
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        if (ny.isPresent()) {
            MstResult r = CpuPrim.run(ny.get());
            assertEquals(TestGraphs.NY_MST_WEIGHT, r.totalWeight());
            assertSameAsKruskal(Datasets.NY, ny.get());
        }
    }
}
