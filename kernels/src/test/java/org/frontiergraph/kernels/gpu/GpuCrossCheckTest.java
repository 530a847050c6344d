package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.stream.Stream;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every GPU algorithm and variant on every test graph (seeded random, Kronecker, grid, every shared dataset),
 * checked against the CPU engine: BFS hops and SSSP distances equal and parents valid by the verifiers' rules,
 * MST edge ids, total weight and components identical. Skipped where no GPU is present.
 */
@Tag("gpu")
class GpuCrossCheckTest extends GpuTests {
    private static final ComputeBackend CPU = new CpuBackend();
    private static final String[] BFS_VARIANTS = {null, "hostloop", "persistent,bps=1", "persistent,check=0",
            "persistent,check=1", "hostloop,check=0"};
    private static final String[] SSSP_VARIANTS = {null, "nearfar,df=2,bps=1", "nearfar,df=1000"};

    static Stream<GpuTestGraphs.Named> graphs() {
        return GpuTestGraphs.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void sameAnswersAsCpuEngine(GpuTestGraphs.Named named) {
        CsrGraph g = named.graph().get();
        try (ResidentGraph dev = gpu.load(g); ResidentGraph host = CPU.load(g)) {
            assertTrue(dev.residentBytes() > 0, "resident bytes counted");
            for (int source : GpuTestGraphs.sources(g, g.vertexCount() * 31L + 7, 3)) {
                BfsResult expectedBfs = Bfs.run(host, source, null);
                for (String variant : BFS_VARIANTS) {
                    BfsResult r = Bfs.run(dev, source, variant);
                    check(BfsVerifier.verify(g, source, r, expectedBfs), named, "BFS " + variant, source);
                    assertArrayEquals(expectedBfs.hops(), r.hops(), named + " BFS hops, source " + source);
                }
                SsspResult expectedSssp = Sssp.run(host, source, null);
                for (String variant : SSSP_VARIANTS) {
                    SsspResult r = Sssp.run(dev, source, variant);
                    check(SsspVerifier.verify(g, source, r, expectedSssp), named, "SSSP " + variant, source);
                    assertArrayEquals(expectedSssp.distances(), r.distances(),
                            named + " SSSP distances (bit-identical), source " + source + ", variant " + variant);
                }
            }
            MstResult expectedMst = Mst.run(host, null);
            MstResult r = Mst.run(dev, null);
            check(MstVerifier.verify(g, r, expectedMst), named, "MST", -1);
            assertArrayEquals(expectedMst.edgeIds(), r.edgeIds(), named + " MST edge ids");
            assertEquals(Double.doubleToLongBits(expectedMst.totalWeight()), Double.doubleToLongBits(r.totalWeight()),
                    named + " MST weight");
            assertEquals(expectedMst.components(), r.components(), named + " MST components");
        }
    }

    private static void check(Verification v, GpuTestGraphs.Named graph, String what, int source) {
        assertTrue(v.ok(), () -> graph + ": " + what + " from " + source + ": " + v.message());
    }
}
