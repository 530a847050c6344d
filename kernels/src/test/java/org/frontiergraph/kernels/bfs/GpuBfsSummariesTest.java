package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the GPU's batched BFS summaries report beyond the answers ({@link BfsContract} checks those): a pass per 64
 * distinct sources with out-arcs, the levels they ran, the device bytes the launcher declares, and the same answers
 * whatever the grid size ({@code mbps}).
 */
@Tag("gpu")
class GpuBfsSummariesTest extends GpuTests {
    /** Kronecker graph: 65 distinct sources with arcs, each given twice, and 10 isolated ones (answered on the host). */
    private static int[] batch(CsrGraph g) {
        int[] withArcs = IntStream.range(0, g.vertexCount()).filter(v -> g.degree(v) > 0).limit(65).toArray();
        int[] isolated = IntStream.range(0, g.vertexCount()).filter(v -> g.degree(v) == 0).limit(10).toArray();
        assertEquals(65, withArcs.length);
        return IntStream.concat(IntStream.concat(Arrays.stream(withArcs), Arrays.stream(isolated)),
                Arrays.stream(withArcs)).toArray();
    }

    @Test
    void passesAndLevelsAreReported() {
        CsrGraph g = TestGraphs.kronecker().graph();
        int[] sources = batch(g);
        try (ResidentGraph r = gpu.load(g)) {
            BfsSummaries got = r.run(Bfs.SUMMARIES, new Sources(sources), null);
            assertEquals(2, got.timing().counter("passes"), "65 distinct sources with arcs: two passes");
            int deepest = Arrays.stream(got.maxHops()).max().orElseThrow();
            assertTrue(got.timing().counter("levels") >= deepest + 1, "levels " + got.timing().counter("levels")
                    + " cover the deepest search (" + deepest + " hops) and its empty last level");
            assertTrue(got.timing().computeNanos() > 0, "device time measured");
        }
    }

    @Test
    void theLauncherTakesTheBytesItDeclares() {
        CsrGraph g = TestGraphs.kronecker().graph();
        int[] sources = Arrays.copyOf(batch(g), 64);
        try (ResidentGraph r = gpu.load(g)) {
            long before = r.residentBytes();
            r.run(Bfs.SUMMARIES, new Sources(sources), null);
            assertEquals(GpuBfsSummaries.IMPLEMENTATION.deviceBytes(g), r.residentBytes() - before);
        }
    }

    @Test
    void gridSizeDoesNotChangeTheAnswers() {
        CsrGraph g = TestGraphs.kronecker().graph();
        int[] sources = batch(g);
        try (ResidentGraph r = gpu.load(g)) {
            BfsSummaries standard = r.run(Bfs.SUMMARIES, new Sources(sources), null);
            for (String variant : new String[] {"default,mbps=1", "default,mbps=64"}) {
                BfsSummaries other = r.run(Bfs.SUMMARIES, new Sources(sources), variant);
                assertArrayEquals(standard.reached(), other.reached(), variant + ": reached");
                assertArrayEquals(standard.maxHops(), other.maxHops(), variant + ": max hops");
            }
        }
    }
}
