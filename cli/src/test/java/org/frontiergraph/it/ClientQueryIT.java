package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.assertVerified;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.ClientProbe;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link FrontierClient#query} through a real broker and worker: one results reader for the client's life, shared
 * by sequential and concurrent calls, each answer checked by its algorithm's verifier (a CPU reference) and matched to
 * its own query; a call that times out leaves nothing behind. Answers come in chunks of 500 vertices (4 a graph).
 */
class ClientQueryIT extends WorkerIT {
    private static final int VERTICES = 2_000;
    private static CsrGraph graph;

    @BeforeAll
    static void start() {
        startWorker(Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "client-query-it",
                "frontier.result-chunk-vertices", 500,
                "frontier.result-chunk-edges", 500,
                "frontier.topics.partitions", 3,
                "frontier.partition-concurrency", 3,
                "micronaut.server.port", -1));
        EdgeList edges = UniformRandomGraph.generate(VERTICES, 10_000, 31, 100, false);
        graph = GraphBuilder.build(edges);
        try (TopicWatcher<GraphStatus> status = client.watchStatus()) {
            client.publishSnapshot("g", 1, Snapshots.of(edges), 0, true, null);
            awaitLoaded(status, "g", 1);
        }
    }

    /** The answer to {@code q}, every chunk its own, verified against the graph. */
    private static void assertAnswers(GraphQuery q, List<QueryResult> chunks) {
        assertEquals(VERTICES / 500, chunks.size(), "every chunk of " + q.getQueryId());
        for (int i = 0; i < chunks.size(); i++) {
            assertEquals(q.getQueryId(), chunks.get(i).getQueryId());
            assertEquals(i, chunks.get(i).getChunkIndex(), "chunk order");
        }
        assertEquals((int) q.getSource(), chunks.get(0).getSource(), "the answer from this query's source");
        assertVerified(chunks, graph, 1);
    }

    private static GraphQuery ask(int i) {
        return query("g", i % 2 == 0 ? Algorithm.BFS : Algorithm.SSSP, (i * 37) % VERTICES);
    }

    @Test
    void sequentialQueriesShareOneReaderAndAreEachAnswered() {
        try (FrontierClient c = new FrontierClient(kafka.bootstrapServers())) {
            assertEquals(0, ClientProbe.resultReadersOpened(c), "opened lazily, by the first query");
            for (int i = 0; i < 200; i++) {
                GraphQuery q = ask(i);
                assertAnswers(q, c.query(q, Pipeline.WAIT).orElseThrow(() -> new AssertionError("no answer to " + q.getQueryId())));
            }
            assertEquals(1, ClientProbe.resultReadersOpened(c), "one consumer for 200 queries");
            assertEquals(0, ClientProbe.pendingQueries(c));
        }
    }

    @Test
    void concurrentCallersGetEachTheirOwnAnswer() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (FrontierClient c = new FrontierClient(kafka.bootstrapServers())) {
            List<Future<List<String>>> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int first = 1000 + 10 * t;
                threads.add(pool.submit(() -> {
                    List<String> ids = new ArrayList<>();
                    for (int i = first; i < first + 10; i++) {
                        GraphQuery q = ask(i);
                        assertAnswers(q, c.query(q, Pipeline.WAIT).orElseThrow(() -> new AssertionError("no answer to " + q.getQueryId())));
                        ids.add(q.getQueryId());
                    }
                    return ids;
                }));
            }
            Set<String> ids = new HashSet<>();
            for (Future<List<String>> f : threads) ids.addAll(f.get());
            assertEquals(80, ids.size(), "distinct query ids, each answered");
            assertEquals(1, ClientProbe.resultReadersOpened(c), "the 8 threads share one consumer");
            assertEquals(0, ClientProbe.pendingQueries(c));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTimedOutQueryLeavesNothingPendingAndItsLateAnswerIsDropped() {
        try (FrontierClient c = new FrontierClient(kafka.bootstrapServers());
             TopicWatcher<QueryResult> results = client.watchResults()) {
            GraphQuery late = ask(7);
            assertTrue(c.query(late, Duration.ofNanos(1)).isEmpty(), "no answer within a nanosecond");
            assertEquals(0, ClientProbe.pendingQueries(c), "the timed-out call deregistered");
            // the worker still answers it: its chunks reach the topic, and the client's reader drops them
            List<QueryResult> arrived = FrontierClient.awaitResult(results, late.getQueryId(), Pipeline.WAIT)
                    .orElseThrow(() -> new AssertionError("the worker never answered " + late.getQueryId()));
            assertAnswers(late, arrived);
            GraphQuery next = ask(8);
            assertAnswers(next, c.query(next, Pipeline.WAIT).orElseThrow());
            assertEquals(0, ClientProbe.pendingQueries(c), "nothing kept of the late answer");
            // the same id asked again is answered afresh
            assertAnswers(late, c.query(late, Pipeline.WAIT).orElseThrow());
            assertEquals(1, ClientProbe.resultReadersOpened(c));
        }
    }
}
