package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SsspRepair against the device: the update streams of {@link SsspRepairTest}, every repaired answer checked against
 * the GPU's default kernel run from scratch on the graph after the batch (distances bit for bit, parents by the verifier), as a worker holding the graph on
 * the GPU recomputes it when a repair gives up or frontier.verify-incremental samples it.
 */
@Tag("gpu")
class SsspRepairGpuTest extends GpuTests {
    private static SsspResult onDevice(CsrGraph g, int source) {
        try (ResidentGraph dev = gpu.load(UpdateStreams.rebuilt(g, g.vertexCount()))) {
            return Sssp.run(dev, source, null);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void repairsEqualTheDevicesAnswersAfterEveryBatch(boolean directed) {
        Random rnd = new Random(directed ? 131 : 132);
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        RepairStreams.Stats stats = RepairStreams.run(RepairStreams.withReference(SsspRepairTest.SSSP, SsspRepairGpuTest::onDevice), start,
                new int[] {0, 1_997}, new int[] {1, 10, 100}, 12, rnd);
        assertTrue(stats.repaired(1) > 0, "single updates were repaired: " + stats);
    }
}
