package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.assertVerified;
import static org.frontiergraph.it.Pipeline.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The worker end to end against a real Kafka broker: chunked snapshots, updates and queries in, verified results,
 * latency and error events out; bad records become error events while every valid record is still answered.
 */
class WorkerPipelineIT extends WorkerIT {
    static final long SEED = 7;
    static final long CUT_AFTER_BYTES = 100_000;

    @BeforeAll
    static void start() {
        startWorker(Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "it-worker",
                "frontier.max-vertices", 1_000_000,
                "frontier.result-chunk-vertices", 1_000,
                "frontier.result-chunk-edges", 1_000,
                "frontier.topics.partitions", 3,
                "frontier.partition-concurrency", 3,
                // small, so that bursts of FULL answers are cut into several polls (the production default is 256 MiB)
                "frontier.max-batch-answer-bytes", CUT_AFTER_BYTES,
                "micronaut.server.port", -1));
    }

    @Test
    void chunkedSnapshotUpdatesAndQueriesGiveVerifiedAnswers() throws Exception {
        EdgeList edges = UniformRandomGraph.generate(5_000, 40_000, SEED, 100, false);
        CsrGraph v1 = GraphBuilder.build(edges);
        List<GraphSnapshotChunk> chunks = new ArrayList<>(FrontierClient.chunks("rand", 1, Snapshots.of(edges), 0, true, 3_000));
        assertTrue(chunks.size() >= 10, "expected a many-chunk snapshot");
        Collections.shuffle(chunks, new java.util.Random(SEED));   // chunks may arrive in any order
        LoadedGraph rome = Pipeline.rome();
        CsrGraph romeCsr = rome.toCsr();
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults();
             TopicWatcher<LatencyEvent> latency = client.watchLatency()) {
            client.publishChunks(chunks, null);
            client.publishSnapshot("rome", 1, Snapshots.of(rome.edges()), rome.firstVertexId(), true, null);
            GraphStatus loaded = awaitLoaded(status, "rand", 1);
            assertEquals(5_000, loaded.getVertexCount());
            assertEquals(v1.edgeCount(), loaded.getEdgeCount());
            awaitLoaded(status, "rome", 1);

            List<GraphQuery> qs = List.of(query("rand", Algorithm.BFS, 0), query("rand", Algorithm.SSSP, 17),
                    query("rand", Algorithm.MST, null), query("rome", Algorithm.BFS, 1),
                    query("rome", Algorithm.SSSP, 3353), query("rome", Algorithm.MST, null));
            qs.forEach(client::publishQuery);
            for (GraphQuery q : qs) {
                List<QueryResult> answer = await(results, q.getQueryId());
                assertVerified(answer, q.getGraphId().equals("rand") ? v1 : romeCsr, 1);
                assertEquals("cpu", answer.get(0).getBackend());
            }
            assertTrue(await(results, qs.get(0).getQueryId()).size() == 5, "5,000 vertices in chunks of 1,000");

            // every query has a latency event whose parts fit in its end-to-end time
            for (GraphQuery q : qs) {
                LatencyEvent e = latency.awaitFirst(x -> x.getQueryId().equals(q.getQueryId()), Pipeline.WAIT).orElseThrow();
                assertEquals(ResultStatus.OK, e.getStatus());
                assertTrue(e.getEndToEndMicros() >= e.getComputeMicros(), e::toString);
                assertTrue(e.getComputeMicros() > 0, e::toString);
                // the stages on the worker's clock: the engine call holds the engine's timing, the hand-over holds the call,
                // and poll -> hand-over -> acknowledgement fits in the end-to-end time (whole ms at both ends: 2 ms of slack)
                assertTrue(e.getEngineMicros() >= e.getComputeMicros() && e.getHandOverMicros() >= e.getEngineMicros(), e::toString);
                assertTrue(e.getPickupMicros() >= 0 && e.getAcknowledgeMicros() >= 0, e::toString);
                assertTrue(e.getPickupMicros() + e.getHandOverMicros() + e.getAcknowledgeMicros() <= e.getEndToEndMicros() + 2_000, e::toString);
            }

            // an update: remove, re-weight and add edges; the next answers are on version 2
            int u0 = v1.columns()[0] < 0 ? 0 : 0;
            int remV = v1.columns()[v1.rowStart(0)];
            int rwU = 1, rwV = v1.columns()[v1.rowStart(1)];
            GraphUpdate update = GraphUpdate.newBuilder().setGraphId("rand").setBaseVersion(1L)
                    .setRemoved(PackedArrays.edgeBatch(new int[] {u0}, new int[] {remV}, new double[0]))
                    .setReweighted(PackedArrays.edgeBatch(new int[] {rwU}, new int[] {rwV}, new double[] {1000.0}))
                    .setAdded(PackedArrays.edgeBatch(new int[] {2, 3}, new int[] {4_998, 4_999}, new double[] {0.5, 2.0}))
                    .build();
            CsrGraph v2 = GraphEdit.apply(v1, new int[] {u0}, new int[] {remV}, new int[] {rwU}, new int[] {rwV},
                    new double[] {1000.0}, new int[] {2, 3}, new int[] {4_998, 4_999}, new double[] {0.5, 2.0});
            client.publishUpdate(update);
            GraphQuery after = query("rand", Algorithm.SSSP, 2);
            client.publishQuery(after);
            assertVerified(await(results, after.getQueryId()), v2, 2);
            GraphQuery mst2 = query("rand", Algorithm.MST, null);
            client.publishQuery(mst2);
            assertVerified(await(results, mst2.getQueryId()), v2, 2);

            // TARGETS and SUMMARY modes
            GraphQuery targets = GraphQuery.newBuilder(query("rome", Algorithm.SSSP, 1))
                    .setResultMode(ResultMode.TARGETS).setTargets(List.of(3353, 2, 1)).build();
            client.publishQuery(targets);
            QueryResult t = await(results, targets.getQueryId()).get(0);
            double[] ref = DijkstraReference.run(romeCsr, 0).distances();
            assertArrayEquals(new int[] {3353, 2, 1}, PackedArrays.toIntArray(t.getVertices()));
            assertArrayEquals(new double[] {ref[3352], ref[1], 0.0}, PackedArrays.toDoubleArray(t.getDistances()));
            GraphQuery summary = GraphQuery.newBuilder(query("rome", Algorithm.BFS, 1)).setResultMode(ResultMode.SUMMARY).build();
            client.publishQuery(summary);
            QueryResult s = await(results, summary.getQueryId()).get(0);
            assertEquals(3353L, s.getReachedCount());
            assertNotNull(s.getMaxHops());
            assertEquals(null, s.getHops());
        }
    }

    /**
     * Two busy graphs on different partitions, their records interleaved (a re-weight then a query of each, 40 times):
     * the worker processes the two partitions side by side (frontier.partition-concurrency 3), and every answer is
     * on the version with exactly the updates published before it, and right on it (FULL answers by the verifiers,
     * SUMMARY and TARGETS against the references).
     */
    @Test
    void twoBusyGraphsOnDifferentPartitionsAreAnsweredSideBySide() throws Exception {
        String a = "busy-a", b = null;
        for (int i = 0; b == null; i++) {
            String candidate = "busy-b" + i;
            if (partitionOf(candidate) != partitionOf(a)) b = candidate;
        }
        String[] ids = {a, b};
        CsrGraph[] current = {
                GraphBuilder.build(UniformRandomGraph.generate(3_000, 12_000, SEED + 1, 50, false)),
                GraphBuilder.build(UniformRandomGraph.generate(3_000, 12_000, SEED + 2, 50, true))};
        java.util.Random rnd = new java.util.Random(SEED);
        record Asked(GraphQuery query, CsrGraph graph, long version) {}
        List<Asked> asked = new ArrayList<>();
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults()) {
            for (int g = 0; g < 2; g++) {
                EdgeList e = new EdgeList(current[g].vertexCount(), current[g].directed());
                for (int u = 0; u < current[g].vertexCount(); u++) {
                    for (int x = current[g].rowStart(u); x < current[g].rowEnd(u); x++) {
                        int v = current[g].columns()[x];
                        if (current[g].directed() || u < v) e.add(u, v, current[g].weights()[x]);
                    }
                }
                client.publishSnapshot(ids[g], 1, Snapshots.of(e), 0, true, null);
            }
            for (String id : ids) awaitLoaded(status, id, 1);
            Algorithm[] algorithms = {Algorithm.BFS, Algorithm.SSSP, Algorithm.SSSP, Algorithm.MST};
            ResultMode[] modes = {ResultMode.SUMMARY, ResultMode.SUMMARY, ResultMode.TARGETS, ResultMode.FULL};
            for (int i = 0; i < 40; i++) {
                for (int g = 0; g < 2; g++) {
                    CsrGraph c = current[g];
                    int u;
                    do u = rnd.nextInt(c.vertexCount()); while (c.degree(u) == 0);
                    int v = c.columns()[c.rowStart(u) + rnd.nextInt(c.degree(u))];
                    double w = 1 + rnd.nextInt(100);
                    client.publishUpdate(GraphUpdate.newBuilder().setGraphId(ids[g])
                            .setReweighted(PackedArrays.edgeBatch(new int[] {u}, new int[] {v}, new double[] {w})).build());
                    current[g] = GraphEdit.apply(c, new int[0], new int[0], new int[] {u}, new int[] {v},
                            new double[] {w}, new int[0], new int[0], new double[0]);
                    int k = (i + g) % algorithms.length;
                    GraphQuery q = GraphQuery.newBuilder(query(ids[g], algorithms[k],
                                    algorithms[k] == Algorithm.MST ? null : rnd.nextInt(c.vertexCount())))
                            .setResultMode(modes[k]).setTargets(modes[k] == ResultMode.TARGETS ? List.of(0, 1, 2_999) : List.of())
                            .build();
                    client.publishQuery(q);
                    asked.add(new Asked(q, current[g], i + 2));
                }
            }
            for (Asked x : asked) {
                List<QueryResult> answer = await(results, x.query().getQueryId());
                QueryResult h = answer.get(0);
                String where = x.query().getAlgorithm() + " " + x.query().getResultMode() + " on " + x.query().getGraphId();
                assertEquals(ResultStatus.OK, h.getStatus(), where + ": " + h.getError());
                assertEquals(x.version(), h.getGraphVersion(), where + ": the version with every update before it");
                switch (x.query().getResultMode()) {
                    case FULL -> assertVerified(answer, x.graph(), x.version());
                    case SUMMARY -> {
                        int source = x.query().getSource();
                        if (x.query().getAlgorithm() == Algorithm.BFS) {
                            long[] want = org.frontiergraph.kernels.bfs.BfsSummaries.summarize(
                                    org.frontiergraph.kernels.bfs.BfsReference.run(x.graph(), source).hops());
                            assertEquals(want[0], h.getReachedCount(), where);
                            assertEquals(want[1], (long) h.getMaxHops(), where);
                        } else {
                            double[] want = org.frontiergraph.kernels.sssp.SsspSummaries.summarize(
                                    DijkstraReference.run(x.graph(), source).distances());
                            assertEquals((long) want[0], h.getReachedCount(), where);
                            assertEquals(want[1], h.getMaxDistance(), 0.0, where);
                        }
                    }
                    case TARGETS -> {
                        double[] d = DijkstraReference.run(x.graph(), x.query().getSource()).distances();
                        assertArrayEquals(new double[] {d[0], d[1], d[2_999]}, PackedArrays.toDoubleArray(h.getDistances()), where);
                    }
                    default -> throw new AssertionError(where);
                }
            }
        }
    }

    /**
     * A burst of 100 FULL queries (60 KB of answer each) on a worker that may hold 100 KB of answers per partition and
     * poll: the worker stops once the answers in hand pass the limit and reads the rest again, so the burst spans
     * several polls (a poll's first run may take up to 64 records before the answers' size is known). Every
     * query is answered exactly once (as many result records as its chunk count), on the version with the update
     * published between the queries, and right; the worker counted the cut polls.
     */
    @Test
    void aBurstOfFullAnswersIsCutIntoPollsWithNothingLostOrRepeated() throws Exception {
        CsrGraph v1 = GraphBuilder.build(UniformRandomGraph.generate(5_000, 30_000, SEED + 3, 50, true));
        EdgeList e = new EdgeList(v1.vertexCount(), true);
        for (int u = 0; u < v1.vertexCount(); u++) {
            for (int x = v1.rowStart(u); x < v1.rowEnd(u); x++) e.add(u, v1.columns()[x], v1.weights()[x]);
        }
        io.micrometer.core.instrument.MeterRegistry meters = worker.context().getBean(io.micrometer.core.instrument.MeterRegistry.class);
        double cutBefore = meters.counter("frontier.polls.cut").count();
        int u = 7, v = v1.columns()[v1.rowStart(7)];
        CsrGraph v2 = GraphEdit.apply(v1, new int[0], new int[0], new int[] {u}, new int[] {v}, new double[] {0.25},
                new int[0], new int[0], new double[0]);
        record Asked(GraphQuery query, CsrGraph graph, long version) {}
        List<Asked> asked = new ArrayList<>();
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults()) {
            client.publishSnapshot("burst", 1, Snapshots.of(e), 0, true, null);
            awaitLoaded(status, "burst", 1);
            java.util.Random rnd = new java.util.Random(SEED);
            List<org.apache.avro.specific.SpecificRecord> burst = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                if (i == 50) {
                    burst.add(GraphUpdate.newBuilder().setGraphId("burst")
                            .setReweighted(PackedArrays.edgeBatch(new int[] {u}, new int[] {v}, new double[] {0.25})).build());
                }
                GraphQuery q = query("burst", Algorithm.SSSP, rnd.nextInt(v1.vertexCount()));
                burst.add(q);
                asked.add(i < 50 ? new Asked(q, v1, 1) : new Asked(q, v2, 2));
            }
            // one producer batch (the producer lingers until all are handed over), so the records reach the log, and the
            // worker's next poll, together: the cut does not depend on how fast the worker polls
            java.util.Properties lingering = FrontierClient.kafka(kafka.bootstrapServers());
            lingering.put("linger.ms", "1000");
            lingering.put("batch.size", Integer.toString(1 << 20));
            try (FrontierClient oneBatch = new FrontierClient(lingering, FrontierClient.Topics.defaults())) {
                oneBatch.publishAll(burst);
            }
            for (Asked x : asked) assertVerified(await(results, x.query().getQueryId()), x.graph(), x.version());
            GraphQuery last = query("burst", Algorithm.BFS, 0);   // answered after every record above was
            client.publishQuery(last);
            await(results, last.getQueryId());
            Map<String, Long> records = results.seen().stream()
                    .collect(Collectors.groupingBy(QueryResult::getQueryId, Collectors.counting()));
            for (Asked x : asked) {
                QueryResult first = await(results, x.query().getQueryId()).get(0);
                assertEquals((long) first.getChunkCount(), records.get(x.query().getQueryId()),
                        "query " + x.query().getQueryId() + ": each chunk published once");
            }
        }
        double cut = meters.counter("frontier.polls.cut").count() - cutBefore;
        assertTrue(cut >= 2, "100 answers of 60 KB under a 100 KB limit span several polls: " + cut + " cut");
    }

    /** The partition of {@code key} among the IT's 3, as Java's default partitioner puts it. */
    private static int partitionOf(String key) {
        return org.apache.kafka.common.utils.Utils.toPositive(
                org.apache.kafka.common.utils.Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % 3;
    }

    @Test
    void badRecordsBecomeErrorEventsAndTheWorkerKeepsAnswering() throws Exception {
        EdgeList small = UniformRandomGraph.generate(300, 1_500, SEED + 1, 10, true);
        CsrGraph good = GraphBuilder.build(small);
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            client.publishSnapshot("good", 1, Snapshots.of(small), 0, true, null);
            awaitLoaded(status, "good", 1);
            GraphQuery before = query("good", Algorithm.SSSP, 0);
            GraphQuery unknown = query("no-such-graph", Algorithm.BFS, 0);
            GraphQuery outOfRange = query("good", Algorithm.BFS, 300);
            GraphQuery after = query("good", Algorithm.BFS, 5);

            client.publishQuery(before);
            client.publishRaw("good", "not avro at all".getBytes(StandardCharsets.UTF_8));
            byte[] truncatedBody = FrontierCodec.encode(before);
            client.publishRaw("good", java.util.Arrays.copyOf(truncatedBody, 14));
            client.publishQuery(unknown);
            client.publishQuery(outOfRange);
            client.publishSnapshot("neg", 1, Snapshots.of(weighted(-1.0)), 0, true, null);
            client.publishSnapshot("nan", 1, Snapshots.of(weighted(Double.NaN)), 0, true, null);
            // truncated snapshot: two of three chunks of version 1, then a complete version 2
            List<GraphSnapshotChunk> trunc = FrontierClient.chunks("trunc", 1, Snapshots.of(small), 0, true, 600);
            client.publishChunks(trunc.subList(0, 2), null);
            client.publishSnapshot("trunc", 2, Snapshots.of(small), 0, true, null);
            // inconsistent snapshot: chunks disagree on the vertex count
            List<GraphSnapshotChunk> incons = FrontierClient.chunks("incons", 1, Snapshots.of(small), 0, true, 600);
            incons.get(1).setVertexCount(301);
            client.publishChunks(incons, null);
            // too large for this worker (max-vertices 1,000,000)
            GraphSnapshotChunk huge = FrontierClient.chunks("huge", 1, Snapshots.of(small), 0, true, 2_000).get(0);
            huge.setVertexCount(2_000_000);
            client.publishChunks(List.of(huge), null);
            // wrong key: a query for 'good' keyed by another graph would lose per-graph ordering
            client.publishRaw("other", FrontierCodec.encode(query("good", Algorithm.BFS, 0)));
            client.publishQuery(after);

            assertVerified(await(results, before.getQueryId()), good, 1);
            assertVerified(await(results, after.getQueryId()), good, 1);
            assertEquals(ResultStatus.UNKNOWN_GRAPH, await(results, unknown.getQueryId()).get(0).getStatus());
            QueryResult oor = await(results, outOfRange.getQueryId()).get(0);
            assertEquals(ResultStatus.INVALID_VERTEX, oor.getStatus());
            assertTrue(oor.getError().contains("0..299"), oor.getError());
            awaitLoaded(status, "trunc", 2);

            Set<String> expected = Set.of("MALFORMED_RECORD", "UNKNOWN_GRAPH", "INVALID_VERTEX", "INVALID_WEIGHT",
                    "INCOMPLETE_SNAPSHOT", "INVALID_SNAPSHOT", "GRAPH_TOO_LARGE", "INVALID_KEY");
            List<ErrorEvent> seen = errors.awaitUntil(l -> l.stream().map(ErrorEvent::getCode).collect(Collectors.toSet())
                    .containsAll(expected), Pipeline.WAIT);
            Map<String, List<ErrorEvent>> byCode = seen.stream().collect(Collectors.groupingBy(ErrorEvent::getCode));
            assertTrue(byCode.keySet().containsAll(expected), () -> "error codes seen: " + byCode.keySet());
            assertEquals(2, byCode.get("MALFORMED_RECORD").size(), "garbage and a truncated body");
            assertEquals(2, byCode.get("INVALID_WEIGHT").size(), "negative and NaN");
            for (ErrorEvent e : seen) {
                assertEquals("frontier.graphs", e.getSourceTopic());
                assertTrue(e.getOffset() >= 0 && e.getPartition() >= 0, e::toString);
                assertTrue(e.getReason().length() > 10, e::toString);
            }
            assertTrue(byCode.get("INCOMPLETE_SNAPSHOT").get(0).getReason().contains("chunks never arrived"),
                    () -> byCode.get("INCOMPLETE_SNAPSHOT").toString());
            // graphs that were rejected stay unknown; the worker answers them with a named status
            GraphQuery onNeg = query("neg", Algorithm.BFS, 0);
            client.publishQuery(onNeg);
            assertEquals(ResultStatus.UNKNOWN_GRAPH, await(results, onNeg.getQueryId()).get(0).getStatus());
        }
    }

    @Test
    void healthAndPrometheusMetricsAreServed() throws Exception {
        EdgeList e = UniformRandomGraph.generate(200, 800, SEED + 2, 10, false);
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<QueryResult> results = client.watchResults()) {
            client.publishSnapshot("metrics", 1, Snapshots.of(e), 0, true, null);
            awaitLoaded(status, "metrics", 1);
            GraphQuery q = query("metrics", Algorithm.BFS, 0);
            client.publishQuery(q);
            await(results, q.getQueryId());
        }
        int port = worker.context().getBean(io.micronaut.runtime.server.EmbeddedServer.class).getPort();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpResponse<String> health = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://localhost:" + port + "/health")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode(), health.body());
        assertTrue(health.body().contains("UP"), health.body());
        // the query is counted once its latency event is published, right after the result
        String metrics = "";
        long deadline = System.nanoTime() + Pipeline.WAIT.toNanos();
        while (!metrics.contains("frontier_queries_total{algorithm=\"BFS\",backend=\"cpu\",status=\"OK\"}")
                && System.nanoTime() < deadline) {
            metrics = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port + "/prometheus"))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        }
        assertTrue(metrics.contains("frontier_queries_total{algorithm=\"BFS\",backend=\"cpu\",status=\"OK\"}"), metrics.lines()
                .filter(l -> l.startsWith("frontier")).collect(Collectors.joining("\n")));
        assertTrue(metrics.contains("frontier_graphs_resident"), "graphs gauge");
        assertTrue(metrics.contains("frontier_graphs_bytes{backend=\"cpu\"}"), "bytes gauge");
        assertTrue(metrics.contains("frontier_query_end_to_end_seconds_bucket"), "latency histogram");
    }

    @Test
    void onlyHealthMetricsAndTheReadOnlyLiveViewAnswerOverHttp() throws Exception {
        int port = worker.context().getBean(io.micronaut.runtime.server.EmbeddedServer.class).getPort();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (String path : List.of("/health", "/health/liveness", "/health/readiness", "/prometheus", "/ui",
                "/ui/api/overview", "/ui/api/cluster")) {
            java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://localhost:" + port + path)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), path + ": " + r.body());
        }
        String readiness = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port
                + "/health/readiness")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(readiness.contains("frontier-partitions"), readiness);
        String liveness = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port
                + "/health/liveness")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(liveness.contains("frontier-consumer"), liveness);
        for (String path : List.of("/beans", "/routes", "/threaddump", "/env", "/loggers", "/info", "/metrics", "/caches",
                "/refresh", "/stop", "/health/../beans", "/ui", "/ui/api/overview", "/ui/api/cluster")) {
            for (String method : path.startsWith("/ui") ? List.of("POST", "PUT", "DELETE") : List.of("GET", "POST")) {
                java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create("http://localhost:" + port + path))
                        .method(method, java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                        .header("Content-Type", "application/json").build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertTrue(r.statusCode() >= 400, () -> method + " " + path + " answered " + r.statusCode() + ": " + r.body());
                assertTrue(!r.body().contains("org.frontiergraph") && !r.body().contains("threadName"),
                        () -> method + " " + path + " leaked: " + r.body());
            }
        }
    }

    /** A 3-vertex path whose middle edge has weight {@code w}. */
    static EdgeList weighted(double w) {
        EdgeList e = new EdgeList(3, true);
        e.add(0, 1, 1.0);
        e.add(1, 2, w);
        return e;
    }

    static Duration seconds(long s) { return Duration.ofSeconds(s); }
}
