package org.frontiergraph.bench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.frontiergraph.bench.BenchCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SubscriptionBench end to end, small: a 32 x 32 grid through an embedded broker to a worker on the CPU engine, four
 * DELTA SSSP subscriptions, re-weights at 200/s for 2 s. Checks that the run passed its own checks (every push in
 * sequence, the verified views equal to fresh answers, every subscription ended on cancel), that pushes and latencies
 * were measured, and that the table was written. Not a measurement.
 */
class SubscriptionBenchTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void subscriptionsThroughAnEmbeddedBrokerArePushedMeasuredAndVerified() throws Exception {
        Path out = dir.resolve("subscription-bench.md");
        SubscriptionBench.Options o = SubscriptionBench.Options.parse(new String[] {"--graph", "grid32", "--subscriptions", "4",
                "--rate", "200", "--seconds", "2", "--warmup-s", "1", "--backend", "cpu", "--verify", "2", "--timeout-s", "60",
                "--readers", "3", "--out", out.toString()});
        long t0 = System.nanoTime();
        SubscriptionBench.Outcome outcome = SubscriptionBench.run(o);
        SubscriptionBench.Result r = outcome.result();
        System.out.println(outcome.markdown());
        System.out.println("[subscription-bench test] took " + Duration.ofNanos(System.nanoTime() - t0).toMillis() + " ms");

        assertTrue(r.ok(), () -> "failures: " + r.failures());
        assertEquals(4, r.subscriptions());
        assertEquals(1024, r.vertices());
        assertEquals(400, r.updates());
        assertTrue(r.fullBytes() > 1024 * 12, "a complete answer holds a distance and a parent per vertex: " + r.fullBytes());
        assertTrue(r.updatePushes() > 0 && r.deltaPushes() > 0, r::toString);
        assertTrue(r.deltaBytesP50() > 0 && r.deltaBytesP50() < r.fullBytes(), r::toString);
        assertTrue(r.pairs() > 0 && r.pairP50() > 0 && r.pairP99() >= r.pairP50(), r::toString);
        assertTrue(r.changingUpdates() > 0 && r.updateP50() > 0, r::toString);
        assertTrue(r.statusP50() > 0, r::toString);
        assertEquals(2, r.verified());
        assertEquals(2, r.checked());
        assertEquals(4, r.ended());
        String md = Files.readString(out);
        assertEquals(outcome.markdown() + "\n", md);
        for (String s : new String[] {"### SubscriptionBench", "**Standing SSSP queries through Kafka**", "| grid32 | cpu | 4 |",
                "Every push applied in sequence", "pushes read by 3 consumer thread(s)", "Where the pairs' time went, of all " + r.pairs() + " pairs"}) {
            assertTrue(md.contains(s), () -> "the table lacks " + s + ":\n" + md);
        }
    }

    @Test
    void theTailOfThePairsIsSplitIntoTheWorkersPartAndTheReadLag() {
        // three pairs of 10, 11 and 50 ms: the slowest one waited 40 ms in the worker and 10 ms on the wire, in a push of 20,000 vertices
        String t = PairTail.describe(java.util.List.of(new PairTail.Pair(10, 2, 5), new PairTail.Pair(11, 3, 7),
                new PairTail.Pair(50, 10, 20_000)));
        assertTrue(t.startsWith("of all 3 pairs: "), t);
        String tail = t.substring(t.indexOf("of the 1 at or above the p99"));
        assertTrue(tail.contains("until sent p50 40.0") && tail.contains("read lag p50 10.0") && tail.contains("listed p50 20000")
                && tail.contains("100% in pushes of 10^4"), t);
        assertTrue(t.contains("33% in pushes of 10^4"), t);
        assertEquals("", PairTail.describe(java.util.List.of()));
    }

    @Test
    void badCommandLinesAreRefused() {
        for (String[] args : new String[][] {{"--subscriptions", "0"}, {"--rate", "x"}, {"--backend", "tpu"}, {"--start-worker"},
                {"--seconds"}, {"--nonsense", "1"}}) {
            assertThrows(BenchCli.UsageException.class, () -> SubscriptionBench.Options.parse(args), String.join(" ", args));
        }
        SubscriptionBench.Options o = SubscriptionBench.Options.parse(new String[] {"--bootstrap", "h:9092", "--subscriptions", "3"});
        assertEquals(3, o.verify(), "at most one view verified per subscription");
        assertTrue(!o.cluster().startsWorker());
    }
}
