package org.frontiergraph.kernels.cc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CPU CC ({@link CpuCc}, through {@link Cc#SPEC} on the CPU engine) against {@link CcReference}, label for label, with
 * {@link CcVerifier}: small shapes (empty, isolated vertices, directed chains that are weakly but not strongly
 * connected), seeded random graphs around the density where a giant component appears, a Kronecker graph and every
 * shared dataset present. Also the verifier's own refusals and the SUMMARY and TARGETS specs.
 */
class CcTest {
    static Stream<Arguments> graphs() {
        List<Arguments> list = new ArrayList<>();
        list.add(Arguments.of("empty", GraphBuilder.build(new org.frontiergraph.kernels.graph.EdgeList(0, false))));
        list.add(Arguments.of("isolated", TestGraphs.build(7, false)));
        list.add(Arguments.of("isolated directed", TestGraphs.build(5, true)));
        list.add(Arguments.of("path", TestGraphs.path(50)));
        list.add(Arguments.of("star", TestGraphs.star(40)));
        // 3 -> 1 <- 0, 4 -> 3, 2 alone, 6 -> 5: weakly {0,1,3,4}, {2}, {5,6}; no vertex reaches all of its component
        list.add(Arguments.of("directed in-star", TestGraphs.build(7, true, 3, 1, 1, 0, 1, 1, 4, 3, 1, 6, 5, 1)));
        for (long seed = 1; seed <= 3; seed++) {
            for (boolean directed : new boolean[] {false, true}) {
                for (int m : new int[] {1_000, 2_500, 6_000}) {   // below, near and above the giant component's birth
                    list.add(Arguments.of("random n=5000 m=" + m + " seed " + seed + (directed ? " directed" : ""),
                            GraphBuilder.build(UniformRandomGraph.generate(5_000, m, seed, 10, directed))));
                }
            }
        }
        list.add(Arguments.of("random n=100000 m=150000", GraphBuilder.build(UniformRandomGraph.generate(100_000,
                150_000, 9, 10, false))));
        list.add(Arguments.of("kronecker 14", GraphBuilder.build(KroneckerGraph.generate(14, 8, 3))));
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void equalsTheReference(String name, CsrGraph g) {
        check(name, g);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void equalsTheReferenceOnDatasets(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), () -> file + " not present (../shared/datasets)");
        check(file, g.get());
    }

    private static void check(String name, CsrGraph g) {
        CcResult expected = CcReference.run(g);
        Verification ref = CcVerifier.verify(g, expected);
        assertTrue(ref.ok(), () -> name + ": the reference fails the verifier: " + ref.message());
        try (ComputeBackend cpu = Backends.cpu(); ResidentGraph resident = cpu.load(g)) {
            CcResult r = Cc.run(resident, null);
            Verification v = CcVerifier.verify(g, r, expected);
            assertTrue(v.ok(), () -> name + ": " + v.message());
            CcSummary s = resident.run(Cc.SUMMARY, WholeGraph.QUERY, null);
            assertEquals(expected.components(), s.components(), name);
            assertEquals(expected.largest(), s.largest(), name);
            if (g.vertexCount() > 0) {
                int[] targets = {g.vertexCount() - 1, 0, g.vertexCount() / 2, 0};
                CcAtTargets t = resident.run(Cc.AT_TARGETS, new CcAtTargets.Query(targets), null);
                assertArrayEquals(targets, t.targets(), name);
                for (int i = 0; i < targets.length; i++) assertEquals(expected.labels()[targets[i]], t.labels()[i], name);
            }
        }
    }

    @Test
    void countsOfSmallShapes() {
        CcResult r = CpuCc.run(TestGraphs.build(7, true, 3, 1, 1, 0, 1, 1, 4, 3, 1, 6, 5, 1));
        assertArrayEquals(new int[] {0, 0, 2, 0, 0, 5, 5}, r.labels());
        assertEquals(3, r.components());
        assertEquals(4, r.largest());
        CcResult empty = CpuCc.run(TestGraphs.build(0, false));
        assertEquals(0, empty.components());
        assertEquals(0, empty.largest());
    }

    @Test
    void verifierRefusesWrongAnswers() {
        CsrGraph g = TestGraphs.build(5, false, 0, 1, 1, 3, 4, 1);   // {0,1}, {2}, {3,4}
        CcResult right = CcReference.run(g);
        assertArrayEquals(new int[] {0, 0, 2, 3, 3}, right.labels());
        assertTrue(CcVerifier.verify(g, right).ok());
        // an arc across labels
        assertFalse(CcVerifier.verify(g, CcResult.of(new int[] {0, 1, 2, 3, 3}, right.timing())).ok());
        // a label that is not the smallest vertex (4 labels 3 and 4: 4 > 3 is fine, 3 labeled 4 is not)
        assertFalse(CcVerifier.verify(g, CcResult.of(new int[] {0, 0, 2, 4, 4}, right.timing())).ok());
        // two components under one label: every arc agrees, but 2 is not connected to 0
        assertFalse(CcVerifier.verify(g, CcResult.of(new int[] {0, 0, 0, 3, 3}, right.timing())).ok());
        // wrong counts
        assertFalse(CcVerifier.verify(g, new CcResult(right.labels(), 2, 2, right.timing())).ok());
        assertFalse(CcVerifier.verify(g, new CcResult(right.labels(), 3, 3, right.timing())).ok());
        // right on its own, but not the reference's
        CsrGraph other = TestGraphs.build(5, false, 0, 1, 1);
        assertFalse(CcVerifier.verify(other, CcReference.run(other), right).ok());
    }
}
