package org.frontiergraph.kernels.cc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPU CC ({@link GpuCc}, cc.cu's ECL-CC) against {@link CcReference}, label for label, with {@link CcVerifier}, on
 * the CPU test's graphs (small shapes, directed graphs, random graphs around the giant component's birth), graphs
 * with rows long enough for the warp and block passes (Kronecker, a star of 5,000 leaves), a grid, every shared
 * dataset present; the SUMMARY and TARGETS answers on each; and the answers after updates of the resident graph.
 * Skips where no GPU is present.
 */
@Tag("gpu")
class CcGpuTest {
    private static GpuBackend gpu;

    private static GpuBackend gpu() {
        if (gpu == null) gpu = GpuOrSkip.open();
        return gpu;
    }

    @AfterAll
    static void close() {
        if (gpu != null) gpu.close();
    }

    /** The CPU test's graphs, then larger ones, built only when a GPU is present (the test asks for it first). */
    static java.util.stream.Stream<Arguments> graphs() {
        java.util.List<Arguments> list = new java.util.ArrayList<>();
        CcTest.graphs().forEach(a -> list.add(Arguments.of(a.get()[0], (Supplier<CsrGraph>) () -> (CsrGraph) a.get()[1])));
        list.add(Arguments.of("star 5000", (Supplier<CsrGraph>) () -> TestGraphs.star(5_000)));
        list.add(Arguments.of("kronecker 18",
                (Supplier<CsrGraph>) () -> GraphBuilder.build(KroneckerGraph.generate(18, 16, 7))));
        list.add(Arguments.of("kronecker 16 directed",
                (Supplier<CsrGraph>) () -> directed(GraphBuilder.build(KroneckerGraph.generate(16, 16, 5)))));
        list.add(Arguments.of("grid 300x300",
                (Supplier<CsrGraph>) () -> GraphBuilder.build(GridRoadGraph.generate(300, 300, 3, 100))));
        list.add(Arguments.of("random n=1M m=4M directed", (Supplier<CsrGraph>) () ->
                GraphBuilder.build(UniformRandomGraph.generate(1 << 20, 4 << 20, 13, 10, true))));
        return list.stream();
    }

    /** The arcs u -> v with u < v of an undirected graph, as a directed graph (weakly: the same components). */
    private static CsrGraph directed(CsrGraph g) {
        org.frontiergraph.kernels.graph.EdgeList e = new org.frontiergraph.kernels.graph.EdgeList(g.vertexCount(), true);
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) if (u < g.columns()[a]) e.add(g.columns()[a], u, 1);
        }
        return GraphBuilder.build(e);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void equalsTheReference(String name, Supplier<CsrGraph> g) {
        gpu();
        check(name, g.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void equalsTheReferenceOnDatasets(String file) {
        gpu();
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), () -> file + " not present (../shared/datasets)");
        check(file, g.get());
    }

    private static void check(String name, CsrGraph g) {
        CcResult expected = CcReference.run(g);
        try (ResidentGraph dev = gpu().load(g)) {
            for (int round = 0; round < 2; round++) {   // twice: the launcher's buffers reused
                CcResult r = Cc.run(dev, null);
                Verification v = CcVerifier.verify(g, r, expected);
                assertTrue(v.ok(), () -> name + ": " + v.message());
                CcSummary s = dev.run(Cc.SUMMARY, WholeGraph.QUERY, null);
                assertEquals(expected.components(), s.components(), name + ": summary components");
                assertEquals(expected.largest(), s.largest(), name + ": summary largest");
                if (g.vertexCount() > 0) {
                    int[] targets = {g.vertexCount() - 1, 0, g.vertexCount() / 2, 0};
                    CcAtTargets t = dev.run(Cc.AT_TARGETS, new CcAtTargets.Query(targets), "ecl");
                    for (int i = 0; i < targets.length; i++) {
                        assertEquals(expected.labels()[targets[i]], t.labels()[i], name + ": target " + targets[i]);
                    }
                }
            }
        }
    }

    @Test
    void followsUpdatesOfTheResidentGraph() {
        gpu();
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(20_000, 24_000, 3, 10, false));
        Random rnd = new Random(3);
        try (ResidentGraph dev = gpu().load(start)) {
            for (int run = 0; run < 12; run++) {
                for (int i = 0; i < 40; i++) {
                    try {
                        dev.mutable().apply(CcRepairTest.randomUpdate(rnd, dev.mutable().current()), 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException refused) {
                        // the stream goes on
                    }
                }
                CsrGraph now = dev.graph();
                CcResult r = Cc.run(dev, null);
                Verification v = CcVerifier.verify(now, r, CcReference.run(now));
                assertTrue(v.ok(), () -> "after update run: " + v.message());
            }
        }
    }

    @Test
    void cpuAndGpuAgreeOnALargeKronecker() {
        gpu();
        CsrGraph g = GraphBuilder.build(KroneckerGraph.generate(20, 16, 11));
        try (ResidentGraph dev = gpu().load(g)) {
            assertArrayEquals(CpuCc.run(g).labels(), Cc.run(dev, null).labels());
        }
    }
}
