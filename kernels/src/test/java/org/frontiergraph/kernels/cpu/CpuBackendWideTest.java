package org.frontiergraph.kernels.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;

/** The CPU engine indexes arcs with int32: a graph held in the wide form is refused at load, naming its arcs. */
class CpuBackendWideTest {
    @Test
    void aWideGraphIsRefusedAtLoadWithItsArcCount() {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(50, 120, 3, 9, false));
        try (CpuBackend cpu = new CpuBackend()) {
            GraphTooLargeException x = assertThrows(GraphTooLargeException.class, () -> cpu.load(g.widen(7)));
            assertEquals("the CPU engine indexes arcs with int32 (at most 2147483639) and this graph has " + g.arcCount()
                    + " arcs in the wide (64-bit) form: only a GPU worker holds it", x.getMessage());
            cpu.load(g).close();   // the same graph indexed by int loads
        }
    }
}
