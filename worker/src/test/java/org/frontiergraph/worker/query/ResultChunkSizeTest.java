package org.frontiergraph.worker.query;

import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * With the default chunk sizes ({@code FrontierConfig}: 60,000 vertices, 50,000 edges; application.yml asks for 40,000
 * edges) the largest result chunks, packed, stay under the producers' {@code max.request.size} of 1 MiB: a TARGETS
 * chunk carries three packed arrays (16 bytes a vertex), an MST chunk 16 bytes an edge.
 */
class ResultChunkSizeTest {
    private static final long SEED = 0x5eed_0011L;
    private static final int MAX_REQUEST_BYTES = 1 << 20;
    private static final int N = 70_000;

    @Test
    void fullChunksOfDefaultSizeFitOneKafkaRequest() {
        FrontierConfig config = Fixtures.cpuConfig();
        try (Fixtures.Services s = Fixtures.start(config)) {
            s.install(snapshot("g", 1, UniformRandomGraph.generate(N, 210_000, SEED, 1_000, false), 0, 50_000), 0);
            Random r = new Random(SEED);
            List<Integer> targets = new ArrayList<>();
            for (int i = 0; i < 60_000; i++) targets.add(r.nextInt(N));
            List<GraphQuery> queries = List.of(
                    query("full", "g", Algorithm.SSSP, 0).build(),
                    query("targets", "g", Algorithm.SSSP, 0).setResultMode(ResultMode.TARGETS).setTargets(targets).build(),
                    query("mst", "g", Algorithm.MST, null).build());
            int[] firstChunkElements = {config.getResultChunkVertices(), config.getResultChunkVertices(),
                config.getResultChunkEdges()};
            for (int q = 0; q < queries.size(); q++) {
                QueryAnswer a = s.queries().answer(queries.get(q));
                assertEquals(ResultStatus.OK, a.status(), a::error);
                QueryResult first = a.chunks().get(0);
                int elements = first.getMstEdges() != null ? PackedArrays.intCount(first.getMstEdges().getSources())
                        : PackedArrays.doubleCount(first.getDistances());
                assertEquals(firstChunkElements[q], elements, queries.get(q).getQueryId() + ": a full first chunk (seed " + SEED + ")");
                for (QueryResult c : a.chunks()) {
                    int bytes = FrontierCodec.encode(c).length;
                    assertTrue(bytes < MAX_REQUEST_BYTES, queries.get(q).getQueryId() + " chunk " + c.getChunkIndex() + ": "
                            + bytes + " bytes");
                }
            }
        }
    }
}
