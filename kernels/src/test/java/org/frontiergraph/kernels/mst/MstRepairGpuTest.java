package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The incremental MST of standing queries against the device: random update streams (re-weights, and structural runs
 * with new vertices and invalid updates) in runs of 1 to 60 updates; after every run the repaired forest equals the
 * GPU's default MST of the graph, run from scratch (edge ids, total weight, components), and passes the verifier.
 */
@Tag("gpu")
class MstRepairGpuTest extends GpuTests {
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void repairsEqualTheDevicesForestAfterEveryRun(boolean directed) {
        Random rnd = new Random(directed ? 151 : 152);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(3_000, 9_000, directed ? 7 : 8, 12, directed));
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        MstRepair forest = new MstRepair(start, KruskalReference.run(start));
        int repaired = 0;
        for (int run = 0; run < 30; run++) {
            boolean structural = run % 3 == 2;
            int updates = 1 + rnd.nextInt(run % 5 == 4 ? 60 : 4);
            for (int i = 0; i < updates; i++) {
                try {
                    g.apply(UpdateStreams.randomUpdate(rnd, g.current(), structural), 0, Long.MAX_VALUE);
                } catch (InvalidGraphException refused) {
                    // mistakes are part of the stream: the graph is unchanged
                }
            }
            CsrGraph now = g.current();
            MstRepair.Repaired r = forest.repair(now, seen.read().edges());
            MstResult device;
            try (ResidentGraph dev = gpu.load(UpdateStreams.rebuilt(now, now.vertexCount()))) {
                device = Mst.run(dev, null);
            }
            if (r == null) {
                forest = new MstRepair(now, device);
                continue;
            }
            repaired++;
            assertArrayEquals(device.edgeIds(), r.result().edgeIds(), "forest after run " + run);
            assertEquals(device.totalWeight(), r.result().totalWeight(), "weight after run " + run);
            assertEquals(device.components(), r.result().components(), "components after run " + run);
            assertTrue(MstVerifier.verify(now, r.result(), device).ok(), "run " + run);
        }
        assertTrue(repaired > 15, "most runs were repaired: " + repaired);
    }
}
