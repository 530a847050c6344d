package org.frontiergraph.worker.kafka;

import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.checkpoint.CheckpointCatalog;
import org.frontiergraph.worker.checkpoint.CheckpointFormat;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.PartitionRecovery.Resume;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.subscription.SubscriptionService;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where a partition resumes after an assignment, which of its records are replayed, and what each commit records
 * for the next rebuild (the consumer's part, seeking, is the listener's and runs in the integration tests); a
 * checkpoint that carries its graph's subscriptions has them registered, and their covered records skipped; a commit
 * names where its checkpoints start on the checkpoint topic, and a rebuild reads from there, or from the beginning when
 * that read does not hold them.
 */
class PartitionRecoveryTest {
    static final EdgeList EDGES = UniformRandomGraph.generate(50, 200, 3, 9, false);
    static final TopicPartition P0 = new TopicPartition("frontier.graphs", 0), P1 = new TopicPartition("frontier.graphs", 1);

    private final Fixtures.Services services = Fixtures.start(Fixtures.cpuConfig());
    private final PartitionRecovery recovery = new PartitionRecovery(services.registry(), services.metrics().rebuilds());

    @AfterEach
    void close() {
        services.close();
    }

    private List<Resume> rebuild(Map<TopicPartition, OffsetAndMetadata> committed, TopicPartition... partitions) {
        return recovery.rebuild(List.of(partitions), asked -> {
            assertEquals(Set.of(partitions), asked, "the committed offsets of exactly the rebuilt partitions");
            Map<TopicPartition, OffsetAndMetadata> found = new HashMap<>(committed);
            found.keySet().retainAll(asked);
            return found;
        });
    }

    @Test
    void aPartitionWithoutACommitIsReadFromTheBeginningWithNothingReplayed() {
        assertEquals(List.of(new Resume(P0, Resume.BEGINNING)), rebuild(Map.of(), P0));
        assertFalse(recovery.replaying(P0, 0), "nothing was answered there yet: every record is processed normally");
    }

    @Test
    void aCommitWithARebuildStartIsReplayedFromThereUpToTheCommit() {
        assertEquals(List.of(new Resume(P0, 4)), rebuild(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4")), P0));
        for (long o = 4; o < 10; o++) assertTrue(recovery.replaying(P0, o), "offset " + o);
        assertFalse(recovery.replaying(P0, 10), "the committed offset is the first record processed normally");
        assertFalse(recovery.replaying(P1, 4), "another partition is not replayed");
    }

    @Test
    void thePartitionIsRebuildingUntilItsLastReplayedRecordIsApplied() {
        rebuild(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4")), P0);
        for (long o = 4; o < 9; o++) {
            recovery.replayed(P0, o);
            assertTrue(recovery.rebuilding(P0), "offset " + o + " applied: not ready yet");
        }
        recovery.replayed(P0, 9);
        assertFalse(recovery.rebuilding(P0), "the record before the commit completes the rebuild");
        assertFalse(recovery.replaying(P0, 5), "a rebuilt partition replays nothing more");
        assertFalse(recovery.rebuilding(P1));

        rebuild(Map.of(P1, new OffsetAndMetadata(10, "rebuildFrom=4")), P1);
        recovery.replayed(P1, 12);   // a record past the replay's end (a gap in the log) completes it too
        assertFalse(recovery.rebuilding(P1));
    }

    @Test
    void aCommitThatNeedsNothingBeforeItResumesThere() {
        assertEquals(List.of(new Resume(P0, 10)), rebuild(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=10")), P0));
        assertFalse(recovery.replaying(P0, 9));
        assertFalse(recovery.replaying(P0, 10));
    }

    @Test
    void aCommitWithoutUsableMetadataIsReplayedFromTheBeginning() {
        for (String metadata : new String[] {"", "rebuildFrom=0", "rebuildFrom=x", "something else"}) {
            assertEquals(List.of(new Resume(P0, Resume.BEGINNING)), rebuild(Map.of(P0, new OffsetAndMetadata(7, metadata)), P0), metadata);
            assertTrue(recovery.replaying(P0, 0), metadata);
            assertTrue(recovery.replaying(P0, 6), metadata);
            assertFalse(recovery.replaying(P0, 7), metadata);
        }
        assertEquals(0, PartitionRecovery.rebuildFrom(new OffsetAndMetadata(7)));
        assertEquals(3, PartitionRecovery.rebuildFrom(new OffsetAndMetadata(7, "rebuildFrom=3")));
    }

    @Test
    void aRebuildDropsWhatThePartitionHeldFirst() {
        services.install(snapshot("a", 1, EDGES, 0, 1_000), 0);
        services.install(snapshot("b", 1, EDGES, 0, 1_000), 1);
        rebuild(Map.of(P0, new OffsetAndMetadata(5, "rebuildFrom=2")), P0);
        assertTrue(services.registry().get("a").isEmpty(), "partition 0's graph is rebuilt from the log, not kept");
        assertTrue(services.registry().get("b").isPresent(), "partition 1 is not touched");
    }

    @Test
    void forgettingAPartitionDropsItsGraphsAndEndsItsReplay() {
        rebuild(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4"), P1, new OffsetAndMetadata(8, "rebuildFrom=1")), P0, P1);
        services.install(snapshot("a", 1, EDGES, 0, 1_000), 0);
        recovery.forget(List.of(P0));
        assertTrue(services.registry().get("a").isEmpty());
        assertFalse(recovery.replaying(P0, 5), "a revoked partition is no longer replayed");
        assertTrue(recovery.replaying(P1, 5), "the other partition still is");
    }

    @Test
    void theRebuildGaugesFollowEachPartitionsReplay() {
        rebuild(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4"), P1, new OffsetAndMetadata(8, "rebuildFrom=8")), P0, P1);
        assertEquals(List.of(6.0, 0.0), progress(P0), "offsets 4..9 to replay, none replayed");
        assertEquals(List.of(0.0, 0.0), progress(P1), "resumes at its commit: nothing to replay");
        for (long o = 4; o < 7; o++) recovery.replayed(P0, o);
        assertEquals(List.of(3.0, 3.0), progress(P0));
        recovery.replayed(P0, 9);   // 7 and 8 are a gap in the log
        assertEquals(List.of(0.0, 6.0), progress(P0), "rebuilt");
        recovery.replayed(P0, 10);
        assertEquals(List.of(0.0, 6.0), progress(P0), "records after the rebuild are not replays");

        rebuild(Map.of(P1, new OffsetAndMetadata(500, "")), P1);   // from the beginning of a log that starts at 400
        assertEquals(List.of(500.0, 0.0), progress(P1), "until the first record, the log is taken to start at 0");
        recovery.replayed(P1, 400);
        assertEquals(List.of(99.0, 1.0), progress(P1));

        recovery.forget(List.of(P1));
        assertTrue(services.meters().find("frontier.rebuild.remaining").tag("partition", "1").gauges().isEmpty(),
                "a revoked partition's series go");
    }

    /** The partition's rebuild gauges: offsets remaining, offsets replayed. */
    private List<Double> progress(TopicPartition tp) {
        String partition = Integer.toString(tp.partition());
        return List.of(services.meters().get("frontier.rebuild.remaining").tag("partition", partition).gauge().value(),
                services.meters().get("frontier.rebuild.replayed").tag("partition", partition).gauge().value());
    }

    @Test
    void everyCommitRecordsWhereTheNextRebuildStarts() {
        services.registry().acceptChunk(snapshot("a", 1, EDGES, 0, 1_000).get(0), 0, 5);
        Map<TopicPartition, OffsetAndMetadata> commits = recovery.commits(Map.of(P0, 9L, P1, 12L)).offsets();
        assertEquals(new OffsetAndMetadata(9, "rebuildFrom=5"), commits.get(P0), "the first chunk of the snapshot in use");
        assertEquals(new OffsetAndMetadata(12, "rebuildFrom=12"), commits.get(P1), "a partition holding nothing needs no replay");
        assertEquals(2, commits.size());
        assertEquals(5, PartitionRecovery.rebuildFrom(commits.get(P0)));
    }

    private List<Resume> rebuildWithLogStart(Map<TopicPartition, OffsetAndMetadata> committed, Map<TopicPartition, Long> logStart,
                                             TopicPartition... partitions) {
        return recovery.rebuild(List.of(partitions), asked -> {
            Map<TopicPartition, OffsetAndMetadata> found = new HashMap<>(committed);
            found.keySet().retainAll(asked);
            return found;
        }, asked -> logStart);
    }

    private double lostRecords() {
        return services.meters().get("frontier.rebuild.lost").counter().count();
    }

    @Test
    void recordsDeletedBeforeTheRebuildStartAreReportedAndTheRestIsReplayed() {
        assertEquals(List.of(new Resume(P0, 7)),
                rebuildWithLogStart(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4")), Map.of(P0, 7L), P0));
        assertEquals(3.0, lostRecords(), "offsets 4..6 were needed and are gone");
        List<ErrorEvent> events = recovery.takeErrors();
        assertEquals(1, events.size());
        assertEquals("RECORDS_LOST", events.get(0).getCode());
        assertEquals(4, events.get(0).getOffset(), "located at the first record lost");
        assertEquals(null, events.get(0).getGraphId(), "the partition's event names no graph");
        assertTrue(recovery.takeErrors().isEmpty(), "taken once");
        for (long o = 7; o < 10; o++) recovery.replayed(P0, o);
        assertFalse(recovery.rebuilding(P0), "the partition is rebuilt from what remains");
    }

    @Test
    void aLogThatStartsAfterTheCommitNeedsNoReplayAndIsReadyAtOnce() {
        assertEquals(List.of(new Resume(P0, 12)),
                rebuildWithLogStart(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4")), Map.of(P0, 12L), P0));
        assertFalse(recovery.rebuilding(P0), "nothing left to replay: never not-ready for good");
        assertEquals(8.0, lostRecords(), "4..9 needed for the graphs, 10..11 never processed");
        assertEquals(1, recovery.takeErrors().size());
    }

    @Test
    void nothingIsReportedWhenTheLogStillHoldsWhatTheRebuildNeeds() {
        rebuildWithLogStart(Map.of(P0, new OffsetAndMetadata(10, "rebuildFrom=4")), Map.of(P0, 4L), P0);
        rebuildWithLogStart(Map.of(P1, new OffsetAndMetadata(10, "rebuildFrom=10")), Map.of(P1, 10L), P1);
        assertEquals(0.0, lostRecords());
        assertFalse(recovery.hasErrors());
    }

    @Test
    void aGroupWithoutACommitOnATruncatedLogIsToldWhatItNeverSaw() {
        assertEquals(List.of(new Resume(P0, Resume.BEGINNING)), rebuildWithLogStart(Map.of(), Map.of(P0, 5L), P0));
        assertEquals(5.0, lostRecords());
        assertEquals("RECORDS_LOST", recovery.takeErrors().get(0).getCode());
    }

    @Test
    void aCheckpointsSubscriptionsAreRegisteredFromItAndTheirCoveredRecordsSkipped() throws Exception {
        FrontierConfig config = Fixtures.cpuConfig();
        config.getCheckpoints().setEnabled(true);
        Subscription sub = Subscription.newBuilder().setSubscriptionId("s").setGraphId("g").setAlgorithm(Algorithm.BFS)
                .setSource(1).build();
        List<CheckpointFormat.Out> topic = new java.util.ArrayList<>();
        try (Fixtures.Services a = Fixtures.start(config); Fixtures.Services b = Fixtures.start(config)) {
            Checkpointer writer = new Checkpointer(a.registry(), a.subscriptions(), config, new TopicsConfig());
            writer.sink(new Checkpointer.Sink() {
                @Override public void send(CheckpointFormat.Out r, int partition) { topic.add(r); }
                @Override public long flush() { return -1; }
            });
            a.install(snapshot("g", 1, EDGES, 1, 100), 0);
            a.subscriptions().accept(sub, new SubscriptionService.Origin(P0.topic(), 0, 5), false);
            writer.tick(Map.of(0, 8L), 0);
            writer.tick(Map.of(0, 8L), 3_600_000);
            writer.awaitWrites();
            CheckpointCatalog catalog = new CheckpointCatalog(0, true);
            for (int i = 0; i < topic.size(); i++) catalog.add(topic.get(i).key(), topic.get(i).value(), topic.get(i).headers(), i);

            Checkpointer reader = new Checkpointer(b.registry(), b.subscriptions(), config, new TopicsConfig());
            PartitionRecovery r = new PartitionRecovery(b.registry(), b.metrics().rebuilds(), reader, (p, from) -> catalog);
            r.rebuild(List.of(P0), asked -> Map.of(P0, new OffsetAndMetadata(12, "rebuildFrom=9")));
            byte[] update = FrontierCodec.encode(GraphUpdate.newBuilder().setGraphId("g").setUpdateId("u").build());
            assertFalse(r.covered(P0, "g", 9, FrontierCodec.encode(sub)), "past the checkpoint: replayed");
            assertTrue(r.covered(P0, "g", 5, FrontierCodec.encode(sub)), "the subscription's record is in the checkpoint");
            assertTrue(r.covered(P0, "g", 8, update));
            List<InputRecord> registered = new java.util.ArrayList<>();
            List<Integer> resynced = new java.util.ArrayList<>();
            r.registerSubscriptions(registered::add, resynced::add);
            assertEquals(1, registered.size());
            assertEquals(5, registered.get(0).offset(), "registered as its record, at its offset");
            assertEquals(sub, FrontierCodec.decode(registered.get(0).value(), Subscription.class));
            assertEquals(List.of(0), resynced, "pushed complete after the rebuild");
            r.registerSubscriptions(registered::add, resynced::add);
            assertEquals(1, registered.size(), "once");
            writer.close();
            reader.close();
        }
    }

    @Test
    void aCommitNamesWhereItsCheckpointsStartAndOlderMetadataStillReads() {
        String m = PartitionRecovery.metadata(5, new Checkpointer.Hint(40, 2));
        assertEquals("rebuildFrom=5;checkpointFrom=40;checkpoints=2", m);
        assertEquals(5, PartitionRecovery.rebuildFrom(new OffsetAndMetadata(9, m)));
        assertEquals(new Checkpointer.Hint(40, 2), PartitionRecovery.checkpointFrom(new OffsetAndMetadata(9, m)));
        assertEquals("rebuildFrom=5", PartitionRecovery.metadata(5, null), "no checkpoint: as before");
        assertNull(PartitionRecovery.checkpointFrom(new OffsetAndMetadata(9, "rebuildFrom=5")), "an older commit names none");
        assertNull(PartitionRecovery.checkpointFrom(new OffsetAndMetadata(9)));
        for (String bad : new String[] {"rebuildFrom=5;checkpointFrom=x;checkpoints=2", "rebuildFrom=5;checkpointFrom=40",
                "rebuildFrom=5;checkpointFrom=-3;checkpoints=2", "rebuildFrom=5;checkpointFrom=40;checkpoints=0",
                "rebuildFrom=5;checkpointFrom=40;checkpoints=99999999999", "checkpointFrom=;checkpoints=1"}) {
            assertNull(PartitionRecovery.checkpointFrom(new OffsetAndMetadata(9, bad)), bad);
        }
        assertEquals(0, PartitionRecovery.rebuildFrom(new OffsetAndMetadata(9, "checkpointFrom=40;checkpoints=2")));
        int longest = PartitionRecovery.metadata(Long.MAX_VALUE, new Checkpointer.Hint(Long.MAX_VALUE, Integer.MAX_VALUE)).length();
        assertTrue(longest < 100, longest + " bytes: far below offset.metadata.max.bytes (4096)");
    }

    /** A sink that keeps the records in order: a record's offset is its index. */
    private static final class Kept implements Checkpointer.Sink {
        final List<CheckpointFormat.Out> records = new ArrayList<>();
        private int flushed;

        @Override public synchronized void send(CheckpointFormat.Out r, int partition) { records.add(r); }

        @Override public synchronized long flush() {
            long first = flushed < records.size() ? flushed : -1;
            flushed = records.size();
            return first;
        }

        /** The records from {@code from} on, as {@link CheckpointTopic#read} would return them (the beginning when outside). */
        synchronized CheckpointCatalog read(long from) {
            boolean seek = from > 0 && from <= records.size();
            CheckpointCatalog c = new CheckpointCatalog(seek ? from : 0, !seek);
            for (int i = seek ? (int) from : 0; i < records.size(); i++) {
                c.add(records.get(i).key(), records.get(i).value(), records.get(i).headers(), i);
            }
            return c;
        }
    }

    private static void install(Fixtures.Services s, long version, long offset) {
        for (var c : snapshot("g", version, UniformRandomGraph.generate(60, 300, 40 + version, 9, false), 0, 100)) {
            s.registry().acceptChunk(c, 0, offset++);
        }
    }

    @Test
    void aRebuildReadsFromWhereTheCommitsCheckpointsStartAndFromTheBeginningWhenThatIsNotEnough() throws Exception {
        FrontierConfig config = Fixtures.cpuConfig();
        config.getCheckpoints().setEnabled(true);
        config.getCheckpoints().setUpdates(1);
        Kept topic = new Kept();
        try (Fixtures.Services a = Fixtures.start(config)) {
            Checkpointer writer = new Checkpointer(a.registry(), a.subscriptions(), config, new TopicsConfig());
            writer.sink(topic);
            PartitionRecovery live = new PartitionRecovery(a.registry(), a.metrics().rebuilds(), writer, (p, from) -> topic.read(from));
            install(a, 1, 1);
            writer.tick(Map.of(0, 5L), 0);
            writer.tick(Map.of(0, 5L), 3_600_000);
            writer.awaitWrites();
            assertEquals("rebuildFrom=6;checkpointFrom=0;checkpoints=1", live.commits(Map.of(P0, 6L)).offsets().get(P0).metadata());
            writer.committed(0, writer.stamp());
            install(a, 2, 6);
            writer.tick(Map.of(0, 10L), 3_600_000);   // a new lineage: counted from here
            writer.tick(Map.of(0, 10L), 7_200_000);
            writer.awaitWrites();
            OffsetAndMetadata commit = live.commits(Map.of(P0, 12L)).offsets().get(P0);
            Checkpointer.Hint hint = PartitionRecovery.checkpointFrom(commit);
            assertTrue(hint != null && hint.from() > 0 && hint.graphs() == 1, commit.metadata());
            writer.close();
        }
        String rebuildFrom = "rebuildFrom=11";   // the checkpoint covers through 10
        Map<String, List<Long>> reads = new java.util.LinkedHashMap<>();
        for (String hint : new String[] {";checkpointFrom=" + checkpointStart(topic) + ";checkpoints=1", "",
                ";checkpointFrom=" + (checkpointStart(topic) + 1) + ";checkpoints=1", ";checkpointFrom=" + checkpointStart(topic) + ";checkpoints=2",
                ";checkpointFrom=99999;checkpoints=1"}) {
            try (Fixtures.Services b = Fixtures.start(config)) {
                Checkpointer reader = new Checkpointer(b.registry(), b.subscriptions(), config, new TopicsConfig());
                List<Long> from = new ArrayList<>();
                PartitionRecovery r = new PartitionRecovery(b.registry(), b.metrics().rebuilds(), reader, (p, f) -> {
                    from.add(f);
                    return topic.read(f);
                });
                r.rebuild(List.of(P0), asked -> Map.of(P0, new OffsetAndMetadata(12, rebuildFrom + hint)));
                assertEquals(2, b.registry().get("g").orElseThrow().version(), hint + ": the newest checkpoint installed");
                reads.put(hint, from);
                Checkpointer.RestoreTimes t = reader.lastRestore().orElseThrow();
                assertEquals(from.size() == 1 && from.get(0) > 0 && from.get(0) < topic.records.size() ? from.get(0) : -1, t.readFrom(), hint);
                reader.close();
            }
        }
        long start = checkpointStart(topic);
        assertEquals(List.of(List.of(start), List.of(-1L), List.of(start + 1, -1L), List.of(start, -1L), List.of(99999L)),
                List.copyOf(reads.values()), "the hint read alone; no hint: the beginning; a hint that does not hold: read again");
    }

    /** Where the newest checkpoint of g starts in {@code topic}: its chunk 0 in slot 1. */
    private static long checkpointStart(Kept topic) {
        for (int i = topic.records.size() - 1; i >= 0; i--) if (topic.records.get(i).key().equals("g/1/0")) return i;
        throw new AssertionError("no checkpoint in slot 1");
    }
}
