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
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The checkpointer on the consumer's side: a resident graph whose checkpoint is due is written (its chunks and its
 * slot's validity key), and a graph dropped afterwards (a tombstone) gets every key of its slots tombstoned, so the
 * compacted topic lets its checkpoint go.
 */
class CheckpointerTest {
    /** What a compacted partition would keep: the last value per key, null for a key deleted. */
    static final class KeptRecords implements Checkpointer.Sink {
        final List<CheckpointFormat.Out> sent = new ArrayList<>();

        @Override public synchronized void send(CheckpointFormat.Out record, int partition) {
            assertEquals(0, partition, record.key());
            sent.add(record);
        }

        @Override public void flush() {}

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
}
