package org.frontiergraph.worker.processing;

import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.frontiergraph.worker.support.Fixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A record with a key and no value drops the graph its key names, live and in a replay of the log. */
class TombstoneTest {
    private static final long SEED = 0x70b5_70e1L;
    private static final String TOPIC = "frontier.graphs";
    private static final int PARTITION = 4;

    private final Services services = Fixtures.start(Fixtures.cpuConfig());
    private long nextOffset = 500;

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

    /** Snapshot version {@code version} of a 300-vertex graph {@code id}, then an update with id "u1"; its records. */
    private List<InputRecord> loadAndUpdate(String id, long version) {
        List<InputRecord> log = new ArrayList<>();
        for (var c : snapshot(id, version, UniformRandomGraph.generate(300, 900, SEED, 5, false), 0, 400)) log.add(record(id, c));
        log.add(record(id, GraphUpdate.newBuilder().setGraphId(id).setUpdateId("u1").setAdded(weighted(0, 299, 1)).build()));
        return log;
    }

    @Test
    void aTombstoneFreesTheGraphAndReportsItDropped() {
        for (InputRecord in : loadAndUpdate("g", 1_000)) assertTrue(process(in).errors().isEmpty());
        assertEquals(1_001, services.registry().get("g").orElseThrow().version());
        assertTrue(services.registry().graphBytes() > 0);

        InputRecord tombstone = raw("g", null);
        Outputs out = process(tombstone);
        assertTrue(out.errors().isEmpty(), () -> "errors: " + out.errors());
        assertEquals(1, out.statuses().size());
        GraphStatus s = out.statuses().get(0);
        assertEquals(GraphState.DROPPED, s.getState());
        assertEquals(1_001, s.getVersion(), "the version it held");
        assertEquals(0, s.getResidentBytes());
        assertEquals("cpu", s.getBackend());
        assertTrue(services.registry().get("g").isEmpty());
        assertEquals(0, services.registry().graphBytes(), "its memory is freed");
        assertEquals(0, services.registry().dedupWindowIds(), "its deduplication window is forgotten");
        assertEquals(77, services.registry().rebuildFrom(PARTITION, 77), "it no longer holds the partition's rebuild start");

        QueryResult r = process(record("g", query("q", "g", Algorithm.BFS, 0).build())).results().get(0);
        assertEquals(ResultStatus.UNKNOWN_GRAPH, r.getStatus());
        assertTrue(r.getError().contains("was dropped") && r.getError().contains(tombstone.where()), r.getError());

        // published anew under its id: any version, and the update ids of the dropped graph apply again
        for (InputRecord in : loadAndUpdate("g", 1)) assertTrue(process(in).errors().isEmpty(), "a new graph of the same id");
        assertEquals(2, services.registry().get("g").orElseThrow().version());
    }

    @Test
    void theGraphsSubscriptionsEndWithTheirLastPush() {
        for (InputRecord in : loadAndUpdate("g", 1)) process(in);
        Subscription sub = Subscription.newBuilder().setSubscriptionId("s").setGraphId("g").setAlgorithm(Algorithm.BFS)
                .setSource(0).setResultMode(ResultMode.DELTA).build();
        process(record("g", sub));
        Outputs first = services.processor().flushSubscriptions(p -> true, System.currentTimeMillis());
        assertEquals(PushReason.INITIAL, first.results().get(0).getReason());

        process(raw("g", null));
        Outputs end = services.processor().flushSubscriptions(p -> true, System.currentTimeMillis());
        assertEquals(1, end.results().size());
        QueryResult last = end.results().get(0);
        assertEquals(PushReason.END, last.getReason());
        assertEquals(ResultStatus.UNKNOWN_GRAPH, last.getStatus());
        assertTrue(last.getError().contains("was dropped"), last.getError());
        assertEquals(0, services.subscriptions().size());
    }

    @Test
    void aReplayOfTheLogEndsWithoutTheGraph() {
        List<InputRecord> log = new ArrayList<>(loadAndUpdate("g", 1));
        log.add(raw("g", null));
        log.addAll(loadAndUpdate("h", 1));
        for (InputRecord in : log) process(in);
        assertTrue(services.registry().get("g").isEmpty());

        services.registry().dropPartitions(List.of(PARTITION));
        for (InputRecord in : log) assertTrue(services.processor().process(in, true).isEmpty(), "a replay publishes nothing");
        assertTrue(services.registry().get("g").isEmpty(), "the rebuild does not bring the dropped graph back");
        assertEquals(2, services.registry().get("h").orElseThrow().version());
    }

    @Test
    void aTombstoneDropsAVersionStillBeingAssembled() {
        assertTrue(process(record("p", chunk("p", 1, 0, 2, 3, 2, true, 0, 0, 1, 1))).isEmpty());
        assertTrue(services.registry().pendingSnapshotBytes() > 0);
        GraphStatus s = process(raw("p", null)).statuses().get(0);
        assertEquals(GraphState.DROPPED, s.getState());
        assertEquals(-1, s.getVersion(), "no version was complete");
        assertEquals(0, services.registry().pendingSnapshotBytes());
    }

    @Test
    void aTombstoneOfAGraphNotHeldIsUnknownGraphAndOneWithoutAKeyInvalidKey() {
        InputRecord unknown = raw("nothing-here", null);
        ErrorEvent e = process(unknown).errors().get(0);
        assertEquals("UNKNOWN_GRAPH", e.getCode());
        assertEquals(unknown.offset(), e.getOffset());
        assertEquals("nothing-here", e.getGraphId());
        assertTrue(e.getReason().contains("nothing to drop"), e.getReason());

        assertEquals("INVALID_KEY", process(raw(null, null)).errors().get(0).getCode());
    }
}
