package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.cc.Cc;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Implementation;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.sssp.Sssp;
import org.junit.jupiter.api.Test;

/**
 * Without a GPU: what the engine decides for a graph stored wide before any device work. Its GPU defaults are
 * variants that run on 64-bit offsets, whatever the narrow graph's default (async SSSP on a sparse graph); every
 * implementation sizes its memory on it without reading the int-indexed arrays a wide graph lacks; those that read
 * 32-bit offsets say so.
 */
class WideGraphChoicesTest {
    private final CsrGraph narrow = GpuWideArcsTest.messy(3_000, 9_000, 71, false, false);   // sparse: async by default
    private final CsrGraph wide = narrow.widen(7);

    @Test
    void theDefaultsOnAWideGraphRunOnIt() {
        assertEquals("async", Sssp.SPEC.choose(GpuBackend.NAME, null, narrow).variant().name(), "narrow sparse default");
        for (AlgorithmSpec<?, ?> spec : List.of(Bfs.SPEC, Bfs.SUMMARIES, Bfs.AT_TARGETS, Sssp.SPEC, Sssp.SUMMARIES,
                Sssp.AT_TARGETS, Mst.SPEC, Mst.SUMMARY, Cc.SPEC, Cc.SUMMARY, Cc.AT_TARGETS)) {
            GpuAlgorithm<?, ?> impl = (GpuAlgorithm<?, ?>) spec.choose(GpuBackend.NAME, null, wide).implementation();
            assertTrue(impl.runsOn(wide), spec + " default " + impl.variants() + " runs on a wide graph");
        }
        assertEquals("nearfar", Sssp.SPEC.choose(GpuBackend.NAME, null, wide).variant().name(), "wide default");
    }

    @Test
    void everyGpuImplementationSizesItselfOnAWideGraphOrRefusesIt() {
        new MutableGraph(wide);   // what a resident graph keeps beside its device copy
        assertEquals(DeviceCsr.bytesFor(narrow) + 4L * (narrow.vertexCount() + 1), DeviceCsr.bytesFor(wide));
        int refusing = 0;
        for (AlgorithmSpec<?, ?> spec : List.of(Bfs.SPEC, Sssp.SPEC, Mst.SPEC, Cc.SPEC, Bfs.SUMMARIES, Sssp.SUMMARIES)) {
            for (Implementation<?, ?> i : spec.implementations()) {
                if (!(i instanceof GpuAlgorithm<?, ?> impl)) continue;
                if (impl.runsOn(wide)) {
                    if (impl.layout() != GpuAlgorithm.Layout.OWN) assertTrue(impl.deviceBytes(wide) >= 0, impl.variants().toString());
                    assertFalse(impl.isDefaultFor(wide) && !impl.runsOn(wide));
                } else {
                    refusing++;
                    assertFalse(impl.isDefaultFor(wide), impl.variants() + " is not a wide graph's default");
                    UnsupportedVariantException e = assertThrows(UnsupportedVariantException.class, () -> impl.requireRunsOn(wide));
                    assertTrue(e.getMessage().contains("stored wide"), e.getMessage());
                    impl.requireRunsOn(narrow);
                }
            }
        }
        assertTrue(refusing >= 5, "harish BFS and SSSP, async, da2cf and prim refuse wide graphs: " + refusing);
    }
}
