package org.frontiergraph.worker.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.subscription.SubscriptionService;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The checkpointer on the consumer's side: a resident graph whose checkpoint is due is written (its chunks and its
 * slot's validity key), and a graph dropped afterwards (a tombstone) gets every key of its slots tombstoned, so the
 * compacted topic lets its checkpoint go; a checkpoint carries the graph's live subscriptions (a rebuild gets them back,
 * they no longer hold the rebuild start), and one whose subscription records are torn is not used.
 */
class CheckpointerTest {
    /** What a compacted partition would keep: the last value per key, null for a key deleted; a record's offset: its index. */
    static final class KeptRecords implements Checkpointer.Sink {
        final List<CheckpointFormat.Out> sent = new ArrayList<>();
        private int flushed;

        @Override public synchronized void send(CheckpointFormat.Out record, int partition) {
            assertEquals(0, partition, record.key());
            sent.add(record);
        }

        @Override public synchronized long flush() {
            long first = flushed < sent.size() ? flushed : -1;
            flushed = sent.size();
            return first;
        }

        synchronized Set<String> liveKeys() {
            Map<String, byte[]> last = new java.util.HashMap<>();
            for (CheckpointFormat.Out r : sent) last.put(r.key(), r.value());
            Set<String> live = new TreeSet<>();
            last.forEach((k, v) -> { if (v != null) live.add(k); });
            return live;
        }
    }

    @Test
    void aDroppedGraphsCheckpointKeysAreTombstoned() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.getCheckpoints().setEnabled(true);
        config.getCheckpoints().setUpdates(1);
        try (Fixtures.Services s = Fixtures.start(config)) {
            Checkpointer cp = new Checkpointer(s.registry(), s.subscriptions(), config, new TopicsConfig());
            KeptRecords topic = new KeptRecords();
            cp.sink(topic);
            s.install(Fixtures.snapshot("g", 1, UniformRandomGraph.generate(300, 3_000, 5, 9, false), 1, 500), 0);
            long now = System.currentTimeMillis();
            cp.tick(Map.of(0, 10L), now);   // the graph's count starts at its install
            cp.awaitWrites();
            assertEquals(Set.of(), topic.liveKeys(), "nothing due yet");
            cp.tick(Map.of(0, 10L), now + 3_600_000);   // past the interval: due
            cp.awaitWrites();
            Set<String> written = topic.liveKeys();
            assertFalse(written.isEmpty(), "the due checkpoint was written");
            assertTrue(written.stream().allMatch(k -> k.startsWith("g/")), written.toString());
            assertTrue(cp.coveredThrough("g", s.registry().get("g").orElseThrow().snapshotOffset()) >= 10, "the checkpoint covers offset 10");

            assertTrue(s.registry().drop("g", 0, "frontier.graphs-0@11").isPresent());
            cp.tick(Map.of(0, 11L), now + 7_200_000);
            cp.awaitWrites();
            assertEquals(Set.of(), topic.liveKeys(), "every key of the dropped graph's slots tombstoned");
            assertEquals(-1, cp.coveredThrough("g", 0), "nothing covered any more");
            int tombstones = (int) topic.sent.stream().filter(r -> r.value() == null).count();
            assertTrue(tombstones >= written.size(), tombstones + " tombstones for " + written);
            assertNull(topic.sent.get(topic.sent.size() - 1).value(), "the last record sent is a tombstone");
            cp.close();
        }
    }

    static Subscription sssp(String id, int source) {
        return Subscription.newBuilder().setSubscriptionId(id).setGraphId("g").setAlgorithm(Algorithm.SSSP).setSource(source)
                .setResultMode(ResultMode.DELTA).build();
    }

    /** A checkpoint's records as a rebuild reads them from the beginning (offsets: their indexes). */
    static CheckpointCatalog catalogOf(List<CheckpointFormat.Out> records) {
        return catalogOf(records, 0);
    }

    /** As {@link #catalogOf(List)}, read from offset {@code from} on (not the beginning when above 0). */
    static CheckpointCatalog catalogOf(List<CheckpointFormat.Out> records, int from) {
        CheckpointCatalog c = new CheckpointCatalog(from, from == 0);
        for (int i = from; i < records.size(); i++) {
            CheckpointFormat.Out r = records.get(i);
            c.add(r.key(), r.value(), r.headers() == null ? new RecordHeaders() : r.headers(), i);
        }
        return c;
    }

    @Test
    void aCheckpointCarriesTheGraphsSubscriptionsAndATornOneIsNotUsed() throws Exception {
        FrontierConfig config = Fixtures.cpuConfig();
        config.getCheckpoints().setEnabled(true);
        config.getCheckpoints().setUpdates(1);
        try (Fixtures.Services s = Fixtures.start(config); Fixtures.Services back = Fixtures.start(config)) {
            Checkpointer cp = new Checkpointer(s.registry(), s.subscriptions(), config, new TopicsConfig());
            KeptRecords topic = new KeptRecords();
            cp.sink(topic);
            s.install(Fixtures.snapshot("g", 1, UniformRandomGraph.generate(300, 3_000, 5, 9, false), 1, 500), 0);
            s.subscriptions().accept(sssp("kept", 1), new SubscriptionService.Origin("frontier.graphs", 0, 3), false);
            s.subscriptions().accept(sssp("cancelled", 2), new SubscriptionService.Origin("frontier.graphs", 0, 4), false);
            s.subscriptions().accept(Subscription.newBuilder(sssp("cancelled", 2)).setCancel(true).build(),
                    new SubscriptionService.Origin("frontier.graphs", 0, 5), false);
            assertEquals(3, s.subscriptions().earliestOffset(0), "before a checkpoint, the live subscription holds the rebuild start");

            long now = System.currentTimeMillis();
            cp.tick(Map.of(0, 10L), now);
            cp.tick(Map.of(0, 10L), now + 3_600_000);
            cp.awaitWrites();
            assertTrue(topic.liveKeys().contains("g/0/sub-0"), topic.liveKeys().toString());
            assertFalse(topic.liveKeys().contains("g/0/sub-1"), "the cancelled subscription is in no checkpoint");
            assertEquals(Long.MAX_VALUE, s.subscriptions().earliestOffset(0), "the checkpoint holds it: no longer the rebuild start");

            List<String> unusable = new ArrayList<>();
            CheckpointCatalog.Found f = catalogOf(topic.sent).usable(11, unusable).get("g");
            assertEquals(List.of(), unusable);
            assertEquals(1, f.subscriptions().size());
            CheckpointedSubscriptions.Carried c = f.subscriptions().get(0);
            assertEquals(3, c.offset(), "the offset of the record that registered it");
            assertEquals(sssp("kept", 1), FrontierCodec.decode(c.record(), Subscription.class), "the record as published");

            Checkpointer restoring = new Checkpointer(back.registry(), back.subscriptions(), config, new TopicsConfig());
            Checkpointer.Restored r = restoring.restore(0, List.of(f), new Checkpointer.Read(0, 0, 0, 0, -1));
            assertEquals(Map.of("g", 10L), r.covered());
            assertEquals(List.of(c), r.subscriptions().get("g"));

            List<CheckpointFormat.Out> torn = new ArrayList<>(topic.sent);
            torn.removeIf(x -> x.key().equals("g/0/sub-0"));
            unusable.clear();
            assertNull(catalogOf(torn).usable(11, unusable).get("g"), "a subscription record missing: the checkpoint is torn");
            assertEquals(List.of("g"), unusable);
            cp.close();
            restoring.close();
        }
    }
}
