package org.frontiergraph.worker.query;

import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.ApspVerifier;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/** APSP through the query service: row-block chunks that reassemble into a verified matrix, and the size limit. */
class ApspQueryTest {
    static final long SEED = 31;

    @Test
    void apspArrivesInRowBlocksThatReassembleIntoAVerifiedMatrix() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(1_000);   // 300 vertices: 3 rows per chunk
        config.setApspMaxVertices(500);
        try (Fixtures.Services s = Fixtures.start(config)) {
            EdgeList edges = UniformRandomGraph.generate(300, 1_200, SEED, 20, true);
            CsrGraph g = GraphBuilder.build(edges);
            s.install(snapshot("small", 1, edges, 1, 50_000), 0);
            for (String variant : new String[] {null, "floyd-warshall", "repeated-sssp"}) {
                QueryAnswer a = s.queries().answer(query("apsp-" + variant, "small", Algorithm.APSP, null).setVariant(variant).build());
                assertEquals(ResultStatus.OK, a.status(), a::error);
                List<QueryResult> chunks = a.chunks();
                assertEquals(100, chunks.size(), "300 rows, 3 per chunk");
                double[] d = new double[300 * 300];
                int row = 0;
                for (QueryResult c : chunks) {
                    assertEquals(row, c.getOffset(), "rows are contiguous");
                    assertEquals(c.getRows() * 300, PackedArrays.doubleCount(c.getDistances()));
                    PackedArrays.copy(c.getDistances(), d, row * 300);
                    row += c.getRows();
                }
                assertEquals(300, row);
                Verification v = ApspVerifier.verify(g, new ApspResult(300, d, Timing.NONE));
                assertTrue(v.ok(), () -> "variant " + variant + " seed " + SEED + ": " + v.message());
            }
            QueryAnswer summary = s.queries().answer(query("apsp-summary", "small", Algorithm.APSP, null)
                    .setResultMode(ResultMode.SUMMARY).build());
            assertEquals(1, summary.chunks().size());
            assertTrue(summary.chunks().get(0).getReachedCount() >= 300, "every vertex reaches itself");

            EdgeList big = UniformRandomGraph.generate(600, 2_000, SEED, 20, true);
            s.install(snapshot("big", 1, big, 0, 50_000), 0);
            QueryAnswer tooBig = s.queries().answer(query("apsp-big", "big", Algorithm.APSP, null).build());
            assertEquals(ResultStatus.GRAPH_TOO_LARGE, tooBig.status());
            assertTrue(tooBig.error().contains("600") && tooBig.error().contains("500"), tooBig.error());
        }
    }
}
