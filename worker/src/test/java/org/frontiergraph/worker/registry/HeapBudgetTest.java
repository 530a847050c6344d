package org.frontiergraph.worker.registry;

import static org.frontiergraph.worker.support.Fixtures.assertRejected;
import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * A kron26-sized snapshot (2^26 vertices, 2^30 undirected edges: 2^31 arcs, more than one Java array holds) passes
 * the worker's default limits, fits a heap budget of its build's peak (at most 1.5 times the wide graph it gives: 16
 * bytes an arc, 8 a vertex) and is refused once, GRAPH_TOO_LARGE at its first chunk, by a budget that cannot hold it.
 */
class HeapBudgetTest {
    static final long N = 1L << 26, EDGES = 1L << 30;

    @Test
    void aKron26SnapshotFitsABudgetOfItsBuildsPeakWithinOneAndAHalfTimesTheGraph() {
        long graph = CsrAssembly.residentBytes(N, 2 * EDGES);
        assertEquals(16 * (2 * EDGES) + 8 * (N + 1), graph, "16 bytes an arc, 8 a vertex (wide)");
        long peak = HeapBudget.buildBytes(N, EDGES, false);
        assertTrue(peak <= 1.5 * graph, "peak " + peak + " within 1.5 x " + graph);
        new HeapBudget(peak, "a heap of the peak").require("kron26", peak, 0);   // fits exactly
        RejectedException small = assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                () -> new HeapBudget(peak - 1, "a heap one byte short").require("kron26", peak, 0));
        assertTrue(small.getMessage().contains("48049.9 MB") && small.getMessage().contains("a heap one byte short"), small.getMessage());
    }

    @Test
    void theDefaultEdgeLimitIsWhatAHostCsrHolds() {
        FrontierConfig config = new FrontierConfig();
        assertEquals(CsrAssembly.MAX_ARCS, config.getMaxEdges());
        assertTrue(EDGES <= config.getMaxEdges() && N <= config.getMaxVertices(), "kron26 passes the default limits");
        assertEquals(0, config.getWideArcsFrom(), "wide only where needed");
    }

    /** Through the registry: one refusal for the version at its first chunk, its other chunks dropped quietly. */
    @Test
    void aKron26SnapshotOverTheBudgetIsRefusedOnceAtItsFirstChunk() {
        FrontierConfig config = Fixtures.cpuConfig();
        long peak = HeapBudget.buildBytes(N, EDGES, false);
        try (EngineService engines = new EngineService(config);
             GraphRegistry registry = new GraphRegistry(engines, config, new HeapBudget(peak - 1, "a 68 GB heap's budget"))) {
            int chunks = 21_475;   // of 50,000 edges
            RejectedException r = assertRejected(ErrorCode.GRAPH_TOO_LARGE,
                    () -> registry.acceptChunk(chunk("kron26", 1, 0, chunks, (int) N, EDGES, false, 0, 0, 1, 1), 0));
            assertTrue(r.getMessage().contains("67108864 vertices, 1073741824 edges"), r.getMessage());
            assertTrue(registry.acceptChunk(chunk("kron26", 1, 1, chunks, (int) N, EDGES, false, 0, 1, 2, 1), 0).installed().isEmpty());
            assertEquals(1, registry.refusedChunks(), "the version's other chunks: no second refusal");
            assertEquals(0, registry.pendingSnapshotBytes(), "nothing allocated for it");
            config.setMaxEdges(CsrAssembly.MAX_ARCS);
            RejectedException over = assertRejected(ErrorCode.GRAPH_TOO_LARGE, () -> registry.acceptChunk(
                    chunk("more", 1, 0, chunks, (int) N, CsrAssembly.MAX_ARCS + 1L, false, 0, 0, 1, 1), 0));
            assertTrue(over.getMessage().contains("frontier.max-edges"), over.getMessage());
        }
    }
}
