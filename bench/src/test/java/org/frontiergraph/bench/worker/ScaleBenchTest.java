package org.frontiergraph.bench.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ScaleBench end to end, small: kron12, kron13, kron16 and kron11 through an embedded broker to one worker on the CPU
 * engine; kron13 above the CPU-reference limit so that both checks run, kron16 refused (pending-snapshot cap) and the
 * run going on. Every loaded row verified and with sane numbers, the refused one with its reason; the table written.
 * Not a measurement. And the components check against the CPU engine, and the lazily made chunks against the client's.
 */
class ScaleBenchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void smallKroneckerGraphsLoadAnswerAndVerifyThroughAnEmbeddedBroker() throws Exception {
        Path out = dir.resolve("scale-bench.md");
        // kron16's 1,048,576 edges take about 12 MB of pending chunks: refused by the worker, reported, and the run goes on
        // (the client's publishing most likely stopped before the last of its 21 chunks)
        ScaleBench.Options o = ScaleBench.Options.parse(new String[] {"--graphs", "kron12,kron13,kron16,kron11", "--backend", "cpu",
                "--sources", "3", "--reference-max-edges", "100000", "--timeout-s", "60",
                "--worker", "frontier.max-pending-snapshot-bytes=2500000", "--out", out.toString()});
        ScaleBench.Outcome r = ScaleBench.run(o);
        System.out.println(r.markdown());

        assertTrue(r.ok(), () -> "failures: " + r.failures());
        assertEquals(List.of("kron12", "kron13", "kron16", "kron11"), r.rows().stream().map(ScaleBench.Row::graph).toList());
        for (ScaleBench.Row row : r.rows()) {
            int scale = Integer.parseInt(row.graph().substring(4));
            assertEquals(1 << scale, row.vertices(), row::toString);
            assertEquals(16L << scale, row.edges(), row::toString);
            assertTrue(row.loadS() > 0 && row.edgesPerS() > 0, row::toString);
            assertTrue(row.peakHeapBytes() > 0 && row.sampledHeapBytes() > 0 && row.peakRssBytes() > 0, row::toString);
            assertTrue(row.modelPeakBytes() > 0 && row.publisherBytes() == 16 * row.edges(), row::toString);
            if (scale == 16) {
                assertEquals(GraphState.REJECTED, row.state(), row::toString);
                assertTrue(row.reason().startsWith("GraphStatus REJECTED: "), row::toString);
                assertTrue(row.reason().contains("frontier.max-pending-snapshot-bytes"), row::toString);
                continue;
            }
            assertEquals(GraphState.LOADED, row.state(), row::toString);
            assertTrue(row.workerHostBytes() > 0 && row.residentBytes() > 0, row::toString);
            for (ScaleBench.Times t : List.of(row.bfs(), row.sssp(), row.mst())) {
                assertTrue(t.kafkaMs() > 0 && t.kernelMs() >= 0 && t.kernelMs() <= t.kafkaMs(), row::toString);
            }
            assertNotNull(row.verified(), row::toString);
            assertTrue(row.verified().startsWith("12 answers: Kruskal"), row::toString);
            assertEquals(row.edges() <= 100_000, row.verified().endsWith("and CPU engine"), row::toString);
        }
        String md = Files.readString(out);
        assertEquals(r.markdown(), md);
        assertTrue(md.contains("| kron13 | 8,192 | 131,072 |"), md);
        assertTrue(md.contains("| kron16 | 65,536 | 1,048,576 | not loaded after "), md);
        assertTrue(md.contains("frontier.max-pending-snapshot-bytes=2500000"), md);
        assertTrue(md.contains("- command: `ScaleBench --graphs kron12,kron13,kron16,kron11"), md);
    }

    @Test
    void componentsCheckEqualsTheCpuEngine() {
        EdgeList e = KroneckerGraph.generate(11, 4, 7);   // sparse: many components and isolated vertices
        ComponentsCheck cc = ComponentsCheck.of(e);
        try (ResidentGraph cpu = new CpuBackend().load(GraphBuilder.build(e))) {
            MstResult mst = Mst.run(cpu, null);
            assertEquals(mst.totalWeight(), cc.totalWeight());
            assertEquals(mst.components(), cc.components());
            assertTrue(mst.components() > 1);
            for (int v : ScaleBench.sources(e, 5)) {
                long reached = 0;
                for (int h : Bfs.run(cpu, v, null).hops()) if (h >= 0) reached++;
                assertEquals(reached, cc.reached(v), "vertex " + v);
            }
            long isolated = 0;
            for (int v = 0; v < e.vertexCount(); v++) if (cc.reached(v) == 1) isolated++;
            assertTrue(isolated > 0, "the graph has isolated vertices");
        }
    }

    @Test
    void lazyChunksAreTheClientsChunks() {
        EdgeList e = KroneckerGraph.generate(13, 16, 3);   // 131,072 edges: three chunks, the last one short
        List<GraphSnapshotChunk> expected = FrontierClient.chunks("g", 7, Snapshots.of(e), 0, true, FrontierClient.CHUNK_EDGES);
        LazyChunks lazy = new LazyChunks("g", 7, e, org.frontiergraph.client.FrontierClient.CHUNK_EDGES);
        assertEquals(expected.size(), lazy.size());
        for (int c = 0; c < expected.size(); c++) {
            GraphSnapshotChunk first = lazy.get(c);
            assertEquals(expected.get(c), first, "chunk " + c);
            assertSame(first, lazy.get(c), "asked again (to be sent): the chunk made for its encoding");
            assertEquals(expected.get(c), lazy.get(c), "made again after that");
        }
    }
}
