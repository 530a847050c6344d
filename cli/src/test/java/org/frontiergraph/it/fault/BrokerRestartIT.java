package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.QueryResult;
import org.junit.jupiter.api.Test;

/**
 * Fault suite (b): the broker is stopped under load and started again on the same port and log directory. The worker
 * (a real child JVM) recovers by itself, without a restart: every query, published before, during or after the
 * outage, is answered OK on the expected version and verified, and its health is UP again.
 */
class BrokerRestartIT extends FaultTest {
    static final long SEED = 0xFA_0002L;
    static final int PARTITIONS = 3;
    static final Duration OUTAGE = Duration.ofSeconds(8);

    @Test
    void theWorkerRecoversByItselfWhenTheBrokerComesBack() throws Exception {
        long t0 = System.nanoTime();
        dir = FaultSupport.tempDir("broker");
        Path log = dir.resolve("kafka");
        broker = EmbeddedKafkaBroker.start(0, log, false);
        String bootstrap = broker.bootstrapServers();
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        FaultSupport.createTopics(bootstrap, PARTITIONS);
        worker = WorkerProcess.start("solo", bootstrap, dir, "320m",
                Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS))).awaitReady(Duration.ofSeconds(90));
        long pid = worker.pid();

        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        AtomicReference<Throwable> trafficFailure = new AtomicReference<>();
        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            Traffic traffic = new Traffic(client, "broker", 3, 300, SEED);
            traffic.publishSnapshots();
            Awaitility.await("version 1 of every graph loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> traffic.graphIds().stream().allMatch(g -> out.loaded(g, 1)));
            traffic.every(pace, 40, trafficFailure);
            Awaitility.await("traffic flowing").atMost(Duration.ofSeconds(60)).until(() -> answered(traffic, out) >= 50);

            int beforeOutage = traffic.queryCount();
            long down = System.nanoTime();
            broker.close();
            broker = null;
            // down for longer than the group's session timeout (6 s), and until the worker's /health reports it
            Awaitility.await("an outage longer than the session timeout, seen by the worker").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> System.nanoTime() - down > OUTAGE.toNanos() && worker.httpStatus("/health") != 200);
            long outage = System.nanoTime() - down;
            broker = EmbeddedKafkaBroker.start(port, log, false);
            long up = System.nanoTime();
            Awaitility.await("queries published after the restart answered").atMost(Duration.ofSeconds(120))
                    .until(() -> traffic.queryCount() > beforeOutage + 20 && answered(traffic, out) >= beforeOutage + 20);
            long firstAnswers = System.nanoTime() - up;
            pace.shutdown();
            assertTrue(pace.awaitTermination(90, TimeUnit.SECONDS));
            assertTrue(trafficFailure.get() == null, () -> "publishing failed: " + trafficFailure.get());
            Awaitility.await("every query answered").atMost(Duration.ofSeconds(120)).until(() -> traffic.allAnswered(out));
            long drained = System.nanoTime() - up;
            Awaitility.await("health UP again").atMost(Duration.ofSeconds(60))
                    .until(() -> worker.httpStatus("/health") == 200 && worker.httpStatus("/health/readiness") == 200);

            Traffic.Report report = traffic.check(out);
            System.out.printf(Locale.ROOT, "[fault b] broker down %.1f s and restarted "
                            + "on port %d: %s; queries answered again %.1f s after the restart, all %.1f s after; total %.1f s%n",
                    FaultSupport.seconds(outage), port, report, FaultSupport.seconds(firstAnswers), FaultSupport.seconds(drained),
                    FaultSupport.seconds(System.nanoTime() - t0));
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertTrue(worker.alive(), "the worker is still running");
            assertEquals(pid, worker.pid(), "recovered by itself, not restarted");
            assertTrue(out.errors().isEmpty(), () -> "no error events expected: " + out.errors());
        } finally {
            pace.shutdownNow();
        }
    }

    private static long answered(Traffic traffic, OutputLog out) {
        Map<String, List<OutputLog.Arrival<QueryResult>>> by = out.resultsByQuery();
        return traffic.expected().stream().filter(e -> Traffic.answeredAt(by.get(e.queryId())) > 0).count();
    }
}
