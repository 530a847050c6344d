package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.frontiergraph.client.FrontierClient;
import org.junit.jupiter.api.Test;

/**
 * A worker whose consumer dies is not left running without it: here a second client joins the group under the
 * worker's own group.instance.id (two workers configured with one id), which fences the worker's consumer (a fatal
 * error of the Kafka client, outside any record). The worker, a real child JVM, closes that consumer, reports it on
 * /health/liveness, starts a new one (which fences the impostor in turn) and answers again.
 */
class ConsumerRestartIT extends FaultTest {
    static final int PARTITIONS = 3;

    @Test
    void aFencedConsumerIsReplacedAndReported() throws Exception {
        String bootstrap = startBroker("restart", PARTITIONS);
        worker = WorkerProcess.start("twin", bootstrap, dir, "256m",
                Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS))).awaitReady(Duration.ofSeconds(90));
        assertTrue(worker.httpBody("/health/liveness").contains("\"restarts\":0"));

        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            Traffic traffic = new Traffic(client, "restart", 3, 200, 0xFA_0004L);
            traffic.publishSnapshots();
            Awaitility.await("graphs loaded").atMost(Duration.ofSeconds(60))
                    .until(() -> traffic.graphIds().stream().allMatch(g -> out.loaded(g, 1)));

            long t0 = System.nanoTime();
            try (KafkaConsumer<String, byte[]> impostor = impostor(bootstrap, "twin")) {
                impostor.subscribe(List.of(FaultSupport.GRAPHS));
                Awaitility.await("the worker's consumer fenced, replaced and reported").atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            pollQuietly(impostor);
                            return worker.log().contains("the consumer of frontier.graphs failed");
                        });
            }
            Awaitility.await("consuming again, ready").atMost(Duration.ofSeconds(90))
                    .until(() -> worker.httpStatus("/health/liveness") == 200 && worker.httpStatus("/health/readiness") == 200
                            && !worker.httpBody("/health/liveness").contains("\"restarts\":0"));
            double recovered = FaultSupport.seconds(System.nanoTime() - t0);
            for (int i = 0; i < 6; i++) traffic.step();
            Awaitility.await("answering again").atMost(Duration.ofSeconds(60)).until(() -> traffic.allAnswered(out));
            Traffic.Report report = traffic.check(out);
            String liveness = worker.httpBody("/health/liveness");
            System.out.printf(Locale.ROOT, "[fault] fenced consumer replaced, live and ready again %.1f s after the impostor joined: "
                    + "%s; liveness %s%n", recovered, report, liveness);
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertTrue(worker.alive());
        }
    }

    /** Polls, ignoring that the impostor itself is fenced once the worker's new consumer joins. */
    private static void pollQuietly(KafkaConsumer<String, byte[]> c) {
        try {
            c.poll(Duration.ofMillis(100));
        } catch (FencedInstanceIdException e) {
            // the worker took its id back
        }
    }

    private static KafkaConsumer<String, byte[]> impostor(String bootstrap, String instanceId) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, FaultSupport.GROUP);
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }
}
