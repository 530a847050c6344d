package org.frontiergraph.worker.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.schema.Algorithm;
import org.junit.jupiter.api.Test;

/** Every algorithm of the contract has one encoder, and every engine algorithm is reachable through the contract. */
class AnswerEncodersTest {
    @Test
    void everyContractAlgorithmHasOneEncoderOfTheSameName() {
        for (Algorithm a : Algorithm.values()) {
            AnswerEncoder<?, ?> e = AnswerEncoders.of(a);
            assertEquals(a, e.algorithm());
            assertEquals(a.name(), e.spec().name(), "encoder of " + a + " pairs the engine spec of the same name");
        }
        assertEquals(Algorithm.values().length, AnswerEncoders.ALL.size(), "one encoder per algorithm");
    }

    @Test
    void everyRegisteredEngineAlgorithmHasAnEncoder() {
        Set<AlgorithmSpec<?, ?>> encoded = new HashSet<>();
        AnswerEncoders.ALL.forEach(e -> encoded.add(e.spec()));
        for (AlgorithmSpec<?, ?> spec : Algorithms.ALL) assertTrue(encoded.contains(spec), spec + " has no encoder");
    }
}
