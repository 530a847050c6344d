package org.frontiergraph.worker.query;

import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cc.CcVerifier;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.Cuda;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CC answers through the query service (CPU engine) in the three modes, every chunk Avro-encoded and decoded as a
 * consumer gets it, the labels turned back into an engine result and checked by {@link CcVerifier} against
 * {@link CcReference}. The graph: a sparse random directed graph (many components, isolated vertices, arcs taken as
 * undirected) with ids from 5, answered in chunks of 700 vertices. Where a GPU is present, the GPU engine's answers
 * pass the same checks.
 */
class CcAnswersTest {
    private static final long SEED = 0x5eed_00ccL;
    private static final int N = 5_000;
    private static final int FIRST = 5;
    private static final int CHUNK_VERTICES = 700;

    private static Services services;
    private static CsrGraph graph;
    private static CcResult reference;

    private static EdgeList edges() {
        return UniformRandomGraph.generate(N, 3_000, SEED, 100, true);
    }

    /** The services on {@code backend}, the graph installed as "cc". */
    private static Services start(String backend) {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setBackend(backend);
        config.setResultChunkVertices(CHUNK_VERTICES);
        Services s = Fixtures.start(config);
        s.install(snapshot("cc", 1, edges(), FIRST, 50_000), 0);
        return s;
    }

    @BeforeAll
    static void install() {
        services = start("cpu");
        graph = GraphBuilder.build(edges());
        reference = CcReference.run(graph);
        assertTrue(reference.components() > 100 && reference.largest() > 10, "several components, a large one: "
                + reference.components() + ", " + reference.largest());
    }

    @AfterAll
    static void close() {
        services.close();
    }

    private static List<QueryResult> ok(GraphQuery q) {
        return ok(services, q);
    }

    /** The chunks as a consumer receives them, each encoded by the codec and decoded again. */
    private static List<QueryResult> ok(Services s, GraphQuery q) {
        QueryAnswer a = s.queries().answer(q);
        assertEquals(ResultStatus.OK, a.status(), () -> q.getQueryId() + ": " + a.error());
        return received(a.chunks());
    }

    private static List<QueryResult> received(List<QueryResult> chunks) {
        List<QueryResult> out = new ArrayList<>();
        for (QueryResult c : chunks) {
            try {
                out.add(FrontierCodec.decode(FrontierCodec.encode(c), QueryResult.class));
            } catch (FrontierCodec.MalformedMessageException e) {
                throw new AssertionError("chunk " + c.getChunkIndex() + " does not decode", e);
            }
        }
        return out;
    }

    /** A FULL answer's labels, back in 0-based ids, as the engine's result (its counts from the labels). */
    static CcResult decode(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int[] labels = new int[head.getVertexCount()];
        for (QueryResult c : chunks) PackedArrays.copy(c.getLabels(), labels, c.getOffset());
        for (int v = 0; v < labels.length; v++) labels[v] -= head.getFirstVertexId();
        return CcResult.of(labels, Timing.NONE);
    }

    @Test
    void fullAnswersAreChunkedByVerticesAndPassTheVerifier() {
        List<QueryResult> chunks = ok(query("full", "cc", Algorithm.CC, null).build());
        int count = (N + CHUNK_VERTICES - 1) / CHUNK_VERTICES;
        assertEquals(count, chunks.size());
        int covered = 0;
        for (int i = 0; i < count; i++) {
            QueryResult c = chunks.get(i);
            assertEquals(i, c.getChunkIndex());
            assertEquals(count, c.getChunkCount());
            assertEquals(Algorithm.CC, c.getAlgorithm());
            assertEquals(covered, c.getOffset());
            assertEquals(FIRST, c.getFirstVertexId());
            assertNull(c.getVertices(), "FULL lists no vertices");
            assertNull(c.getSource());
            assertEquals(Math.min(CHUNK_VERTICES, N - covered), PackedArrays.intCount(c.getLabels()));
            assertEquals(reference.components(), c.getComponents(), "the count in every chunk");
            assertEquals(reference.largest(), c.getLargestComponent(), "the largest size in every chunk");
            covered += PackedArrays.intCount(c.getLabels());
        }
        assertEquals(N, covered);
        assertEquals(FIRST, PackedArrays.ints(chunks.get(0).getLabels()).get(0), "vertex 5 labels its own component");
        CcResult decoded = decode(chunks);
        Verification v = CcVerifier.verify(graph, decoded, reference);
        assertTrue(v.ok(), v.message());
    }

    @Test
    void summaryAnswersCarryTheCountsOnly() {
        for (String variant : new String[] {null, "default"}) {   // both name the default: Cc.SUMMARY answers
            QueryResult s = single(ok(query("summary-" + variant, "cc", Algorithm.CC, null)
                    .setResultMode(ResultMode.SUMMARY).setVariant(variant).build()));
            assertEquals(reference.components(), s.getComponents(), "variant " + variant);
            assertEquals(reference.largest(), s.getLargestComponent(), "variant " + variant);
            assertNull(s.getLabels());
        }
    }

    @Test
    void targetsAnswersGiveTheLabelsInTheOrderAsked() {
        Random r = new Random(SEED);
        List<Integer> targets = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) targets.add(FIRST + r.nextInt(N));
        targets.add(FIRST + N - 1);
        targets.add(FIRST);   // repeats and the ends allowed
        targets.add(FIRST);
        List<QueryResult> chunks = ok(query("targets", "cc", Algorithm.CC, null).setResultMode(ResultMode.TARGETS)
                .setTargets(targets).build());
        assertEquals((targets.size() + CHUNK_VERTICES - 1) / CHUNK_VERTICES, chunks.size());
        List<Integer> listed = new ArrayList<>(), labels = new ArrayList<>();
        for (QueryResult c : chunks) {
            assertEquals(listed.size(), c.getOffset(), "offset: the position in the targets");
            var v = PackedArrays.ints(c.getVertices());
            var l = PackedArrays.ints(c.getLabels());
            assertEquals(v.limit(), l.limit());
            for (int i = 0; i < v.limit(); i++) {
                listed.add(v.get(i));
                labels.add(l.get(i));
            }
            assertNull(c.getComponents(), "TARGETS: the labels asked for only");
        }
        assertEquals(targets, listed);
        for (int i = 0; i < targets.size(); i++) {
            assertEquals(reference.labels()[targets.get(i) - FIRST] + FIRST, labels.get(i), "label of " + targets.get(i));
        }
    }

    @Test
    void theModesOfOneRunAgreeWithEachOther() {
        List<GraphQuery> run = List.of(
                query("a", "cc", Algorithm.CC, null).build(),
                query("b", "cc", Algorithm.CC, null).setResultMode(ResultMode.TARGETS).setTargets(List.of(FIRST + 7)).build(),
                query("c", "cc", Algorithm.CC, null).setResultMode(ResultMode.SUMMARY).build());
        List<QueryAnswer> answers = services.queries().answerAll(run);
        CcResult full = decode(received(answers.get(0).chunks()));
        assertArrayEquals(reference.labels(), full.labels());
        QueryResult t = single(received(answers.get(1).chunks()));
        assertEquals(full.labels()[7] + FIRST, PackedArrays.ints(t.getLabels()).get(0));
        QueryResult s = single(received(answers.get(2).chunks()));
        assertEquals((long) full.components(), s.getComponents());
        assertEquals((long) full.largest(), s.getLargestComponent());
    }

    @Test
    void gpuAnswersPassTheSameChecks() {
        Optional<String> why = Cuda.unavailableReason();
        assumeTrue(why.isEmpty(), () -> "no GPU engine here: " + why.orElse(""));
        try (Services gpu = start("gpu")) {
            List<QueryResult> full = ok(gpu, query("gpu-full", "cc", Algorithm.CC, null).build());
            assertEquals("gpu", full.get(0).getBackend());
            Verification v = CcVerifier.verify(graph, decode(full), reference);
            assertTrue(v.ok(), v.message());
            assertEquals(reference.components(), full.get(0).getComponents());
            assertEquals(reference.largest(), full.get(0).getLargestComponent());
            QueryResult s = single(ok(gpu, query("gpu-summary", "cc", Algorithm.CC, null)
                    .setResultMode(ResultMode.SUMMARY).build()));
            assertEquals(reference.components(), s.getComponents());
            assertEquals(reference.largest(), s.getLargestComponent());
            QueryResult t = single(ok(gpu, query("gpu-targets", "cc", Algorithm.CC, null)
                    .setResultMode(ResultMode.TARGETS).setTargets(List.of(FIRST + N - 1, FIRST)).build()));
            var labels = PackedArrays.ints(t.getLabels());
            assertEquals(reference.labels()[N - 1] + FIRST, labels.get(0));
            assertEquals(FIRST, labels.get(1));
        }
    }

    @Test
    void invalidQueriesAreRefusedWithReasons() {
        QueryAnswer source = services.queries().answer(query("with-source", "cc", Algorithm.CC, FIRST).build());
        assertEquals(ResultStatus.INVALID_QUERY, source.status());
        assertTrue(source.error().contains("whole graph"), source.error());
        QueryAnswer noTargets = services.queries().answer(query("no-targets", "cc", Algorithm.CC, null)
                .setResultMode(ResultMode.TARGETS).build());
        assertEquals(ResultStatus.INVALID_QUERY, noTargets.status(), noTargets.error());
        QueryAnswer outside = services.queries().answer(query("outside", "cc", Algorithm.CC, null)
                .setResultMode(ResultMode.TARGETS).setTargets(List.of(FIRST, FIRST + N)).build());
        assertEquals(ResultStatus.INVALID_VERTEX, outside.status(), outside.error());
        QueryAnswer variant = services.queries().answer(query("variant", "cc", Algorithm.CC, null)
                .setVariant("no-such-cc").build());
        assertEquals(ResultStatus.UNSUPPORTED, variant.status(), variant.error());
    }

    private static QueryResult single(List<QueryResult> chunks) {
        assertEquals(1, chunks.size());
        assertEquals(1, chunks.get(0).getChunkCount());
        return chunks.get(0);
    }
}
