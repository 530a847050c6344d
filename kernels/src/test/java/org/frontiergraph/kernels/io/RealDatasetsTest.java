package org.frontiergraph.kernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.Test;

/**
 * The real graphs of ../shared/datasets (see its README for the counts asserted here). Skipped when the folder is
 * absent, as in a user's clone.
 */
class RealDatasetsTest {
    private static LoadedGraph load(String name) throws Exception {
        Optional<Path> file = Datasets.file(name);
        assumeTrue(file.isPresent(), () -> name + " not found (../shared/datasets or FRONTIER_DATASETS); skipping");
        long[] last = {0};
        LoadedGraph g = GraphFiles.read(file.get(), GraphFormat.fromFileName(name), n -> last[0] = n);
        assertEquals(Files.size(file.get()), last[0], "progress ends at the file size");
        return g;
    }

    @Test
    void newYorkRoads() throws Exception {
        LoadedGraph g = load(Datasets.NY);
        assertEquals(GraphFormat.DIMACS, g.format());
        assertEquals(264_346, g.vertexCount());
        assertEquals(733_846, g.edgeCount());
        assertTrue(g.edges().directed());
        assertTrue(g.weighted());
        assertEquals(1, g.firstVertexId());
        double min = Double.MAX_VALUE, max = 0;
        for (int i = 0; i < g.edgeCount(); i++) {
            min = Math.min(min, g.edges().weight(i));
            max = Math.max(max, g.edges().weight(i));
        }
        assertEquals(1, min);
        assertEquals(36_946, max);
        assertEquals(0, g.selfLoops());
        CsrGraph csr = g.toCsr();
        assertEquals(264_346, csr.vertexCount());
        assertTrue(csr.integralWeights());
        // the file repeats a few arcs (same endpoints, another distance); the CSR keeps each pair once
        assertTrue(csr.edgeCount() <= 733_846 && csr.edgeCount() > 730_000, csr.toString());
    }

    @Test
    void rome() throws Exception {
        LoadedGraph g = load(Datasets.ROME);
        assertEquals(3_353, g.vertexCount());
        assertEquals(8_870, g.edgeCount());
        assertTrue(g.edges().directed());
        assertTrue(g.weighted());
    }

    @Test
    void luxembourg() throws Exception {
        LoadedGraph g = load(Datasets.LUXEMBOURG);
        assertEquals(GraphFormat.MATRIX_MARKET, g.format());
        assertEquals(114_599, g.vertexCount());
        assertEquals(119_666, g.edgeCount());
        assertFalse(g.edges().directed());
        assertFalse(g.weighted());
        assertEquals(119_666, g.toCsr().edgeCount());
    }

    @Test
    void enron() throws Exception {
        LoadedGraph g = load(Datasets.ENRON);
        assertEquals(GraphFormat.SNAP, g.format());
        assertEquals(36_692, g.vertexCount());
        assertEquals(367_662, g.edgeCount());
        assertEquals(4, g.commentLines());
        assertTrue(g.edges().directed());
        assertFalse(g.weighted());
        assertEquals(0, g.firstVertexId());
    }

    @Test
    void facebook() throws Exception {
        LoadedGraph g = load(Datasets.FACEBOOK);
        assertEquals(4_039, g.vertexCount());
        assertEquals(88_234, g.edgeCount());
        assertEquals(0, g.commentLines());
        assertFalse(g.weighted());
        LoadedGraph u = GraphFiles.read(Datasets.file(Datasets.FACEBOOK).orElseThrow(), GraphFormat.SNAP, true, null);
        assertFalse(u.edges().directed());
        assertEquals(88_234, u.toCsr().edgeCount());
    }
}
