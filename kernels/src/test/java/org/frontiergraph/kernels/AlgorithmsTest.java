package org.frontiergraph.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Every algorithm registered with the engine (the services file's modules) has its pieces: a spec with a CPU
 * implementation, a reference and a verifier that agree with it, on the example query its module gives
 * ({@link AlgorithmModule#example}).
 */
class AlgorithmsTest {
    @Test
    void theModulesAreFoundInTheServicesFileOrderWithUniqueNames() {
        List<String> names = Algorithms.MODULES.stream().map(m -> m.spec().name()).toList();
        assertEquals(List.of("BFS", "SSSP", "MST", "APSP"), names.subList(0, 4), "the four first, as before: " + names);
        assertEquals(names.size(), new HashSet<>(names).size(), "unique names: " + names);
        assertEquals(Algorithms.MODULES.size(), Algorithms.ALL.size());
        for (int i = 0; i < names.size(); i++) assertSame(Algorithms.MODULES.get(i).spec(), Algorithms.ALL.get(i));
        for (AlgorithmModule<?, ?> m : Algorithms.MODULES) assertSame(m, Algorithms.named(m.spec().name()).orElseThrow());
        assertTrue(Algorithms.named("NOT-AN-ALGORITHM").isEmpty());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyModulesCpuAnswerAndReferencePassItsVerifier(boolean directed) {
        long seed = directed ? 11 : 12;
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(80, 320, seed, 9, directed));
        Set<String> checked = new HashSet<>();
        try (ComputeBackend cpu = Backends.cpu()) {
            for (AlgorithmModule<?, ?> m : Algorithms.MODULES) {
                String name = m.spec().name();
                assertFalse(m.spec().variants("cpu").isEmpty(), name + " has no CPU implementation");
                assertNotNull(m.example(g), name + "'s module gives no example query");
                // the resident graph takes its graph over: it gets a copy of its own (the same seed)
                check(cpu, g, GraphBuilder.build(UniformRandomGraph.generate(80, 320, seed, 9, directed)), m, name + " (seed " + seed + ")");
                checked.add(name);
            }
        }
        assertEquals(Algorithms.MODULES.size(), checked.size(), "every registered algorithm checked: " + checked);
    }

    @SuppressWarnings("unchecked")
    private static <Q, R> void check(ComputeBackend cpu, CsrGraph g, CsrGraph copy, AlgorithmModule<Q, R> m, String name) {
        Q query = m.example(g);
        R answer;
        try (ResidentGraph r = cpu.load(copy)) {
            answer = r.run(m.spec(), query, null);
        }
        Verification cpuAnswer = m.verify(g, query, answer);
        assertTrue(cpuAnswer.ok(), name + " CPU default: " + cpuAnswer.message());
        Verification reference = m.verify(g, query, m.reference(g, query));
        assertTrue(reference.ok(), name + " reference: " + reference.message());
    }
}
