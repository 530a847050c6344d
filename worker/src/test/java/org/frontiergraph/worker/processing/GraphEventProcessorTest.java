package org.frontiergraph.worker.processing;

import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.frontiergraph.worker.support.Fixtures.pairs;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.frontiergraph.worker.support.Fixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.query.Answers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One record in, the outputs to publish out; a bad record becomes an error event and never an exception. */
class GraphEventProcessorTest {
    private static final long SEED = 0x5eed_0004L;
    private static final String TOPIC = "frontier.graphs";
    private static final int PARTITION = 2;

    private final Services services = Fixtures.start(Fixtures.cpuConfig());
    private long nextOffset = 100;

    @AfterEach
    void close() {
        services.close();
    }

    private InputRecord raw(String key, byte[] value) {
        return new InputRecord(TOPIC, PARTITION, nextOffset++, key, value, System.currentTimeMillis());
    }

    private InputRecord record(String key, SpecificRecord value) {
        return raw(key, FrontierCodec.encode(value));
    }

    private Outputs process(InputRecord in) {
        return services.processor().process(in, false);
    }

    private Outputs replay(InputRecord in) {
        return services.processor().process(in, true);
    }

    private double errorCount(String code) {
        Counter c = services.meters().find("frontier.errors").tag("code", code).counter();
        return c == null ? 0 : c.count();
    }

    /** Asserts exactly one error event, for this record, with this code; returns it. */
    private static ErrorEvent onlyError(Outputs out, InputRecord in, String code) {
        assertEquals(1, out.errors().size(), () -> "errors: " + out.errors());
        ErrorEvent e = out.errors().get(0);
        assertEquals(code, e.getCode(), e.getReason());
        assertEquals(TOPIC, e.getSourceTopic());
        assertEquals(in.partition(), e.getPartition());
        assertEquals(in.offset(), e.getOffset());
        assertEquals(in.key(), e.getKey());
        assertTrue(e.getReason() != null && !e.getReason().isBlank());
        assertTrue(out.results().isEmpty());
        assertTrue(out.statuses().isEmpty());
        assertNull(out.answered());
        return e;
    }

    /** The first arc of the first vertex that has one. */
    private static int[] anyEdge(CsrGraph g) {
        for (int u = 0; u < g.vertexCount(); u++) {
            if (g.degree(u) > 0) return new int[] {u, g.columns()[g.rowStart(u)]};
        }
        throw new AssertionError("graph has no edge");
    }

    static Stream<Arguments> malformed() {
        byte[] chunk = FrontierCodec.encode(chunk("g", 1, 0, 1, 4, 3, true, 0, 0, 1, 1, 1, 2, 1, 2, 3, 1));
        byte[] unknownFingerprint = Arrays.copyOf(chunk, chunk.length);
        for (int i = 2; i < 10; i++) unknownFingerprint[i] = (byte) (0x5a + i);
        byte[] registryFraming = new byte[20];
        byte[] text = "{\"graphId\":\"g\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return Stream.of(
                Arguments.of("empty", new byte[0]),
                Arguments.of("shorter than the header", new byte[] {(byte) 0xC3, 0x01, 1, 2, 3}),
                Arguments.of("schema-registry framing", registryFraming),
                Arguments.of("JSON text", text),
                Arguments.of("unknown fingerprint", unknownFingerprint),
                Arguments.of("truncated body", Arrays.copyOf(chunk, chunk.length - 9)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedBytesBecomeOneErrorEvent(String name, byte[] bytes) {
        InputRecord in = raw("g", bytes);
        ErrorEvent e = onlyError(process(in), in, "MALFORMED_RECORD");
        assertNull(e.getGraphId());
        assertNull(e.getQueryId());
        assertEquals(1.0, errorCount("MALFORMED_RECORD"));
        assertEquals(0, services.registry().size());
    }

    @Test
    void aPackedArrayThatIsNotWholeElementsIsRejectedAndTheWorkerCarriesOn() {
        GraphSnapshotChunk good = chunk("g", 1, 0, 1, 4, 3, true, 0, 0, 1, 1, 1, 2, 1, 2, 3, 1);
        GraphSnapshotChunk cut = GraphSnapshotChunk.newBuilder(good).setEdges(EdgeBatch.newBuilder(good.getEdges())
                .setSources(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0})).build()).build();
        InputRecord snap = record("g", cut);
        ErrorEvent e = onlyError(process(snap), snap, "INVALID_SNAPSHOT");
        assertTrue(e.getReason().contains("edges.sources") && e.getReason().contains("11 bytes"), e.getReason());
        assertEquals(1, process(record("g", good)).statuses().size(), "the well-formed snapshot still loads");

        InputRecord update = record("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(EdgeBatch.newBuilder(
                weighted(0, 1, 5)).setWeights(ByteBuffer.allocate(4)).build()).build());
        ErrorEvent u = onlyError(process(update), update, "INVALID_UPDATE");
        assertTrue(u.getReason().contains("'reweighted'") && u.getReason().contains("multiple of 8"), u.getReason());
        assertEquals(1, services.registry().get("g").orElseThrow().version(), "the malformed update changed nothing");
    }

    /**
     * A snapshot over the worker's limits (here its pending-snapshot buffer) is refused once: one GRAPH_TOO_LARGE error
     * event and one REJECTED status with the reason, at the first chunk; its other chunks publish nothing (counted),
     * in replay too; a newer version that fits loads.
     */
    @Test
    void aRefusedSnapshotIsReportedOnceWithARejectedStatus() {
        services.close();
        FrontierConfig config = Fixtures.cpuConfig();
        config.setMaxPendingSnapshotBytes(10_000);   // the first chunk of 1,000 edges does not fit
        try (Services small = Fixtures.start(config)) {
            EdgeList big = UniformRandomGraph.generate(500, 8_000, SEED, 9, true);
            List<ErrorEvent> errors = new java.util.ArrayList<>();
            List<GraphStatus> statuses = new java.util.ArrayList<>();
            List<GraphSnapshotChunk> chunks = snapshot("big", 3, big, 0, 1_000);
            for (GraphSnapshotChunk c : chunks) {
                Outputs out = small.processor().process(record("big", c), false);
                errors.addAll(out.errors());
                statuses.addAll(out.statuses());
            }
            assertEquals(1, errors.size(), "one error event for the version: " + errors);
            assertEquals("GRAPH_TOO_LARGE", errors.get(0).getCode());
            assertEquals(1, statuses.size(), "one status for the version");
            GraphStatus rejected = statuses.get(0);
            assertEquals(GraphState.REJECTED, rejected.getState());
            assertEquals(3, rejected.getVersion());
            assertEquals(8_000, rejected.getEdgeCount());
            assertEquals(errors.get(0).getReason(), rejected.getReason());
            assertEquals(chunks.size() - 1.0, small.meters().find("frontier.snapshots.refused.chunks").functionCounter().count());
            assertEquals(1.0, small.meters().find("frontier.errors").tag("code", "GRAPH_TOO_LARGE").counter().count());
            for (GraphSnapshotChunk c : chunks) assertTrue(small.processor().process(record("big", c), true).isEmpty());
            EdgeList fits = UniformRandomGraph.generate(500, 600, SEED, 9, true);
            Outputs loaded = Outputs.NONE;
            for (GraphSnapshotChunk c : snapshot("big", 4, fits, 0, 1_000)) loaded = small.processor().process(record("big", c), false);
            assertEquals(GraphState.LOADED, loaded.statuses().get(0).getState(), "a newer version is considered afresh");
            assertTrue(small.registry().get("big").isPresent());
        }
    }

    @Test
    void aMessageTypeThatDoesNotBelongOnTheGraphsTopicIsMalformed() {
        SpecificRecord status = GraphStatus.newBuilder().setGraphId("g").setVersion(1).setState(GraphState.LOADED)
                .setVertexCount(1).setEdgeCount(0).setBackend("cpu").setResidentBytes(0).setWorker("w").setTimestampMs(0).build();
        InputRecord in = record("g", status);
        ErrorEvent e = onlyError(process(in), in, "MALFORMED_RECORD");
        assertTrue(e.getReason().contains("GraphStatus"), e.getReason());
    }

    @Test
    void keyDifferentFromTheGraphIdIsInvalidKey() {
        InputRecord snap = record("other", chunk("g", 1, 0, 1, 3, 1, true, 0, 0, 1, 1));
        ErrorEvent e = onlyError(process(snap), snap, "INVALID_KEY");
        assertEquals("g", e.getGraphId());
        assertTrue(services.registry().get("g").isEmpty(), "a mis-keyed snapshot is not applied");
        InputRecord unkeyed = record(null, chunk("g", 1, 0, 1, 3, 1, true, 0, 0, 1, 1));
        onlyError(process(unkeyed), unkeyed, "INVALID_KEY");

        process(record("g", chunk("g", 1, 0, 1, 3, 1, true, 0, 0, 1, 1)));
        InputRecord update = record("G", GraphUpdate.newBuilder().setGraphId("g").setAdded(weighted(1, 2, 1)).build());
        onlyError(process(update), update, "INVALID_KEY");
        assertEquals(1, services.registry().get("g").orElseThrow().version());
        assertEquals(3.0, errorCount("INVALID_KEY"));
    }

    @Test
    void aQueryKeyedByAnotherGraphIsAnsweredInvalidKeySoItsClientDoesNotHang() {
        process(record("g", chunk("g", 1, 0, 1, 3, 1, true, 0, 0, 1, 1)));
        InputRecord q = record("other", query("q1", "g", Algorithm.BFS, 0).build());
        Outputs out = process(q);
        assertEquals(1, out.results().size(), "one failed result chunk");
        QueryResult r = out.results().get(0);
        assertEquals(ResultStatus.INVALID_KEY, r.getStatus());
        assertEquals("q1", r.getQueryId());
        assertEquals("g", r.getGraphId());
        assertEquals(0, r.getChunkIndex());
        assertEquals(1, r.getChunkCount());
        assertTrue(r.getError().contains("'other'"), r.getError());
        assertEquals(1, out.errors().size());
        ErrorEvent e = out.errors().get(0);
        assertEquals("INVALID_KEY", e.getCode());
        assertEquals("q1", e.getQueryId());
        assertEquals(q.offset(), e.getOffset());
        assertEquals("other", e.getKey());
        assertEquals(ResultStatus.INVALID_KEY, out.answered().status());
        assertEquals(1.0, errorCount("INVALID_KEY"));
    }

    @Test
    void runningOutOfMemoryOnARecordIsAnErrorEventAndItsNeighboursAreAnswered() {
        FrontierConfig config = Fixtures.cpuConfig();
        int[] loads = {0};
        EngineService failingOnce = new EngineService(config) {
            @Override
            public ResidentGraph load(CsrGraph graph) {
                if (loads[0]++ == 0) throw new OutOfMemoryError("Java heap space (thrown by the test)");
                return super.load(graph);
            }
        };
        try (Services oom = Fixtures.start(config, failingOnce)) {
            InputRecord first = record("g", chunk("g", 1, 0, 1, 3, 1, true, 0, 0, 1, 1));
            Outputs out = oom.processor().process(first, false);
            ErrorEvent e = onlyError(out, first, "GRAPH_TOO_LARGE");
            assertTrue(e.getReason().contains("ran out of memory"), e.getReason());
            assertTrue(oom.registry().get("g").isEmpty());
            InputRecord q = record("g", query("q-oom", "g", Algorithm.BFS, 0).build());
            assertEquals(ResultStatus.UNKNOWN_GRAPH, oom.processor().process(q, false).results().get(0).getStatus());
            assertEquals(1, oom.processor().process(record("g", chunk("g", 2, 0, 1, 3, 1, true, 0, 0, 1, 1)), false)
                    .statuses().size(), "the next version loads");
            Outputs answered = oom.processor().process(record("g", query("q-ok", "g", Algorithm.BFS, 0).build()), false);
            assertEquals(ResultStatus.OK, answered.answered().status());
        }
    }

    @Test
    void completingASnapshotPublishesLoadedStatus() {
        EdgeList edges = UniformRandomGraph.generate(500, 2_000, SEED, 10, false);
        List<GraphSnapshotChunk> chunks = snapshot("g", 3, edges, 1, 700);
        for (int i = 0; i < chunks.size() - 1; i++) assertTrue(process(record("g", chunks.get(i))).isEmpty());
        Outputs out = process(record("g", chunks.get(chunks.size() - 1)));
        assertTrue(out.errors().isEmpty() && out.results().isEmpty() && out.answered() == null);
        assertEquals(1, out.statuses().size());
        GraphStatus s = out.statuses().get(0);
        CsrGraph g = GraphBuilder.build(edges);
        assertEquals("g", s.getGraphId());
        assertEquals(3, s.getVersion());
        assertEquals(GraphState.LOADED, s.getState());
        assertEquals(500, s.getVertexCount());
        assertEquals(g.edgeCount(), s.getEdgeCount(), "seed " + SEED);
        assertEquals("cpu", s.getBackend());
        assertEquals(g.bytes(), s.getResidentBytes());
        assertEquals("unit-test-worker", s.getWorker());

        int[] e = anyEdge(g);
        Outputs updated = process(record("g", GraphUpdate.newBuilder().setGraphId("g").setRemoved(pairs(
                e[1] + 1, e[0] + 1)).build()));
        assertEquals(4, updated.statuses().get(0).getVersion(), "an update publishes the next version");
        assertEquals(g.edgeCount() - 1, updated.statuses().get(0).getEdgeCount());
    }

    /** {@code frontier.status-per-update}: every applied update reports its version, as before the batching (A/B runs). */
    @Test
    void withStatusPerUpdateEveryUpdateReportsItsVersion() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setStatusPerUpdate(true);
        EdgeList gEdges = UniformRandomGraph.generate(200, 800, SEED, 10, false);
        int[] e = anyEdge(GraphBuilder.build(gEdges));
        try (Services perUpdate = Fixtures.start(config)) {
            List<InputRecord> run = new java.util.ArrayList<>();
            snapshot("g", 1, gEdges, 0, 5_000).forEach(c -> run.add(record("g", c)));
            run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 7)).build()));
            run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 8)).build()));
            List<Long> versions = perUpdate.processor().processAll(run).stream()
                    .flatMap(o -> o.statuses().stream()).map(GraphStatus::getVersion).toList();
            assertEquals(List.of(1L, 2L, 3L), versions, "the snapshot's status, then one per update");
        }
    }

    /**
     * The updates of one graph processed together report one GraphStatus, their last version's (a snapshot's is always
     * reported); a query among them is still answered on the version before it, and an invalid update is still
     * rejected alone with its error event.
     */
    @Test
    void theUpdatesOfOneGraphInARunReportTheirLastVersionOnly() {
        EdgeList gEdges = UniformRandomGraph.generate(400, 1_600, SEED, 10, false);
        EdgeList hEdges = UniformRandomGraph.generate(300, 1_200, SEED + 1, 10, false);
        int[] e = anyEdge(GraphBuilder.build(gEdges)), f = anyEdge(GraphBuilder.build(hEdges));
        List<InputRecord> run = new java.util.ArrayList<>();
        snapshot("g", 1, gEdges, 0, 5_000).forEach(c -> run.add(record("g", c)));
        snapshot("h", 1, hEdges, 0, 5_000).forEach(c -> run.add(record("h", c)));
        int updatesAt = run.size();
        run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 7)).build()));   // g 2
        run.add(record("h", GraphUpdate.newBuilder().setGraphId("h").setReweighted(weighted(f[0], f[1], 7)).build()));   // h 2
        run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 8)).build()));   // g 3
        run.add(record("g", query("q", "g", Algorithm.SSSP, e[0]).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setRemoved(pairs(1, 1)).build()));                 // invalid
        run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 9)).build()));   // g 4
        run.add(record("h", GraphUpdate.newBuilder().setGraphId("h").setReweighted(weighted(f[0], f[1], 9)).build()));   // h 3
        List<Outputs> out = services.processor().processAll(run);

        List<String> statuses = new java.util.ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            for (GraphStatus s : out.get(i).statuses()) statuses.add(i + ":" + s.getGraphId() + "@" + s.getVersion());
        }
        assertEquals(List.of((updatesAt - 2) + ":g@1", (updatesAt - 1) + ":h@1", (updatesAt + 5) + ":g@4",
                (updatesAt + 6) + ":h@3"), statuses, "the snapshots' statuses, then each graph's last version only");
        assertEquals(3, out.get(updatesAt + 3).results().get(0).getGraphVersion(), "the query sees the updates before it");
        assertEquals(List.of(ErrorCode.INVALID_UPDATE.name()),
                out.get(updatesAt + 4).errors().stream().map(ErrorEvent::getCode).toList(), "the invalid update alone");
        assertEquals(run.get(updatesAt + 4).offset(), out.get(updatesAt + 4).errors().get(0).getOffset(), "named by its offset");
    }

    @Test
    void abandonedVersionsAreReportedNextToTheNewOne() {
        process(record("g", chunk("g", 1, 0, 2, 3, 2, true, 0, 0, 1, 1)));
        InputRecord v2 = record("g", chunk("g", 2, 0, 1, 3, 1, true, 0, 1, 2, 1));
        Outputs out = process(v2);
        assertEquals(1, out.errors().size());
        assertEquals("INCOMPLETE_SNAPSHOT", out.errors().get(0).getCode());
        assertEquals("g", out.errors().get(0).getGraphId());
        assertEquals(1, out.statuses().size());
        assertEquals(2, out.statuses().get(0).getVersion());

        // a newer version that is itself rejected still reports the one it abandoned, first
        process(record("g", chunk("g", 3, 0, 2, 3, 2, true, 0, 0, 1, 1)));
        Outputs both = process(record("g", chunk("g", 4, 0, 1, 3, 1, true, 0, 0, 7, 1)));
        assertEquals(List.of("INCOMPLETE_SNAPSHOT", "INVALID_VERTEX"), both.errors().stream().map(ErrorEvent::getCode).toList());
        assertTrue(both.statuses().isEmpty());
        assertEquals(2, services.registry().get("g").orElseThrow().version());
    }

    @Test
    void queryProducesVerifiedResultsAndALatencyEvent() {
        EdgeList edges = UniformRandomGraph.generate(2_000, 8_000, SEED, 10, true);
        snapshot("g", 1, edges, 0, 3_000).forEach(c -> process(record("g", c)));
        InputRecord in = record("g", query("q-bfs", "g", Algorithm.BFS, 42).build());
        Outputs out = process(in);
        assertTrue(out.errors().isEmpty(), () -> "errors: " + out.errors());
        assertTrue(out.statuses().isEmpty());
        assertEquals(1, out.results().size());
        Verification v = BfsVerifier.verify(GraphBuilder.build(edges), 42, Answers.decode(BfsResult.class, out.results()));
        assertTrue(v.ok(), () -> "seed " + SEED + ": " + v.message());
        AnsweredQuery answered = out.answered();
        assertNotNull(answered);
        assertEquals(in.timestampMs(), answered.recordTimestampMs());
        long acknowledged = in.timestampMs() + 25;
        LatencyEvent l = answered.latencyEvent(acknowledged, 0, 0);
        assertEquals("q-bfs", l.getQueryId());
        assertEquals("g", l.getGraphId());
        assertEquals(Algorithm.BFS, l.getAlgorithm());
        assertEquals(ResultStatus.OK, l.getStatus());
        assertEquals("cpu", l.getBackend());
        assertEquals(2_000, l.getVertexCount());
        assertTrue(l.getComputeMicros() >= 0 && l.getDecodeMicros() >= 0 && l.getQueuedMicros() >= 0
                && l.getEncodeMicros() >= 0 && l.getCopyMicros() == 0, l.toString());
        assertEquals(25_000, l.getEndToEndMicros(), "end to end: from the record's timestamp to the acknowledgement");
        assertEquals(acknowledged, l.getTimestampMs());
        // the engine call's wall time holds the engine's own timing; no poll fetched this record, no producer sent it
        assertTrue(l.getEngineMicros() != null && l.getEngineMicros() >= l.getComputeMicros(), l.toString());
        assertNull(l.getPickupMicros(), l.toString());
        assertNull(l.getHandOverMicros(), l.toString());
        assertNull(l.getAcknowledgeMicros(), l.toString());
        // with the publisher's clock readings: hand-over from the start of decoding, acknowledgement from the hand-over
        long handed = answered.timings().startNanos() + 3_000_000, acked = handed + 2_000_000;
        LatencyEvent sent = answered.latencyEvent(acknowledged, handed, acked);
        assertEquals(3_000, sent.getHandOverMicros());
        assertEquals(2_000, sent.getAcknowledgeMicros());
        InputRecord polled = new InputRecord(TOPIC, PARTITION, nextOffset++, "g",
                FrontierCodec.encode(query("q-polled", "g", Algorithm.BFS, 42).build()), in.timestampMs(), System.nanoTime());
        Long pickup = process(polled).answered().latencyEvent(acknowledged, 0, 0).getPickupMicros();
        assertTrue(pickup != null && pickup >= 0, "a polled record's pickup is timed: " + pickup);
        assertThrows(UnsupportedOperationException.class, () -> out.results().clear(), "outputs are immutable");
    }

    /**
     * A run of records (queries of two graphs in several modes, an invalid one, a repeated source, an update in the
     * middle) handled together: the SUMMARY queries are answered in batches, and every answer equals the answer the
     * same record gets handled alone, on the same version (the update splits the run: the queries before it see the
     * version before it).
     */
    @Test
    void aRunOfQueriesAnswersEachAsAloneOnTheVersionPublishedBeforeIt() {
        EdgeList gEdges = UniformRandomGraph.generate(3_000, 9_000, SEED, 10, true);
        EdgeList hEdges = UniformRandomGraph.generate(1_000, 4_000, SEED + 1, 10, false);
        CsrGraph g = GraphBuilder.build(gEdges);
        int[] e = anyEdge(g);
        List<InputRecord> run = new java.util.ArrayList<>();
        snapshot("g", 1, gEdges, 0, 5_000).forEach(c -> run.add(record("g", c)));
        snapshot("h", 1, hEdges, 0, 5_000).forEach(c -> run.add(record("h", c)));
        int queriesAt = run.size();
        run.add(record("g", query("b1", "g", Algorithm.BFS, 5).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", query("s1", "g", Algorithm.SSSP, 7).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("h", query("hb", "h", Algorithm.BFS, 9).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", query("bad", "g", Algorithm.BFS, 99_999).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", query("full", "g", Algorithm.BFS, 5).setResultMode(ResultMode.FULL).build()));
        run.add(record("g", query("b2", "g", Algorithm.BFS, 5).setResultMode(ResultMode.SUMMARY).setVariant("default").build()));
        run.add(record("g", query("mst", "g", Algorithm.MST, null).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", query("mst-full", "g", Algorithm.MST, null).setResultMode(ResultMode.FULL).build()));
        run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setRemoved(pairs(e[0], e[1])).build()));
        run.add(record("g", query("b3", "g", Algorithm.BFS, e[0]).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", query("s3", "g", Algorithm.SSSP, e[0]).setResultMode(ResultMode.SUMMARY).build()));
        run.add(record("g", query("b4", "g", Algorithm.BFS, 5).setResultMode(ResultMode.SUMMARY).build()));

        List<Outputs> together = services.processor().processAll(run);
        assertSameAsAlone(run, together);
        QueryResult b1 = together.get(queriesAt).results().get(0);
        long[] reference = org.frontiergraph.kernels.bfs.BfsSummaries.summarize(
                org.frontiergraph.kernels.bfs.BfsReference.run(g, 5).hops());
        assertEquals(reference[0], b1.getReachedCount(), "seed " + SEED);
        assertEquals(reference[1], (long) b1.getMaxHops());
        assertEquals(1, b1.getGraphVersion());
        assertEquals(ResultStatus.INVALID_VERTEX, together.get(queriesAt + 3).results().get(0).getStatus());
        assertEquals(2, together.get(queriesAt + 9).results().get(0).getGraphVersion(), "after the update");
        assertEquals(together.get(queriesAt + 6).results().get(0).getTotalWeight(),
                together.get(queriesAt + 7).results().get(0).getTotalWeight(), "one MST for both MST queries of the run");
    }

    /**
     * A long run (updates valid and invalid, queries, malformed bytes, a record under the wrong key) handled together:
     * every record's outputs equal what it gets handled alone, in order, and a bad record is rejected at its own offset.
     */
    @Test
    void aLongRunGivesWhatEachRecordGetsAlone() {
        EdgeList gEdges = UniformRandomGraph.generate(500, 2_000, SEED + 7, 10, false);
        CsrGraph g = GraphBuilder.build(gEdges);
        int[] e = anyEdge(g);
        List<InputRecord> run = new java.util.ArrayList<>();
        snapshot("g", 1, gEdges, 0, 5_000).forEach(c -> run.add(record("g", c)));
        java.util.Random rnd = new java.util.Random(SEED);
        byte[] update = FrontierCodec.encode(GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 3)).build());
        List<Integer> bad = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            switch (rnd.nextInt(12)) {
                case 0 -> run.add(record("g", query("q" + i, "g", Algorithm.SSSP, rnd.nextInt(500)).setResultMode(ResultMode.SUMMARY).build()));
                case 1 -> {
                    bad.add(run.size());
                    run.add(raw("g", Arrays.copyOf(update, update.length - 3)));
                }
                case 2 -> {
                    bad.add(run.size());
                    run.add(record("g", GraphUpdate.newBuilder().setGraphId("g").setRemoved(pairs(1, 1)).build()));
                }
                case 3 -> {
                    bad.add(run.size());
                    run.add(record("other", GraphUpdate.newBuilder().setGraphId("g").setReweighted(weighted(e[0], e[1], 4)).build()));
                }
                default -> run.add(record("g", GraphUpdate.newBuilder().setGraphId("g")
                        .setReweighted(weighted(e[0], e[1], 1 + rnd.nextInt(50))).build()));
            }
        }
        List<Outputs> together = services.processor().processAll(run);
        assertSameAsAlone(run, together);
        for (int i : bad) {
            assertEquals(1, together.get(i).errors().size(), "record " + i);
            assertEquals(run.get(i).offset(), together.get(i).errors().get(0).getOffset(), "record " + i);
        }
        assertTrue(bad.size() > 10, "bad records " + bad.size());
        long valid = run.size() - bad.size() - together.stream().filter(o -> !o.results().isEmpty()).count() - 1;
        GraphStatus last = together.stream().flatMap(o -> o.statuses().stream()).reduce((a, b) -> b).orElseThrow();
        assertEquals(1 + valid, last.getVersion(), "the run's last status: the snapshot's version plus every valid update");
    }

    private static boolean isUpdate(InputRecord in) {
        try {
            return FrontierCodec.typeOf(in.value()) == GraphUpdate.class;
        } catch (FrontierCodec.MalformedMessageException e) {
            return false;
        }
    }

    /** Each record of {@code run} handled alone, in order, by a fresh worker gives what {@code together} holds for it. */
    private static void assertSameAsAlone(List<InputRecord> run, List<Outputs> together) {
        assertEquals(run.size(), together.size(), "one outputs per record, in order");
        try (Services alone = Fixtures.start(Fixtures.cpuConfig())) {
            for (int i = 0; i < run.size(); i++) {
                Outputs want = alone.processor().process(run.get(i), false);
                Outputs got = together.get(i);
                if (!got.statuses().isEmpty() || !isUpdate(run.get(i))) {   // an update's status may give way to a later one's
                    assertEquals(want.statuses().stream().map(GraphStatus::getVersion).toList(),
                            got.statuses().stream().map(GraphStatus::getVersion).toList(), "record " + i);
                }
                assertEquals(want.errors().stream().map(ErrorEvent::getCode).toList(),
                        got.errors().stream().map(ErrorEvent::getCode).toList(), "record " + i);
                assertEquals(want.results().size(), got.results().size(), "record " + i);
                for (int c = 0; c < want.results().size(); c++) {
                    QueryResult w = want.results().get(c), r = got.results().get(c);
                    String where = "record " + i + " (" + w.getQueryId() + ")";
                    assertEquals(w.getStatus(), r.getStatus(), where);
                    assertEquals(w.getGraphVersion(), r.getGraphVersion(), where);
                    assertEquals(w.getReachedCount(), r.getReachedCount(), where);
                    assertEquals(w.getMaxHops(), r.getMaxHops(), where);
                    assertEquals(w.getMaxDistance(), r.getMaxDistance(), where);
                    assertEquals(w.getHops(), r.getHops(), where);
                    assertEquals(w.getTotalWeight(), r.getTotalWeight(), where);
                }
                if (want.answered() != null) assertEquals(want.answered().status(), got.answered().status(), "record " + i);
            }
        }
    }

    @Test
    void failedQueryAnswersWithItsStatusAndAnErrorEvent() {
        InputRecord in = record("missing", query("q-lost", "missing", Algorithm.SSSP, 0).build());
        Outputs out = process(in);
        assertEquals(1, out.results().size());
        QueryResult r = out.results().get(0);
        assertEquals(ResultStatus.UNKNOWN_GRAPH, r.getStatus());
        assertEquals(1, out.errors().size());
        ErrorEvent e = out.errors().get(0);
        assertEquals("UNKNOWN_GRAPH", e.getCode());
        assertEquals("q-lost", e.getQueryId());
        assertEquals(in.offset(), e.getOffset());
        assertEquals(ResultStatus.UNKNOWN_GRAPH, out.answered().status());
        assertEquals(1.0, errorCount("UNKNOWN_GRAPH"));

        InputRecord anonymous = record("missing", query("", "missing", Algorithm.SSSP, 0).build());
        onlyError(process(anonymous), anonymous, "INVALID_QUERY");
    }

    @Test
    void aSnapshotLeftIncompleteExpiresOnceItsPartitionsLogMovesPastTheTtl() {
        long ttl = services.config().getPendingSnapshotTtl().toMillis();
        byte[] half = FrontierCodec.encode(chunk("half", 1, 0, 2, 3, 2, true, 0, 0, 1, 1));
        InputRecord first = new InputRecord(TOPIC, PARTITION, nextOffset++, "half", half, 1_000);
        assertTrue(process(first).isEmpty());
        InputRecord other = new InputRecord(TOPIC, PARTITION + 1, nextOffset++, "x",
                FrontierCodec.encode(chunk("x", 1, 0, 1, 3, 1, true, 0, 0, 1, 1)), 5_000 + ttl);
        assertTrue(process(other).errors().isEmpty(), "another partition's time does not expire it");
        InputRecord later = new InputRecord(TOPIC, PARTITION, nextOffset++, "g",
                FrontierCodec.encode(query("q", "g", Algorithm.BFS, 0).build()), 5_000 + ttl);
        Outputs out = process(later);
        ErrorEvent expired = out.errors().stream().filter(e -> e.getCode().equals("INCOMPLETE_SNAPSHOT")).findFirst().orElseThrow();
        assertEquals("half", expired.getGraphId());
        assertEquals(first.offset(), expired.getOffset(), "located at the version's first chunk");
        assertEquals(PARTITION, expired.getPartition());
        assertTrue(expired.getReason().contains("1 of 2 chunks never arrived"), expired.getReason());
        assertEquals(ResultStatus.UNKNOWN_GRAPH, out.results().get(0).getStatus(), "the record itself is answered as usual");
        assertTrue(services.registry().whyUnknown("half").contains("no snapshot"));

        // a replay of the same log drops it at the same record, silently
        assertTrue(replay(new InputRecord(TOPIC, PARTITION, first.offset(), "half", half, 1_000)).isEmpty());
        assertTrue(services.registry().whyUnknown("half").contains("1 of 2"));
        assertTrue(replay(new InputRecord(TOPIC, PARTITION, later.offset(), "g", later.value(), later.timestampMs())).isEmpty());
        assertTrue(services.registry().whyUnknown("half").contains("no snapshot"));
        assertEquals(0, services.registry().pendingSnapshotBytes());
    }

    @Test
    void theClockExpiresVersionsOfQuietPartitions() {
        long ttl = services.config().getPendingSnapshotTtl().toMillis();
        process(new InputRecord(TOPIC, PARTITION, nextOffset++, "half",
                FrontierCodec.encode(chunk("half", 1, 0, 2, 3, 2, true, 0, 0, 1, 1)), 1_000));
        assertTrue(services.processor().expirePending(TOPIC, p -> false, 2_000 + ttl).isEmpty(), "a partition being replayed waits");
        Outputs out = services.processor().expirePending(TOPIC, p -> p == PARTITION, 2_000 + ttl);
        assertEquals(1, out.errors().size());
        assertEquals("INCOMPLETE_SNAPSHOT", out.errors().get(0).getCode());
        assertEquals(1.0, errorCount("INCOMPLETE_SNAPSHOT"));
        assertEquals(0, services.registry().pendingSnapshotBytes());
    }

    @Test
    void replayAppliesStateButAnswersNothingAndReportsNothing() {
        List<GraphSnapshotChunk> chunks = snapshot("g", 1, UniformRandomGraph.generate(300, 900, SEED, 5, false), 0, 400);
        for (GraphSnapshotChunk c : chunks) assertTrue(replay(record("g", c)).isEmpty());
        assertEquals(1, services.registry().get("g").orElseThrow().version(), "the snapshot is applied in replay");
        assertTrue(replay(record("g", GraphUpdate.newBuilder().setGraphId("g").setAdded(weighted(0, 299, 1)).build())).isEmpty());
        assertEquals(2, services.registry().get("g").orElseThrow().version(), "the update is applied in replay");
        assertTrue(replay(record("g", query("q", "g", Algorithm.BFS, 0).build())).isEmpty(), "queries were answered already");
        assertTrue(replay(record("g", query("q", "missing", Algorithm.BFS, 0).build())).isEmpty());
        assertTrue(replay(raw("g", new byte[] {1, 2, 3})).isEmpty());
        assertTrue(replay(record("h", chunk("g", 9, 0, 1, 3, 1, true, 0, 0, 1, 1))).isEmpty());
        assertTrue(replay(record("g", GraphUpdate.newBuilder().setGraphId("g").setRemoved(pairs(0, 0)).build())).isEmpty());
        assertEquals(2, services.registry().get("g").orElseThrow().version());
        assertNull(services.meters().find("frontier.errors").counter(), "replay counts no errors");
    }

    /**
     * An update published twice with one updateId is applied once; the retry gets DUPLICATE_UPDATE at its own offset.
     * A rebuild replays the log through the same check: the duplicate in the log stays unapplied, the window is
     * refilled, and a third copy read live after it is refused again.
     */
    @Test
    void aRetriedUpdateIsAppliedOnceLiveAndInReplay() {
        List<InputRecord> log = new java.util.ArrayList<>();
        for (GraphSnapshotChunk c : snapshot("g", 1, UniformRandomGraph.generate(300, 900, SEED, 5, false), 0, 400)) {
            log.add(record("g", c));
        }
        GraphUpdate u = GraphUpdate.newBuilder().setGraphId("g").setUpdateId("retry-me").setAddedVertexCount(1)
                .setAdded(weighted(0, 300, 1)).build();
        log.add(record("g", u));
        log.add(record("g", u));
        List<Outputs> live = log.stream().map(this::process).toList();
        assertEquals(2, live.get(log.size() - 2).statuses().get(0).getVersion());
        ErrorEvent dup = onlyError(live.get(log.size() - 1), log.get(log.size() - 1), "DUPLICATE_UPDATE");
        assertTrue(dup.getReason().contains("as version 2"), dup.getReason());
        assertEquals(1, errorCount("DUPLICATE_UPDATE"));
        assertEquals(1.0, services.meters().find("frontier.updates.duplicates").functionCounter().count());
        assertEquals(301, services.registry().get("g").orElseThrow().vertexCount());

        services.registry().dropPartitions(List.of(PARTITION));
        for (InputRecord in : log) assertTrue(replay(in).isEmpty(), "a replay publishes nothing");
        GraphEntry rebuilt = services.registry().get("g").orElseThrow();
        assertEquals(2, rebuilt.version(), "the duplicate in the log is skipped in replay too");
        assertEquals(301, rebuilt.vertexCount());
        assertEquals(1.0, services.meters().find("frontier.updates.duplicates").functionCounter().count(), "replays are not counted");

        InputRecord third = record("g", u);
        onlyError(process(third), third, "DUPLICATE_UPDATE");
        assertEquals(2, services.registry().get("g").orElseThrow().version());
        assertEquals(2, errorCount("DUPLICATE_UPDATE"));
    }

    @Test
    void aBadRecordBetweenTwoGoodOnesDoesNotAffectThem() {
        EdgeList edges = UniformRandomGraph.generate(1_000, 5_000, SEED, 10, false);
        Outputs loaded = process(record("g", snapshot("g", 1, edges, 1, 10_000).get(0)));
        assertEquals(1, loaded.statuses().size());
        InputRecord bad = raw("g", new byte[] {(byte) 0xC3, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 42});
        onlyError(process(bad), bad, "MALFORMED_RECORD");
        Outputs answered = process(record("g", query("q", "g", Algorithm.BFS, 1).build()));
        assertEquals(ResultStatus.OK, answered.answered().status());
        assertTrue(answered.errors().isEmpty());
        Verification v = BfsVerifier.verify(GraphBuilder.build(edges), 0, Answers.decode(BfsResult.class, answered.results()));
        assertTrue(v.ok(), () -> "seed " + SEED + ": " + v.message());

        // the same for updates: a rejected update between two good ones leaves the version chain intact
        CsrGraph g = GraphBuilder.build(edges);
        int u = anyEdge(g)[0], v0 = anyEdge(g)[1];
        assertEquals(2, process(record("g", GraphUpdate.newBuilder().setGraphId("g")
                .setReweighted(weighted(u + 1, v0 + 1, 3)).build())).statuses().get(0).getVersion());
        InputRecord missing = record("g", GraphUpdate.newBuilder().setGraphId("g").setRemoved(pairs(1, 1)).build());
        onlyError(process(missing), missing, "INVALID_UPDATE");
        assertEquals(3, process(record("g", GraphUpdate.newBuilder().setGraphId("g").setBaseVersion(2L)
                .setRemoved(pairs(u + 1, v0 + 1)).build())).statuses().get(0).getVersion());
        assertTrue(services.registry().get("g").orElseThrow().resident().graph().findArc(u, v0) < 0);
    }
}
