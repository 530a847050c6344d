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
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The device copy follows random update streams: runs of updates (re-weights only, or structural with new vertices,
 * invalid updates mixed in) apply to the host copy, and the next query brings the device up to date in one step
 * (scattered weights; a structural change merged on the device from the rows it touched). After every run the
 * device's arrays equal the host's version, every variant's answer equals the CPU reference on the graph GraphEdit
 * gives, and passes the verifiers; no structural change needed a reload from the host.
 */
@Tag("gpu")
class DeviceUpdatesGpuTest {
    /** These tests follow the merge path; undirected graphs' device edits (the default) are SlackEditsGpuTest's. */
    private static GpuBackend gpu;

    @org.junit.jupiter.api.BeforeAll
    static void mergePath() {
        gpu = GpuOrSkip.open(GpuSettings.DEFAULTS.withEditsOnDevice(false));
    }

    @org.junit.jupiter.api.AfterAll
    static void close() {
        if (gpu != null) gpu.close();
        gpu = null;
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
                    reference = UpdateStreams.applyBoth(dev.mutable(), reference, e, "run " + run);
                }
                long before = dev.residentBytes();
                CsrGraph now = reference;
                assertDeviceHolds(now, (GpuResidentGraph) dev, "run " + run);
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
            GpuResidentGraph g = (GpuResidentGraph) dev;
            assertTrue(g.deviceMerges() >= 5, "structural runs merged on the device: " + g.deviceMerges());
            assertEquals(0, g.reloads(), "no reload from the host");
        }
    }

    /** Large batches on a graph of many pieces: the merged device copy equals the host's, and answers verify. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void largeStructuralBatchesMergeOnTheDevice(boolean directed) {
        Random rnd = new Random(directed ? 93 : 94);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(200_000, 1_500_000, directed ? 7 : 8, 100, directed));
        try (ResidentGraph dev = gpu.load(UpdateStreams.rebuilt(start, start.vertexCount()))) {
            GpuResidentGraph g = (GpuResidentGraph) dev;
            for (int batch = 0; batch < 4; batch++) {
                CsrGraph was = dev.graph();
                int n = was.vertexCount(), k = batch == 3 ? 100_000 : 2_000;
                int[] ru = new int[k / 4], rv = new int[k / 4], au = new int[k / 4], av = new int[k / 4];
                int[] wu = new int[k / 2], wv = new int[k / 2];
                double[] ww = new double[k / 2], aw = new double[k / 4];
                java.util.Set<Long> seen = new java.util.HashSet<>();
                int r = 0, w = 0;
                while (r < ru.length || w < wu.length) {
                    int[] e = UpdateStreams.randomArc(rnd, was);
                    long key = directed ? ((long) e[0] << 32) | e[1] : ((long) Math.min(e[0], e[1]) << 32) | Math.max(e[0], e[1]);
                    if (!seen.add(key)) continue;
                    if (r < ru.length) { ru[r] = e[0]; rv[r++] = e[1]; }
                    else { wu[w] = e[0]; wv[w] = e[1]; ww[w++] = batch == 3 ? 0.5 + rnd.nextInt(50) : 1 + rnd.nextInt(150); }
                }
                for (int i = 0; i < au.length; i++) {
                    au[i] = rnd.nextInt(n + 10);
                    av[i] = rnd.nextInt(n + 10);
                    aw[i] = 1 + rnd.nextInt(150);
                }
                dev.mutable().apply(new EdgeEdits(10, ru, rv, wu, wv, ww, au, av, aw), 0, Long.MAX_VALUE);
                CsrGraph now = dev.graph();
                assertDeviceHolds(now, g, "batch " + batch);
                int s = rnd.nextInt(now.vertexCount());
                SsspResult expected = DijkstraReference.run(now, s);
                SsspResult got = Sssp.run(dev, s, null);
                assertArrayEquals(expected.distances(), got.distances(), "sssp, batch " + batch);
                assertTrue(BfsVerifier.verify(now, s, Bfs.run(dev, s, null), BfsReference.run(now, s)).ok(), "bfs, batch " + batch);
                MstResult mstExpected = KruskalReference.run(now);
                MstResult mst = Mst.run(dev, "boruvka");
                assertArrayEquals(mstExpected.edgeIds(), mst.edgeIds(), "mst, batch " + batch);
                assertTrue(MstVerifier.verify(now, mst, mstExpected).ok(), "mst, batch " + batch);
            }
            assertEquals(4, g.deviceMerges(), "every batch merged on the device");
            if (!directed) assertEquals(2, g.carried(), "the MST edge list moved on the device while weights were integers");
            assertEquals(0, g.reloads(), "no reload from the host");
        }
    }

    private static void assertDeviceHolds(CsrGraph now, GpuResidentGraph dev, String what) {
        CsrArrays a = dev.deviceArrays();
        assertArrayEquals(now.rowOffsets(), a.rowOffsets(), "device rows, " + what);
        assertArrayEquals(now.columns(), a.columns(), "device columns, " + what);
        assertArrayEquals(now.weights(), a.weights(), "device weights, " + what);
    }
}
