package org.frontiergraph.worker.query;

import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every registered encoder's FULL answer comes back through {@link Answers} (Avro-encoded and decoded as a consumer
 * gets it, in several chunks, ids from 3): decoded by the encoder of its symbol into the engine's result and passed by
 * the engine module's verifier, with no algorithm named here; a tree's answered query is its source.
 */
class AnswersTest {
    private static final int FIRST = 3;
    private static Services services;
    private static CsrGraph graph;

    @BeforeAll
    static void install() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(150);
        config.setResultChunkEdges(100);
        services = Fixtures.start(config);
        EdgeList edges = UniformRandomGraph.generate(400, 1_200, 0x5eed_a115L, 50, false);
        services.install(snapshot("g", 1, edges, FIRST, 10_000), 0);
        graph = GraphBuilder.build(edges);
    }

    @AfterAll
    static void close() {
        services.close();
    }

    private static List<QueryResult> full(AnswerEncoder<?, ?> e) throws Exception {
        Integer source = e.shape().isTree() ? FIRST + 7 : null;
        GraphQuery q = query("q-" + e.algorithm(), "g", e.algorithm(), source).setResultMode(ResultMode.FULL).build();
        QueryAnswer a = services.queries().answer(q);
        assertEquals(ResultStatus.OK, a.status(), () -> e.algorithm() + ": " + a.error());
        assertTrue(a.chunks().size() > 1, e.algorithm() + " answers in several chunks here");
        List<QueryResult> received = new ArrayList<>();
        for (QueryResult c : a.chunks()) received.add(FrontierCodec.decode(FrontierCodec.encode(c), QueryResult.class));
        return received;
    }

    @Test
    void everyEncodersAnswerDecodesAndPassesItsModulesVerifier() throws Exception {
        assertFalse(AnswerEncoders.ALL.isEmpty());
        for (AnswerEncoder<?, ?> e : AnswerEncoders.ALL) {
            List<QueryResult> chunks = full(e);
            assertNotNull(e.shape(), e.algorithm() + " declares its answer's shape");
            Verification v = Answers.verify(graph, chunks);
            assertTrue(v.ok(), () -> e.algorithm() + ": " + v.message());
            AlgorithmModule<?, ?> m = Algorithms.named(e.algorithm().name()).orElseThrow();
            assertEquals(m.spec(), e.spec());
            Object decoded = e.decode(graph, chunks);
            assertEquals(Answers.decode(decoded.getClass(), graph, chunks).getClass(), decoded.getClass());
        }
    }

    @Test
    void aTreesAnsweredQueryIsItsSourceAndATypeMismatchIsRefused() throws Exception {
        List<QueryResult> sssp = full(AnswerEncoders.of(org.frontiergraph.schema.Algorithm.SSSP));
        assertEquals(7, Answers.decode(SsspResult.class, sssp).source());
        assertEquals(7, Answers.source(sssp.get(0)));
        assertThrows(ClassCastException.class, () -> Answers.decode(String.class, sssp));
        List<QueryResult> mst = full(AnswerEncoders.of(org.frontiergraph.schema.Algorithm.MST));
        assertThrows(IllegalArgumentException.class, () -> Answers.decode(Object.class, mst),
                "edges are decoded against the graph");
    }
}
