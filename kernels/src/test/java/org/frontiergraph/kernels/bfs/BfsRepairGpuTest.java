package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.standing.BfsRepair;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * BfsRepair against the device: the update streams of {@link BfsRepairTest}, every repaired answer checked against
 * the GPU's default kernel run from scratch on the graph after the batch (hops exactly, parents by the verifier), as a worker holding the graph on
 * the GPU recomputes it when a repair gives up or frontier.verify-incremental samples it.
 */
@Tag("gpu")
class BfsRepairGpuTest extends GpuTests {
    private static BfsResult onDevice(CsrGraph g, int source) {
        try (ResidentGraph dev = gpu.load(UpdateStreams.rebuilt(g, g.vertexCount()))) {
            return Bfs.run(dev, source, null);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void repairsEqualTheDevicesAnswersAfterEveryBatch(boolean directed) {
        Random rnd = new Random(directed ? 141 : 142);
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        RepairStreams.Stats stats = RepairStreams.run(RepairStreams.withReference(BfsRepairTest.BFS, BfsRepairGpuTest::onDevice), start,
                new int[] {0, 1_997}, new int[] {1, 10, 100}, 12, rnd);
        assertTrue(stats.repaired(1) > 0, "single updates were repaired: " + stats);
    }
}
