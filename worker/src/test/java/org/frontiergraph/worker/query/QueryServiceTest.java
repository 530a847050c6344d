package org.frontiergraph.worker.query;

import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Queries answered by the CPU engine through the service, turned back into engine results from their chunks and
 * checked by the verifiers; every failure is a named status with a reason.
 */
class QueryServiceTest {
    private static final long SEED = 0x5eed_0003L;
    private static final int CHUNK_VERTICES = 1_000;
    private static final int CHUNK_EDGES = 1_000;

    /** A graph installed in the registry, with the CSR the verifiers check against. */
    record Installed(String graphId, CsrGraph graph, int first) {
        @Override public String toString() { return graphId; }
    }

    private static Services services;
    private static final Map<String, Installed> GRAPHS = new HashMap<>();

    @BeforeAll
    static void install() throws IOException {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(CHUNK_VERTICES);
        config.setResultChunkEdges(CHUNK_EDGES);
        services = Fixtures.start(config);
        // undirected, nearly connected; directed and sparse (many unreachable vertices), ids starting at 5
        add("random-undirected", UniformRandomGraph.generate(20_000, 120_000, SEED, 1_000, false), 0);
        add("random-directed", UniformRandomGraph.generate(20_000, 30_000, SEED + 1, 1_000, true), 5);
        Optional<java.nio.file.Path> rome = Datasets.file(Datasets.ROME);
        if (rome.isPresent()) {
            LoadedGraph loaded = GraphFiles.read(rome.get());
            assertEquals(1, loaded.firstVertexId(), "DIMACS ids start at 1");
            add("rome99", loaded.edges(), loaded.firstVertexId());
        }
    }

    private static void add(String graphId, EdgeList edges, int first) {
        services.install(snapshot(graphId, 1, edges, first, 50_000), 0);
        GRAPHS.put(graphId, new Installed(graphId, GraphBuilder.build(edges), first));
    }

    @AfterAll
    static void close() {
        services.close();
    }

    static Stream<Installed> graphs() {
        return Stream.of("random-undirected", "random-directed", "rome99").map(GRAPHS::get).filter(java.util.Objects::nonNull);
    }

    /** Three seeded sources (internal ids), vertex 0 always among them. */
    private static int[] sources(Installed g) {
        Random r = new Random(SEED);
        return new int[] {0, r.nextInt(g.graph().vertexCount()), g.graph().vertexCount() - 1};
    }

    private static QueryAnswer answer(GraphQuery q) {
        return services.queries().answer(q);
    }

    private static QueryAnswer ok(GraphQuery q) {
        QueryAnswer a = answer(q);
        assertEquals(ResultStatus.OK, a.status(), () -> q.getQueryId() + ": " + a.error());
        assertNull(a.error());
        assertEquals("cpu", a.backend());
        assertTrue(a.computeNanos() >= 0 && a.encodeNanos() >= 0);
        for (QueryResult c : a.chunks()) {
            assertEquals(ResultStatus.OK, c.getStatus());
            assertEquals(q.getQueryId(), c.getQueryId());
            assertEquals(1, c.getGraphVersion());
            assertEquals("cpu", c.getBackend());
            assertEquals(q.getAlgorithm(), c.getAlgorithm());
        }
        return received(a);
    }

    /** The answer as a consumer receives it: every chunk Avro-encoded by the codec and decoded again. */
    private static QueryAnswer received(QueryAnswer a) {
        List<QueryResult> decoded = new ArrayList<>();
        for (QueryResult c : a.chunks()) {
            try {
                decoded.add(FrontierCodec.decode(FrontierCodec.encode(c), QueryResult.class));
            } catch (FrontierCodec.MalformedMessageException e) {
                throw new AssertionError(a + ": chunk " + c.getChunkIndex() + " does not decode", e);
            }
        }
        return new QueryAnswer(decoded, a.failure(), a.error(), a.backend(), a.vertexCount(), a.edgeCount(),
                a.computeNanos(), a.copyNanos(), a.encodeNanos(), a.engineNanos());
    }

    /** Dense FULL-mode chunks: indices 0..count-1, contiguous offsets, every array the chunk's length, all n covered. */
    private static void assertDenseChunks(List<QueryResult> chunks, Installed g) {
        int n = g.graph().vertexCount();
        int count = (n + CHUNK_VERTICES - 1) / CHUNK_VERTICES;
        assertEquals(count, chunks.size(), g + ": chunks of " + CHUNK_VERTICES + " vertices");
        int covered = 0;
        for (int i = 0; i < count; i++) {
            QueryResult c = chunks.get(i);
            assertEquals(i, c.getChunkIndex());
            assertEquals(count, c.getChunkCount());
            assertEquals(covered, c.getOffset(), g + ": offset of chunk " + i);
            assertEquals(n, c.getVertexCount());
            assertEquals(g.first(), c.getFirstVertexId());
            assertNull(c.getVertices(), "FULL mode lists no vertices");
            int len = Math.min(CHUNK_VERTICES, n - covered);
            assertEquals(len, PackedArrays.intCount(c.getParents()), g + ": parents in chunk " + i);
            if (c.getHops() != null) assertEquals(len, PackedArrays.intCount(c.getHops()));
            if (c.getDistances() != null) assertEquals(len, PackedArrays.doubleCount(c.getDistances()));
            covered += len;
        }
        assertEquals(n, covered);
    }

    @ParameterizedTest
    @MethodSource("graphs")
    void bfsFullIsVerified(Installed g) {
        for (int s : sources(g)) {
            QueryAnswer a = ok(query("bfs-" + s, g.graphId(), Algorithm.BFS, s + g.first()).build());
            assertDenseChunks(a.chunks(), g);
            assertNull(a.chunks().get(0).getDistances());
            BfsResult r = Answers.decode(BfsResult.class, a.chunks());
            Verification v = BfsVerifier.verify(g.graph(), s, r);
            assertTrue(v.ok(), () -> g + " (seed " + SEED + "), source " + s + ": " + v.message());
            assertUserIdParents(a.chunks(), g, s);
        }
    }

    @ParameterizedTest
    @MethodSource("graphs")
    void ssspFullIsVerified(Installed g) {
        for (int s : sources(g)) {
            QueryAnswer a = ok(query("sssp-" + s, g.graphId(), Algorithm.SSSP, s + g.first()).build());
            assertDenseChunks(a.chunks(), g);
            assertNull(a.chunks().get(0).getHops());
            SsspResult r = Answers.decode(SsspResult.class, a.chunks());
            Verification v = SsspVerifier.verify(g.graph(), s, r);
            assertTrue(v.ok(), () -> g + " (seed " + SEED + "), source " + s + ": " + v.message());
            assertUserIdParents(a.chunks(), g, s);
        }
    }

    /** Parents travel as user ids: the source's parent is its own user id; others are in range or -1. */
    private static void assertUserIdParents(List<QueryResult> chunks, Installed g, int source) {
        int n = g.graph().vertexCount();
        QueryResult holder = chunks.get(source / CHUNK_VERTICES);
        assertEquals(source + g.first(), PackedArrays.ints(holder.getParents()).get(source - holder.getOffset()),
                g + ": parent of the source");
        for (QueryResult c : chunks) {
            for (int p : PackedArrays.toIntArray(c.getParents())) {
                assertTrue(p == -1 || (p >= g.first() && p < g.first() + n), g + ": parent " + p + " is not a user id");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("graphs")
    void mstFullIsVerifiedAndChunkedByEdges(Installed g) {
        QueryAnswer a = ok(query("mst", g.graphId(), Algorithm.MST, null).build());
        MstResult reference = KruskalReference.run(g.graph());
        int edges = reference.edgeIds().length;
        int count = Math.max(1, (edges + CHUNK_EDGES - 1) / CHUNK_EDGES);
        assertEquals(count, a.chunks().size(), g + ": " + edges + " forest edges in chunks of " + CHUNK_EDGES);
        int covered = 0;
        for (int i = 0; i < count; i++) {
            QueryResult c = a.chunks().get(i);
            assertEquals(i, c.getChunkIndex());
            assertEquals(count, c.getChunkCount());
            assertEquals(covered, c.getOffset());
            assertEquals(reference.totalWeight(), c.getTotalWeight());
            assertEquals(reference.components(), c.getComponents());
            int len = PackedArrays.intCount(c.getMstEdges().getSources());
            assertEquals(Math.min(CHUNK_EDGES, edges - covered), len);
            assertEquals(len, PackedArrays.intCount(c.getMstEdges().getTargets()));
            assertEquals(len, PackedArrays.doubleCount(c.getMstEdges().getWeights()));
            covered += len;
        }
        MstResult r = Answers.decode(MstResult.class, g.graph(), a.chunks());
        Verification v = MstVerifier.verify(g.graph(), r, reference);
        assertTrue(v.ok(), () -> g + " (seed " + SEED + "): " + v.message());
    }

    @Test
    void romeKeepsOneBasedIds() {
        Installed g = GRAPHS.get("rome99");
        org.junit.jupiter.api.Assumptions.assumeTrue(g != null, "shared dataset rome99 not present");
        QueryAnswer a = ok(query("rome-bfs", "rome99", Algorithm.BFS, 1).build());
        QueryResult head = a.chunks().get(0);
        assertEquals(1, head.getFirstVertexId());
        assertEquals(1, head.getSource());
        assertEquals(0, PackedArrays.ints(head.getHops()).get(0), "user 1 is internal 0, the source");
        assertEquals(1, PackedArrays.ints(head.getParents()).get(0));
        assertEquals(0, Answers.decode(BfsResult.class, a.chunks()).source());
        QueryAnswer wrong = answer(query("rome-0", "rome99", Algorithm.BFS, 0).build());
        assertEquals(ResultStatus.INVALID_VERTEX, wrong.status(), "0 is not a vertex of a 1-based graph");
        int n = g.graph().vertexCount();
        assertEquals(ResultStatus.OK, answer(query("rome-n", "rome99", Algorithm.SSSP, n).build()).status());
        assertEquals(ResultStatus.INVALID_VERTEX, answer(query("rome-n1", "rome99", Algorithm.SSSP, n + 1).build()).status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"BFS", "SSSP"})
    void targetsModeAnswersOnlyTheListedVerticesInOrder(String algorithm) {
        Installed g = GRAPHS.get("random-directed");
        int n = g.graph().vertexCount(), first = g.first(), source = 3;
        BfsResult hops = BfsReference.run(g.graph(), source);
        SsspResult dist = DijkstraReference.run(g.graph(), source);
        // a short list in no particular order, with a repeat
        List<Integer> few = List.of(n - 1 + first, first, 17 + first, source + first, 17 + first);
        // and a long one spanning three chunks
        List<Integer> many = new ArrayList<>();
        Random r = new Random(SEED);
        for (int i = 0; i < 2 * CHUNK_VERTICES + 500; i++) many.add(first + r.nextInt(n));
        for (List<Integer> targets : List.of(few, many)) {
            QueryAnswer a = ok(query("targets", g.graphId(), Algorithm.valueOf(algorithm), source + first)
                    .setResultMode(ResultMode.TARGETS).setTargets(targets).build());
            int count = (targets.size() + CHUNK_VERTICES - 1) / CHUNK_VERTICES;
            assertEquals(count, a.chunks().size());
            List<Integer> listed = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                QueryResult c = a.chunks().get(i);
                assertEquals(i, c.getChunkIndex());
                assertEquals(count, c.getChunkCount());
                assertEquals(listed.size(), c.getOffset(), "TARGETS offsets index the target list");
                assertNotNull(c.getVertices());
                int[] vertices = PackedArrays.toIntArray(c.getVertices()), parents = PackedArrays.toIntArray(c.getParents());
                for (int k = 0; k < vertices.length; k++) {
                    int v = vertices[k] - first;
                    String where = algorithm + " target " + (listed.size() + k) + " (vertex " + v + ", seed " + SEED + ")";
                    if (algorithm.equals("BFS")) {
                        assertEquals(hops.hops()[v], PackedArrays.ints(c.getHops()).get(k), where);
                    } else {
                        assertEquals(dist.distances()[v], PackedArrays.doubles(c.getDistances()).get(k), where);
                    }
                    int p = parents[k];
                    boolean reached = algorithm.equals("BFS") ? hops.hops()[v] >= 0 : dist.distances()[v] != Double.POSITIVE_INFINITY;
                    assertEquals(reached, p != -1, where + ": parent " + p);
                    if (reached && v != source) {
                        assertTrue(g.graph().findArc(p - first, v) >= 0, where + ": parent " + p + " (user id) has no arc to it");
                    }
                }
                assertEquals(vertices.length, parents.length);
                for (int v : vertices) listed.add(v);
            }
            assertEquals(targets, listed, "exactly the targets, in order");
        }
    }

    @Test
    void summaryModeGivesCountsAndExtremes() {
        for (Installed g : graphs().toList()) {
            int s = sources(g)[1];
            BfsResult hops = BfsReference.run(g.graph(), s);
            SsspResult dist = DijkstraReference.run(g.graph(), s);
            long reached = java.util.Arrays.stream(hops.hops()).filter(h -> h >= 0).count();
            int maxHops = java.util.Arrays.stream(hops.hops()).max().orElseThrow();
            double maxDistance = java.util.Arrays.stream(dist.distances()).filter(d -> d != Double.POSITIVE_INFINITY).max().orElseThrow();

            QueryResult b = single(ok(query("sb", g.graphId(), Algorithm.BFS, s + g.first()).setResultMode(ResultMode.SUMMARY).build()));
            assertEquals(reached, b.getReachedCount(), g + " BFS from " + s);
            assertEquals(maxHops, b.getMaxHops(), g + " BFS from " + s);
            assertNull(b.getHops());
            assertNull(b.getParents());

            QueryResult d = single(ok(query("sd", g.graphId(), Algorithm.SSSP, s + g.first()).setResultMode(ResultMode.SUMMARY).build()));
            assertEquals(reached, d.getReachedCount(), g + " SSSP from " + s);
            assertEquals(maxDistance, d.getMaxDistance(), g + " SSSP from " + s);
            assertNull(d.getDistances());

            MstResult forest = KruskalReference.run(g.graph());
            QueryResult m = single(ok(query("sm", g.graphId(), Algorithm.MST, null).setResultMode(ResultMode.SUMMARY).build()));
            assertEquals(forest.totalWeight(), m.getTotalWeight());
            assertEquals(forest.components(), m.getComponents());
            assertNull(m.getMstEdges());
        }
    }

    private static QueryResult single(QueryAnswer a) {
        assertEquals(1, a.chunks().size());
        assertEquals(1, a.chunks().get(0).getChunkCount());
        return a.chunks().get(0);
    }

    /** A failed query: the status, one chunk carrying it with a reason, and no answer arrays. */
    private static QueryAnswer failed(ResultStatus status, GraphQuery q) {
        QueryAnswer a = answer(q);
        assertEquals(status, a.status(), () -> q.getQueryId() + ": " + a.error());
        assertNotNull(a.error());
        assertTrue(!a.error().isBlank());
        QueryResult c = single(a);
        assertEquals(status, c.getStatus());
        assertEquals(a.error(), c.getError());
        assertEquals(q.getQueryId(), c.getQueryId());
        assertNull(c.getHops());
        assertNull(c.getDistances());
        assertNull(c.getParents());
        assertNull(c.getMstEdges());
        return a;
    }

    @Test
    void errorsAreNamedStatusesWithReasons() {
        Installed g = GRAPHS.get("random-directed");
        int n = g.graph().vertexCount(), first = g.first();
        String id = g.graphId();

        QueryAnswer unknown = failed(ResultStatus.UNKNOWN_GRAPH, query("u", "no-such-graph", Algorithm.BFS, 0).build());
        assertEquals(-1, unknown.chunks().get(0).getGraphVersion());
        assertTrue(unknown.error().contains("no-such-graph"), unknown.error());

        failed(ResultStatus.INVALID_QUERY, query("no-source", id, Algorithm.BFS, null).build());
        failed(ResultStatus.INVALID_QUERY, query("no-source", id, Algorithm.SSSP, null).build());
        QueryAnswer below = failed(ResultStatus.INVALID_VERTEX, query("below", id, Algorithm.BFS, first - 1).build());
        assertTrue(below.error().contains(first + ".." + (first + n - 1)), below.error());
        failed(ResultStatus.INVALID_VERTEX, query("above", id, Algorithm.SSSP, first + n).build());
        failed(ResultStatus.INVALID_VERTEX, query("bad-target", id, Algorithm.SSSP, first)
                .setResultMode(ResultMode.TARGETS).setTargets(List.of(first, first + n)).build());
        failed(ResultStatus.INVALID_QUERY, query("no-targets", id, Algorithm.BFS, first)
                .setResultMode(ResultMode.TARGETS).build());

        failed(ResultStatus.DEADLINE_EXCEEDED, query("late", id, Algorithm.BFS, first)
                .setDeadlineEpochMs(System.currentTimeMillis() - 1_000).build());
        ok(query("in-time", id, Algorithm.BFS, first).setDeadlineEpochMs(System.currentTimeMillis() + 600_000).build());

        QueryAnswer variant = failed(ResultStatus.UNSUPPORTED, query("variant", id, Algorithm.SSSP, first)
                .setVariant("no-such-variant").build());
        assertTrue(variant.error().contains("no-such-variant"), variant.error());

        QueryAnswer gpu = failed(ResultStatus.UNSUPPORTED, query("gpu", id, Algorithm.BFS, first).setBackend("gpu").build());
        String why = gpu.error().substring(gpu.error().indexOf("no GPU engine: ") + "no GPU engine: ".length());
        assertTrue(gpu.error().contains("no GPU engine: ") && !why.isBlank(), "the reason says why there is no GPU: " + gpu.error());
        QueryAnswer bad = failed(ResultStatus.INVALID_QUERY, query("bad-backend", id, Algorithm.BFS, first).setBackend("quantum").build());
        assertTrue(bad.error().contains("quantum"), bad.error());
        ok(query("cpu", id, Algorithm.BFS, first).setBackend("CPU").build());
        ok(query("auto", id, Algorithm.MST, null).setBackend("auto").build());

        failed(ResultStatus.UNSUPPORTED, query("apsp-variant", id, Algorithm.APSP, null).setVariant("no-such-apsp").build());
    }

    @Test
    void answerCarriesTheGraphSizeForTheLatencyEvent() {
        Installed g = GRAPHS.get("random-undirected");
        QueryAnswer a = ok(query("size", g.graphId(), Algorithm.BFS, 0).build());
        assertEquals(g.graph().vertexCount(), a.vertexCount());
        assertEquals(g.graph().edgeCount(), a.edgeCount());
        assertEquals(0, PackedArrays.ints(a.chunks().get(0).getHops()).get(0));
    }
}
