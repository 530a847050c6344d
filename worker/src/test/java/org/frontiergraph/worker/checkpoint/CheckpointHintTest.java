package org.frontiergraph.worker.checkpoint;

import static org.frontiergraph.worker.checkpoint.CheckpointerTest.catalogOf;
import static org.frontiergraph.worker.support.Fixtures.assertSameGraph;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Where a rebuild reads the checkpoint topic: the checkpointer names the offset at which the newest acknowledged
 * checkpoints of a partition's graphs start ({@link Checkpointer#hint}, from the acknowledged offsets); a read from
 * there finds the same checkpoints as a read from the beginning, with fewer bytes, and installs the same graphs and
 * versions; a read from anywhere else, one that misses a graph the commit relied on, one where a graph's checkpoint is
 * torn, or one of checkpoints that do not declare their slots' keys, is not enough ({@link CheckpointCatalog#lacks}).
 */
class CheckpointHintTest {
    /** Checkpoints of a few chunks each (500 edges a chunk beside the room a chunk keeps). */
    private static TopicsConfig smallChunks() {
        TopicsConfig t = new TopicsConfig();
        t.setMaxMessageBytes((320 << 10) + 16 * 500);
        return t;
    }

    private static FrontierConfig config() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.getCheckpoints().setEnabled(true);
        config.getCheckpoints().setUpdates(1);
        return config;
    }

    /** Publishes version {@code version} of g (3,000 edges) and h (1,500 edges), partition 0. */
    private static void publish(Fixtures.Services s, long version) {
        s.install(Fixtures.snapshot("g", version, UniformRandomGraph.generate(300, 3_000, 5 + version, 9, false), 1, 700), 0);
        s.install(Fixtures.snapshot("h", version, UniformRandomGraph.generate(200, 1_500, 50 + version, 9, true), 1, 700), 0);
    }

    /** Ticks until both graphs are checkpointed at {@code offset} (one graph's copy a tick). */
    private static void checkpointBoth(Checkpointer cp, long offset, long nowMs) {
        for (int i = 0; i < 2; i++) {
            cp.tick(Map.of(0, offset), nowMs);
            cp.awaitWrites();
        }
    }

    @Test
    void aReadFromTheHintFindsTheNewestCheckpointsWithFewerBytesAndInstallsTheSameGraphs() throws Exception {
        FrontierConfig config = config();
        try (Fixtures.Services s = Fixtures.start(config); Fixtures.Services hinted = Fixtures.start(config);
             Fixtures.Services whole = Fixtures.start(config)) {
            Checkpointer cp = new Checkpointer(s.registry(), s.subscriptions(), config, smallChunks());
            CheckpointerTest.KeptRecords topic = new CheckpointerTest.KeptRecords();
            cp.sink(topic);
            publish(s, 1);
            long now = System.currentTimeMillis();
            cp.tick(Map.of(0, 10L), now);   // counted from the install
            assertNull(cp.hint(0, 11), "no checkpoint yet: no hint (a rebuild reads from the beginning)");
            checkpointBoth(cp, 10, now + 3_600_000);
            Checkpointer.Hint first = cp.hint(0, 11);
            assertEquals(new Checkpointer.Hint(0, 2), first, "both graphs' first checkpoints, from the first record");
            cp.committed(0, cp.stamp());   // a commit relying on them: the other slots may be written

            publish(s, 2);
            checkpointBoth(cp, 20, now + 7_200_000);
            int written = topic.sent.size();
            Checkpointer.Hint hint = cp.hint(0, 21);
            assertNotNull(hint);
            assertEquals(2, hint.graphs());
            assertTrue(hint.from() > 0 && hint.from() < written, hint + " of " + written + " records");
            assertNull(cp.hint(0, 20), "a checkpoint taken at the commit's offset: the rebuild would need the one before");

            List<String> unusable = new ArrayList<>();
            CheckpointCatalog fromHint = catalogOf(topic.sent, (int) hint.from()), fromStart = catalogOf(topic.sent);
            Map<String, CheckpointCatalog.Found> a = fromHint.usable(21, unusable), b = fromStart.usable(21, unusable);
            assertEquals(List.of(), unusable);
            assertNull(fromHint.lacks(hint.graphs(), a, unusable), "the read from the hint holds what the commit relied on");
            assertTrue(fromHint.bytes() < fromStart.bytes(), fromHint.bytes() + " bytes from the hint, " + fromStart.bytes() + " from the beginning");
            assertEquals(b.keySet(), a.keySet());
            for (String g : List.of("g", "h")) {
                assertEquals(b.get(g).meta(), a.get(g).meta(), g + ": the same checkpoint");
                assertEquals(b.get(g).validThrough(), a.get(g).validThrough());
                assertEquals(2, a.get(g).meta().version());
                assertTrue(a.get(g).declared());
                assertArrayEquals(b.get(g).slotSizes(), a.get(g).slotSizes(), g + ": the older slot's keys, declared by the newer chunk 0");
                assertArrayEquals(b.get(g).subSizes(), a.get(g).subSizes());
            }

            Checkpointer back = new Checkpointer(hinted.registry(), hinted.subscriptions(), config, smallChunks());
            Checkpointer full = new Checkpointer(whole.registry(), whole.subscriptions(), config, smallChunks());
            back.restore(0, a.values(), new Checkpointer.Read(0, 0, fromHint.records(), fromHint.bytes(), hint.from()));
            full.restore(0, b.values(), new Checkpointer.Read(0, 0, fromStart.records(), fromStart.bytes(), -1));
            for (String g : List.of("g", "h")) {
                GraphEntry want = s.registry().get(g).orElseThrow(), x = hinted.registry().get(g).orElseThrow(), y = whole.registry().get(g).orElseThrow();
                assertEquals(want.version(), x.version());
                assertEquals(want.version(), y.version());
                assertSameGraph(want.resident().graph(), x.resident().graph(), g + " restored from the hint's read");
                assertSameGraph(y.resident().graph(), x.resident().graph(), g + ": as from the beginning");
            }
            assertEquals(hint.from(), back.lastRestore().orElseThrow().readFrom());
            assertEquals(hint, back.hint(0, 21), "the new owner's next commit names the same checkpoints");
            cp.close();
            back.close();
            full.close();
        }
    }

    @Test
    void aReadThatMissesWhatTheCommitReliedOnIsNotEnough() {
        FrontierConfig config = config();
        try (Fixtures.Services s = Fixtures.start(config)) {
            Checkpointer cp = new Checkpointer(s.registry(), s.subscriptions(), config, smallChunks());
            CheckpointerTest.KeptRecords topic = new CheckpointerTest.KeptRecords();
            cp.sink(topic);
            publish(s, 1);
            long now = System.currentTimeMillis();
            cp.tick(Map.of(0, 10L), now);
            checkpointBoth(cp, 10, now + 3_600_000);
            cp.committed(0, cp.stamp());
            publish(s, 2);
            checkpointBoth(cp, 20, now + 7_200_000);
            Checkpointer.Hint hint = cp.hint(0, 21);

            assertNotNull(lacks(catalogOf(topic.sent, (int) hint.from() + 1), hint.graphs()), "not where a checkpoint starts");
            assertNotNull(lacks(catalogOf(topic.sent, (int) hint.from()), 3), "fewer graphs than the commit relied on");
            List<String> none = new ArrayList<>();
            int later = (int) catalogOf(topic.sent).usable(21, none).values().stream().mapToLong(CheckpointCatalog.Found::start).max().orElseThrow();
            assertTrue(later > hint.from());
            assertNotNull(lacks(catalogOf(topic.sent, later), hint.graphs()), "from the later graph's checkpoint: the other one missed");

            // h's newest checkpoint torn (a chunk lost): its previous one lies before the hint
            List<CheckpointFormat.Out> torn = new ArrayList<>(topic.sent);
            int lastH = -1;
            for (int i = 0; i < torn.size(); i++) if (torn.get(i).key().matches("h/[01]/[1-9]") && torn.get(i).value() != null) lastH = i;
            assertTrue(lastH > hint.from(), "h's newest checkpoint has a second chunk");
            torn.set(lastH, new CheckpointFormat.Out("unrelated", new byte[0], new RecordHeaders()));
            String why = lacks(catalogOf(torn, (int) hint.from()), hint.graphs());
            assertNotNull(why, "a graph seen there has no usable checkpoint");
            List<String> unusable = new ArrayList<>();
            assertEquals(1, catalogOf(torn).usable(21, unusable).get("h").meta().version(), "from the beginning: h's previous checkpoint");

            // checkpoints written before chunk 0 declared both slots' keys: the other slot's keys are unknown there
            List<CheckpointFormat.Out> undeclared = new ArrayList<>();
            for (CheckpointFormat.Out r : topic.sent) {
                RecordHeaders h = new RecordHeaders();
                if (r.headers() != null) for (Header x : r.headers()) if (!x.key().equals(CheckpointFormat.SLOTS)) h.add(x);
                undeclared.add(new CheckpointFormat.Out(r.key(), r.value(), r.headers() == null ? null : h));
            }
            assertNotNull(lacks(catalogOf(undeclared, (int) hint.from()), hint.graphs()), "the older slot's keys unknown");
            unusable.clear();
            Map<String, CheckpointCatalog.Found> old = catalogOf(undeclared).usable(21, unusable);
            assertTrue(old.values().stream().noneMatch(CheckpointCatalog.Found::declared), "a read from the beginning sees every key");
            assertArrayEquals(catalogOf(topic.sent).usable(21, unusable).get("g").slotSizes(), old.get("g").slotSizes());

            // a new owner that installed such a checkpoint replaces it when due, not with a validity marker
            try (Fixtures.Services back = Fixtures.start(config)) {
                Checkpointer restored = new Checkpointer(back.registry(), back.subscriptions(), config, smallChunks());
                CheckpointerTest.KeptRecords next = new CheckpointerTest.KeptRecords();
                restored.sink(next);
                restored.restore(0, old.values(), new Checkpointer.Read(0, 0, 0, 0, -1));
                restored.committed(0, restored.stamp());
                checkpointBoth(restored, 30, System.currentTimeMillis() + 3_600_000);
                assertTrue(next.liveKeys().containsAll(List.of("g/0/0", "h/0/0")), "new checkpoints in the other slots: " + next.liveKeys());
                unusable.clear();
                assertTrue(catalogOf(next.sent).usable(31, unusable).values().stream().allMatch(CheckpointCatalog.Found::declared));
                restored.close();
            }
            cp.close();
        }
    }

    private static String lacks(CheckpointCatalog c, int graphs) {
        List<String> unusable = new ArrayList<>();
        return c.lacks(graphs, c.usable(21, unusable), unusable);
    }
}
