package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.QueryResult;
import org.junit.jupiter.api.Test;

/**
 * Fault suite (a): three workers in one group, real child JVMs, under a steady stream of updates and queries over six
 * graphs; each worker in turn is killed with SIGKILL and started again with the same worker id. Every query is
 * answered OK exactly once per query id (a chunk delivered twice must be identical, and is counted), on the version
 * that includes every update published before it, checked by the verifiers. Measures, per kill, how long the dead
 * worker's graphs went unanswered: the slowest answer to the queries published in the second after the kill.
 */
class WorkerCrashIT extends FaultTest {
    static final long SEED = 0xFA_0001L;
    static final int PARTITIONS = 6;
    static final int WORKERS = 3;

    @Test
    void killedWorkersLoseNoQueryAndTheirGraphsMoveWithinSeconds() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("crash", PARTITIONS);
        for (int i = 0; i < WORKERS; i++) workers.add(startWorker("w" + i, bootstrap));
        for (WorkerProcess w : workers) w.awaitReady(Duration.ofSeconds(90));
        double startup = FaultSupport.seconds(System.nanoTime() - t0);

        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        AtomicReference<Throwable> trafficFailure = new AtomicReference<>();
        List<String> kills = new ArrayList<>();
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            Traffic traffic = new Traffic(client, "crash", 6, 300, SEED);
            traffic.publishSnapshots();
            Awaitility.await("version 1 of every graph loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> traffic.graphIds().stream().allMatch(g -> out.loaded(g, 1)));
            traffic.every(pace, 40, trafficFailure);

            for (int round = 0; round < WORKERS; round++) {
                WorkerProcess victim = workers.get(round);
                int before = traffic.queryCount();
                Awaitility.await("traffic flowing before kill " + round).atMost(Duration.ofSeconds(60))
                        .until(() -> answeredCount(traffic, out) >= before + 30);
                victim.kill();
                long killed = System.nanoTime();
                Awaitility.await("a second of queries after kill " + round).atMost(Duration.ofSeconds(30))
                        .until(() -> traffic.expected().stream().anyMatch(e -> e.publishedNanos() > killed + 1_000_000_000L));
                List<Traffic.Expected> probes = traffic.expected().stream()
                        .filter(e -> e.publishedNanos() > killed && e.publishedNanos() <= killed + 1_000_000_000L).toList();
                Awaitility.await("the dead worker's graphs answered after kill " + round).atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> probes.stream().allMatch(e -> Traffic.answeredAt(out.resultsByQuery().get(e.queryId())) > 0));
                Map<String, List<OutputLog.Arrival<QueryResult>>> by = out.resultsByQuery();
                long slowest = probes.stream().mapToLong(e -> Traffic.answeredAt(by.get(e.queryId())) - e.publishedNanos()).max().orElse(0);
                long restartAt = System.nanoTime();
                WorkerProcess again = startWorker(victim.id(), bootstrap);
                workers.set(round, again);
                again.awaitReady(Duration.ofSeconds(90));
                kills.add(String.format(Locale.ROOT, "kill %d (%s): %d probe queries, slowest answered %.1f s after publication; "
                                + "restarted and ready in %.1f s", round, victim.id(), probes.size(), FaultSupport.seconds(slowest),
                        FaultSupport.seconds(System.nanoTime() - restartAt)));
                assertTrue(slowest < Duration.ofSeconds(20).toNanos(),
                        "the dead worker's graphs must be answered within seconds: " + kills.get(kills.size() - 1));
            }
            int before = traffic.queryCount();
            Awaitility.await("traffic flowing after the last restart").atMost(Duration.ofSeconds(60))
                    .until(() -> answeredCount(traffic, out) >= before + 30);
            pace.shutdown();
            assertTrue(pace.awaitTermination(60, TimeUnit.SECONDS));
            assertTrue(trafficFailure.get() == null, () -> "publishing failed: " + trafficFailure.get());
            Awaitility.await("every query answered").atMost(Duration.ofSeconds(90)).until(() -> traffic.allAnswered(out));

            Traffic.Report report = traffic.check(out);
            System.out.printf(Locale.ROOT, "[fault a] %d workers, %d SIGKILLs: %s; startup %.1f s, total %.1f s%n",
                    WORKERS, kills.size(), report, startup, FaultSupport.seconds(System.nanoTime() - t0));
            kills.forEach(k -> System.out.println("[fault a]   " + k));
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertTrue(out.errors().isEmpty(), () -> "no error events expected: " + out.errors());
        } finally {
            pace.shutdownNow();
        }
    }

    private WorkerProcess startWorker(String id, String bootstrap) {
        return WorkerProcess.start(id, bootstrap, dir, "320m", Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS)));
    }

    private static long answeredCount(Traffic traffic, OutputLog out) {
        Map<String, List<OutputLog.Arrival<QueryResult>>> by = out.resultsByQuery();
        return traffic.expected().stream().filter(e -> Traffic.answeredAt(by.get(e.queryId())) > 0).count();
    }
}
