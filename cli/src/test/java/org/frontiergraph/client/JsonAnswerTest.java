package org.frontiergraph.client;

import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JSON a user reads, parsed back with Jackson: user ids as keys, null for unreachable, values equal to the
 * engine's. The graph (ids 1..5, directed): 1->2 (1.5), 2->3 (2), 1->3 (5), 4->5 (1); from 1, vertices 4 and 5
 * are unreachable.
 */
class JsonAnswerTest {
    private static final long SEED = 0x5eed_0005L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Services services;

    JsonAnswerTest() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(2);  // three chunks for five vertices: keys must still run 1..5
        config.setResultChunkEdges(1);
        services = Fixtures.start(config);
        services.install(List.of(chunk("small", 1, 0, 1, 5, 4, true, 1, 1, 2, 1.5, 2, 3, 2, 1, 3, 5, 4, 5, 1)), 0);
    }

    @AfterEach
    void close() {
        services.close();
    }

    private JsonNode json(GraphQuery q) throws IOException {
        List<QueryResult> chunks = services.queries().answer(q).chunks();
        StringWriter out = new StringWriter();
        JsonAnswer.write(chunks, out);
        assertTrue(out.toString().endsWith("}\n"));
        return JSON.readTree(out.toString());
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void ssspHasDistancesByUserIdWithNullForUnreachable() throws IOException {
        JsonNode j = json(query("s1", "small", Algorithm.SSSP, 1).build());
        assertEquals("OK", j.get("status").asText());
        assertEquals("SSSP", j.get("algorithm").asText());
        assertEquals("cpu", j.get("backend").asText());
        assertEquals(1, j.get("graphVersion").asLong());
        assertEquals(1, j.get("source").asInt());
        JsonNode d = j.get("distances");
        assertEquals(List.of("1", "2", "3", "4", "5"), keys(d));
        assertEquals(0.0, d.get("1").asDouble());
        assertEquals(1.5, d.get("2").asDouble());
        assertEquals(3.5, d.get("3").asDouble());
        assertTrue(d.get("4").isNull() && d.get("5").isNull(), d.toString());
        JsonNode p = j.get("parents");
        assertEquals(List.of("1", "2", "3", "4", "5"), keys(p));
        assertEquals(1, p.get("1").asInt());
        assertEquals(1, p.get("2").asInt());
        assertEquals(2, p.get("3").asInt());
        assertTrue(p.get("4").isNull() && p.get("5").isNull());
        assertFalse(j.has("hops"));
    }

    @Test
    void bfsHasHops() throws IOException {
        JsonNode j = json(query("b1", "small", Algorithm.BFS, 1).build());
        JsonNode h = j.get("hops");
        assertEquals(List.of("1", "2", "3", "4", "5"), keys(h));
        assertEquals(0, h.get("1").asInt());
        assertEquals(1, h.get("2").asInt());
        assertEquals(1, h.get("3").asInt(), "1->3 is one hop, though the shortest distance goes through 2");
        assertTrue(h.get("4").isNull() && h.get("5").isNull());
        assertEquals(1, j.get("parents").get("3").asInt());
        assertFalse(j.has("distances"));

        JsonNode from4 = json(query("b4", "small", Algorithm.BFS, 4).build()).get("hops");
        assertEquals(0, from4.get("4").asInt());
        assertEquals(1, from4.get("5").asInt());
        assertTrue(from4.get("1").isNull());
    }

    @Test
    void mstHasTotalWeightComponentsAndEdgesInUserIds() throws IOException {
        JsonNode j = json(query("m", "small", Algorithm.MST, null).build());
        assertEquals(4.5, j.get("totalWeight").asDouble());
        assertEquals(2, j.get("components").asInt(), "{1,2,3} and {4,5}");
        Set<String> edges = new HashSet<>();
        for (JsonNode e : j.get("edges")) {
            assertEquals(3, e.size());
            int u = e.get(0).asInt(), v = e.get(1).asInt();
            edges.add(Math.min(u, v) + "-" + Math.max(u, v) + ":" + e.get(2).asDouble());
        }
        assertEquals(Set.of("1-2:1.5", "2-3:2.0", "4-5:1.0"), edges, "three chunks of one edge, all written");
    }

    @Test
    void apspIsOneArrayPerSourceInIdOrder() throws IOException {
        JsonNode j = json(query("a", "small", Algorithm.APSP, null).build());
        JsonNode d = j.get("distances");
        assertEquals(List.of("1", "2", "3", "4", "5"), keys(d), "five rows, one chunk each");
        List<String> row1 = new ArrayList<>();
        d.get("1").forEach(x -> row1.add(x.isNull() ? "null" : x.asText()));
        assertEquals(List.of("0", "1.5", "3.5", "null", "null"), row1);
        assertEquals(1.0, d.get("4").get(4).asDouble());
        assertTrue(d.get("5").get(0).isNull());
    }

    @Test
    void targetsAndSummaryModes() throws IOException {
        JsonNode t = json(query("t", "small", Algorithm.SSSP, 1).setResultMode(ResultMode.TARGETS)
                .setTargets(List.of(5, 3, 1)).build());
        assertEquals(List.of("5", "3", "1"), keys(t.get("distances")));
        assertTrue(t.get("distances").get("5").isNull());
        assertEquals(3.5, t.get("distances").get("3").asDouble());

        JsonNode s = json(query("s", "small", Algorithm.SSSP, 1).setResultMode(ResultMode.SUMMARY).build());
        assertEquals(3, s.get("reached").asLong());
        assertEquals(3.5, s.get("maxDistance").asDouble());
        assertFalse(s.has("distances"));
    }

    @Test
    void failureCarriesStatusAndAnEscapedReason() throws IOException {
        String odd = "q \"quoted\"\n\ttabbed \\ \u0001";
        JsonNode j = json(query(odd, "small", Algorithm.BFS, 99).build());
        assertEquals(odd, j.get("queryId").asText(), "quotes, control characters and backslashes survive");
        assertEquals(ResultStatus.INVALID_VERTEX.name(), j.get("status").asText());
        assertTrue(j.get("error").asText().contains("99"), j.toString());
        assertFalse(j.has("hops"));
    }

    @Test
    void randomGraphDistancesRoundTrip() throws IOException {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(700);
        try (Services big = Fixtures.start(config)) {
            EdgeList edges = UniformRandomGraph.generate(3_000, 6_000, SEED, 1_000, true);
            big.install(snapshot("r", 1, edges, 1, 50_000), 0);
            CsrGraph g = GraphBuilder.build(edges);
            SsspResult ref = DijkstraReference.run(g, 10);
            List<QueryResult> chunks = big.queries().answer(query("r", "r", Algorithm.SSSP, 11).build()).chunks();
            assertEquals(5, chunks.size());
            StringWriter out = new StringWriter();
            JsonAnswer.write(chunks, out);
            JsonNode d = JSON.readTree(out.toString()).get("distances");
            assertEquals(3_000, d.size());
            int unreachable = 0;
            for (int v = 0; v < 3_000; v++) {
                JsonNode x = d.get(Integer.toString(v + 1));
                String where = "seed " + SEED + ", vertex " + (v + 1);
                if (ref.distances()[v] == Double.POSITIVE_INFINITY) {
                    assertTrue(x.isNull(), where);
                    unreachable++;
                } else {
                    assertEquals(ref.distances()[v], x.asDouble(), where);
                }
            }
            assertTrue(unreachable > 0, "the sparse directed graph leaves some vertices unreachable");
        }
    }
}
