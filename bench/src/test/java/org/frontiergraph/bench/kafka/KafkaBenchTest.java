package org.frontiergraph.bench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.frontiergraph.bench.BenchCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * KafkaBench end to end, small: a 1,024-vertex Kronecker graph through an embedded broker to a worker on the CPU
 * engine, every scenario with a handful of queries and updates. Checks that each scenario produced its rows with
 * positive numbers, that every answer was OK, on the expected version and (for the sample) equal to the CPU
 * engine's, and that the table was written. Not a measurement: the numbers are whatever a CI machine gives.
 */
class KafkaBenchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void everyScenarioThroughAnEmbeddedBrokerGivesRowsAndRightAnswers() throws Exception {
        Path out = dir.resolve("kafka-bench.md");
        BenchOptions o = BenchOptions.parse(new String[] {"--graphs", "kron10", "--backend", "cpu", "--queries", "3",
                "--warmup", "1", "--burst", "20", "--updates", "200", "--query-every", "100", "--load-runs", "2",
                "--verify", "1", "--budget-s", "20", "--timeout-s", "60", "--out", out.toString()});
        long t0 = System.nanoTime();
        KafkaBench.Outcome outcome = KafkaBench.run(o);
        Report r = outcome.report();
        System.out.println(outcome.markdown());
        System.out.println("[kafka-bench test] took " + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms");

        assertTrue(r.allOk(), () -> "failures: " + r.failures);
        assertEquals(1, r.graphs.size());
        assertEquals(1024, r.graphs.get(0).vertices());
        assertTrue(r.graphs.get(0).edgesStored() > 0);

        assertEquals(1, r.loads.size());
        Report.LoadRow load = r.loads.get(0);
        assertEquals(2, load.runs());
        assertTrue(load.loadedMsMedian() > 0 && load.edgesPerSecond() > 0, load::toString);

        assertEquals(8, r.closed.size(), "BFS and SSSP in three modes, MST in two");
        for (Report.ClosedRow c : r.closed) {
            assertEquals(3, c.queries(), c::toString);
            assertTrue(c.p50() > 0 && c.p99() >= c.p50(), c::toString);
            assertEquals("cpu", c.backend(), c::toString);
            assertEquals(1, c.verified(), c::toString);
            assertTrue(c.worker().events() > 0 && c.worker().endToEnd() >= 0, c::toString);
            // the stages around the worker's: the query record acknowledged, the answer read after the worker's acknowledgement
            assertTrue(c.worker().queryAcked() > 0 && c.worker().queryAcked() <= c.p99(), c::toString);
            assertTrue(Double.isFinite(c.worker().delivered()) && Double.isFinite(c.worker().acknowledge())
                    && Double.isFinite(c.worker().pickup()), c::toString);
            // one query a run: its engine call's wall time holds the engine's own timing, the hand-over holds the call
            assertTrue(c.worker().engine() >= c.worker().compute() && c.worker().handOver() >= c.worker().engine(), c::toString);
        }

        assertEquals(3, r.bursts.size());
        for (Report.BurstRow b : r.bursts) {
            assertEquals(20, b.inFlight(), b::toString);
            assertTrue(b.perSecond() > 0 && b.p50() > 0, b::toString);
            assertEquals(1, b.verified(), b::toString);
        }

        assertEquals(2, r.updates.size(), "re-weights, then edges removed and added");
        assertEquals(Report.REWEIGHTS, r.updates.get(0).kind());
        assertEquals(Report.ADD_REMOVE, r.updates.get(1).kind());
        for (Report.UpdatesRow u : r.updates) {
            assertTrue(u.updates() > 0 && u.perSecond() > 0 && u.queries() > 0, u::toString);
            assertTrue(u.verified() >= 1, u::toString);
        }

        assertEquals(1, r.updateQueries.size());
        Report.UpdateQueryRow q = r.updateQueries.get(0);
        assertEquals(3, q.repeats(), q::toString);
        assertTrue(q.p50() > 0, q::toString);
        assertEquals(1, q.verified(), q::toString);

        assertTrue(r.checked >= 8 + 3 + 1 + 1 + 1, "answers checked against the CPU engine: " + r.checked);
        String md = Files.readString(out);
        assertEquals(outcome.markdown(), md);
        for (String section : new String[] {"**Snapshot load**", "**Closed loop**", "**Burst**", "**Sustained updates**",
                "**Update then query**", "| kron10 | BFS | SUMMARY | cpu | 3 |", "| kron10 | re-weights |", "| kron10 | add/remove |",
                "every one OK"}) {
            assertTrue(md.contains(section), () -> "the table lacks " + section + ":\n" + md);
        }
    }

    /**
     * The edge-updates scenario alone: 1,000 structural updates (alternately an edge removed and one added) through the
     * broker, every one applied (a removal of a missing edge would be refused with an error event and the version
     * awaited would never come), one SSSP SUMMARY query per 250 answered on the version with the updates before it,
     * the first and the last checked against the CPU engine on the graph replayed here.
     */
    @Test
    @Timeout(90)
    void edgeUpdatesApplyEveryRemovalAndAdditionAndQueriesSeeThem() throws Exception {
        BenchOptions o = BenchOptions.parse(new String[] {"--graphs", "kron10", "--backend", "cpu", "--scenarios", "edge-updates",
                "--updates", "1000", "--query-every", "250", "--verify", "1", "--budget-s", "60", "--timeout-s", "30"});
        long t0 = System.nanoTime();
        KafkaBench.Outcome outcome = KafkaBench.run(o);
        Report r = outcome.report();
        System.out.println(outcome.markdown());
        System.out.println("[kafka-bench test] took " + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms");

        assertTrue(r.allOk(), () -> "failures: " + r.failures);
        assertTrue(r.loads.isEmpty() && r.closed.isEmpty() && r.bursts.isEmpty() && r.updateQueries.isEmpty());
        assertEquals(1, r.updates.size());
        Report.UpdatesRow u = r.updates.get(0);
        assertEquals(Report.ADD_REMOVE, u.kind(), u::toString);
        assertEquals(1000, u.updates(), u::toString);
        assertEquals("", u.note(), u::toString);
        assertEquals(4, u.queries(), u::toString);
        assertEquals(2, u.verified(), u::toString);
        assertTrue(u.perSecond() > 0 && u.queryP50() > 0, u::toString);
        assertEquals(2, r.checked);
        assertTrue(outcome.markdown().contains("| kron10 | add/remove | 1,000 | 250 | 4 |"), outcome.markdown());
    }

    @Test
    void badCommandLinesAreRefused() {
        for (String[] args : new String[][] {{"--queries", "0"}, {"--backend", "tpu"}, {"--scenarios", "closed,warp"},
                {"--start-worker"}, {"--graphs"}, {"--nonsense", "1"}}) {
            try {
                BenchOptions.parse(args);
                throw new AssertionError("accepted " + String.join(" ", args));
            } catch (BenchCli.UsageException expected) {
                assertTrue(!expected.getMessage().isEmpty());
            }
        }
        BenchOptions o = BenchOptions.parse(new String[] {"--scenarios", "burst,load", "--bootstrap", "h:9092"});
        assertTrue(o.runs("burst") && o.runs("load") && !o.runs("closed") && !o.runs("edge-updates") && !o.startsWorker());
        assertTrue(BenchOptions.parse(new String[] {"--scenarios", "edge-updates"}).runs("edge-updates"));
        assertTrue(BenchCli.usage(new BenchOptions.Cli()).contains("edge-updates"));
    }
}
