package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Residency: bytes accounted and freed, weights patched in place, unknown variants refused. Skipped without a GPU. */
@Tag("gpu")
class GpuResidentGraphTest extends GpuTests {
    @Test
    void bytesAreCountedAndFreed() {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(10_000, 80_000, 21, 50, false));
        long before = gpu.deviceBytesInUse();
        ResidentGraph r = gpu.load(g);
        long loaded = r.residentBytes();
        assertTrue(loaded >= DeviceCsr.bytesFor(g), "at least the CSR: " + loaded);
        assertEquals(before + loaded, gpu.deviceBytesInUse());
        Mst.run(r, null);
        assertTrue(r.residentBytes() > loaded, "MST edge list added");
        r.close();
        assertEquals(before, gpu.deviceBytesInUse());
        assertThrows(IllegalStateException.class, () -> Bfs.run(r, 0, null));
    }

    @Test
    void newWeightsArePatchedInPlace() {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(5_000, 40_000, 22, 50, true));
        EdgeList heavier = new EdgeList(g.vertexCount(), true, g.arcCount());
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int e = g.rowStart(u); e < g.rowEnd(u); e++) heavier.add(u, g.columns()[e], g.weights()[e] * 3 + 0.5);
        }
        CsrGraph next = GraphBuilder.build(heavier);
        ResidentGraph r = gpu.load(g);
        Mst.run(r, null);
        ResidentGraph patched = r.replace(next, gpu);
        assertSame(r, patched, "same arcs: patched in place");
        assertArrayEquals(next.weights(), patched.graph().weights(), "the host copy follows");
        assertArrayEquals(DijkstraReference.run(next, 3).distances(), Sssp.run(patched, 3, null).distances());
        assertArrayEquals(KruskalReference.run(next).edgeIds(), Mst.run(patched, null).edgeIds());
        CsrGraph other = GraphBuilder.build(UniformRandomGraph.generate(5_000, 40_000, 23, 50, true));
        ResidentGraph fresh = patched.replace(other, gpu);
        assertNotSame(patched, fresh);
        assertArrayEquals(DijkstraReference.run(other, 3).distances(), Sssp.run(fresh, 3, null).distances());
        fresh.close();
    }

    @Test
    void unknownVariantIsRefused() {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(100, 300, 24, 5, false));
        try (ResidentGraph r = gpu.load(g)) {
            assertThrows(UnsupportedVariantException.class, () -> Bfs.run(r, 0, "no-such-variant"));
            assertThrows(UnsupportedVariantException.class, () -> Sssp.run(r, 0, "dijkstra"));
            assertThrows(UnsupportedVariantException.class, () -> Mst.run(r, "prim"));
        }
    }
}
