package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The device copy follows random update streams: runs of updates (re-weights only, or structural with new vertices,
 * invalid updates mixed in) apply to the host copy, and the next query brings the device up to date in one step
 * (scattered weights, or a reload after a structural change). After every run, every variant's answer equals the
 * CPU reference on the graph GraphEdit gives, and passes the verifiers.
 */
@Tag("gpu")
class DeviceUpdatesGpuTest {
    private static GpuBackend gpu;

    @BeforeAll
    static void open() {
        gpu = GpuOrSkip.open();
    }

    @AfterAll
    static void close() {
        if (gpu != null) gpu.close();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theDeviceFollowsRandomUpdateStreams(boolean directed) {
        Random rnd = new Random(directed ? 91 : 92);
        CsrGraph reference = GraphBuilder.build(UniformRandomGraph.generate(3_000, 12_000, directed ? 5 : 6, 30, directed));
        try (ResidentGraph dev = gpu.load(UpdateStreams.rebuilt(reference, reference.vertexCount()))) {
            for (int run = 0; run < 24; run++) {
                boolean structural = run % 4 == 3;
                int updates = 1 + rnd.nextInt(40);
                for (int i = 0; i < updates; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, reference, structural);
                    CsrGraph next;
                    try {
                        next = GraphEdit.apply(UpdateStreams.grown(reference, e.addedVertices()), e.removeU(), e.removeV(),
                                e.reweightU(), e.reweightV(), e.reweightW(), e.addU(), e.addV(), e.addW());
                    } catch (InvalidGraphException x) {
                        next = null;
                    }
                    try {
                        dev.mutable().apply(e, 0, Long.MAX_VALUE);
                        assertTrue(next != null, "accepted what the reference refuses, run " + run);
                        reference = next;
                    } catch (InvalidGraphException x) {
                        assertEquals(null, next, "refused what the reference accepts, run " + run + ": " + x.getMessage());
                    }
                }
                long before = dev.residentBytes();
                CsrGraph now = reference;
                for (int s : new int[] {0, run * 97 % now.vertexCount()}) {
                    SsspResult expected = DijkstraReference.run(now, s);
                    for (String variant : new String[] {null, "nearfar", "async"}) {
                        SsspResult r = Sssp.run(dev, s, variant);
                        assertArrayEquals(expected.distances(), r.distances(), "sssp " + variant + ", run " + run);
                        assertTrue(SsspVerifier.verify(now, s, r, expected).ok(), "sssp " + variant + ", run " + run);
                    }
                    BfsResult b = Bfs.run(dev, s, null);
                    assertTrue(BfsVerifier.verify(now, s, b, BfsReference.run(now, s)).ok(), "bfs, run " + run);
                }
                MstResult mstExpected = KruskalReference.run(now);
                for (String variant : new String[] {"boruvka", "ecl"}) {
                    MstResult m = Mst.run(dev, variant);
                    assertTrue(MstVerifier.verify(now, m, mstExpected).ok(), "mst " + variant + ", run " + run);
                    assertArrayEquals(mstExpected.edgeIds(), m.edgeIds(), "mst " + variant + ", run " + run);
                }
                if (!structural) assertTrue(dev.residentBytes() >= before, "a re-weight keeps the device copy");
            }
        }
    }
}
