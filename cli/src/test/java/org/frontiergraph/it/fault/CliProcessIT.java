package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.Test;

/**
 * {@code ./frontier} as a user runs it, a child JVM through {@code FrontierCli.main}: standard output carries only
 * the command's output whatever is logged, {@code FRONTIER_KAFKA_PORT} names the cluster, and a subscriber and a tail
 * exit within 5 s of SIGTERM after their broker is gone, with a sentence on stderr and no exception class.
 */
class CliProcessIT extends FaultTest {
    static final Duration EXIT_WITHIN = Duration.ofSeconds(5);
    /** A line logback writes (the CLI's pattern: an ISO-8601 time, then the level). */
    static final Pattern LOG_LINE = Pattern.compile("(?m)^\\d{4}-\\d\\d-\\d\\dT\\S+ (ERROR|WARN|INFO|DEBUG|TRACE) ");

    /** A running {@code ./frontier} command: its process and where its stdout and stderr go. */
    record Cli(Process process, Path out, Path err) {
        String stdout() { return read(out); }

        String stderr() { return read(err); }

        private static String read(Path f) {
            try {
                return Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** SIGTERM; how long it took to exit (at most {@code within}, else the process is killed and the test fails). */
        Duration terminate(Duration within) throws Exception {
            long t0 = System.nanoTime();
            process.destroy();
            boolean exited = process.waitFor(within.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            if (!exited) process.destroyForcibly();
            assertTrue(exited && took.compareTo(within) <= 0, () -> "exited " + exited + " after " + took + "; stderr:\n" + stderr());
            return took;
        }
    }

    private Cli start(String name, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "org.frontiergraph.cli.FrontierCli"));
        cmd.addAll(List.of(args));
        Path out = dir.resolve(name + ".out"), err = dir.resolve(name + ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().remove("KAFKA_BOOTSTRAP_SERVERS");
        pb.environment().remove("FRONTIER_KAFKA_PORT");
        pb.environment().putAll(env);
        return new Cli(pb.start(), out, err);
    }

    @Test
    void queryJsonOnStdoutParsesWhateverIsLoggedAndTheKafkaPortComesFromTheEnvironment() throws Exception {
        String bootstrap = startBroker("cli-stdout", 2);
        FrontierWorker w = FrontierWorker.start(bootstrap, Map.of("frontier.backend", "cpu", "micronaut.server.port", -1,
                "frontier.topics.partitions", 2));
        try (FrontierClient client = new FrontierClient(bootstrap); TopicWatcher<GraphStatus> status = client.watchStatus()) {
            EdgeList e = new EdgeList(3, true);
            e.add(0, 1, 2);
            e.add(1, 2, 3);
            client.publishSnapshot("p", 1, Snapshots.of(e), 1, true, null);
            status.awaitFirst(x -> x.getGraphId().equals("p") && x.getVersion() == 1, Duration.ofSeconds(60)).orElseThrow();

            // no --bootstrap: the port from $FRONTIER_KAFKA_PORT; a retry backoff above its maximum makes each Kafka client
            // log a WARN (a static backoff will be applied), DEBUG logging whatever else there is
            String port = bootstrap.substring(bootstrap.lastIndexOf(':') + 1);
            Cli query = start("query", Map.of("FRONTIER_KAFKA_PORT", port, "FRONTIER_LOG_LEVEL", "DEBUG"), "query", "--graph", "p",
                    "--algorithm", "sssp", "--source", "1", "--format", "json", "--kafka-property", "retry.backoff.ms=1500");
            assertTrue(query.process().waitFor(120, TimeUnit.SECONDS), "the query ended");
            assertEquals(0, query.process().exitValue(), query::stderr);
            JsonNode answer = new ObjectMapper().readTree(query.stdout());
            assertEquals(5, answer.get("distances").get("3").asInt(), query.stdout());
            assertTrue(LOG_LINE.matcher(query.stderr()).find(), () -> "the command logged nothing to stderr:\n" + query.stderr());
            assertFalse(LOG_LINE.matcher(query.stdout()).find(), query::stdout);
        } finally {
            w.close();
        }
    }

    @Test
    void aSubscriberAndATailExitWithinFiveSecondsOfSigtermWithTheBrokerGone() throws Exception {
        String bootstrap = startBroker("cli-sigterm", 2);
        Cli subscriber = start("subscribe", Map.of(), "subscribe", "--bootstrap", bootstrap, "--graph", "nobody-loads-it",
                "--algorithm", "cc", "--timeout", "300");
        Cli tail = start("tail", Map.of(), "tail", "status", "--bootstrap", bootstrap);
        try (KafkaProducer<String, byte[]> producer = producer(bootstrap)) {
            Awaitility.await("the subscription is published").atMost(Duration.ofSeconds(60))
                    .until(() -> subscriber.stderr().contains("Ctrl-C cancels it"));
            // the tail prints what arrives once it reads the topic: a status published until one line shows up
            GraphStatus s = GraphStatus.newBuilder().setGraphId("t").setVersion(7).setState(GraphState.LOADED).setVertexCount(1)
                    .setEdgeCount(0).setBackend("cpu").setResidentBytes(1).setWorker("test").setTimestampMs(1).build();
            Awaitility.await("the tail prints a status").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                producer.send(new ProducerRecord<>(FaultSupport.STATUS, "t", FrontierCodec.encode(s))).get();
                return !tail.stdout().isEmpty();
            });
        }
        JsonNode printed = new ObjectMapper().readTree(tail.stdout().lines().findFirst().orElseThrow());
        assertEquals("t", printed.get("graphId").asText());
        assertEquals(7, printed.get("version").asInt());

        broker.close();
        broker = null;
        Duration sub = subscriber.terminate(EXIT_WITHIN);
        Duration t = tail.terminate(EXIT_WITHIN);
        assertEquals(0, subscriber.process().exitValue(), subscriber::stderr);
        assertEquals(0, tail.process().exitValue(), tail::stderr);
        assertTrue(subscriber.stderr().contains("SIGTERM: the broker at " + bootstrap + " did not acknowledge the cancel"), subscriber::stderr);
        for (Cli c : List.of(subscriber, tail)) {
            assertFalse(Pattern.compile("\\w+(Exception|Error)\\b|\\tat ").matcher(c.stderr()).find(), "no exception class:\n" + c.stderr());
        }
        System.out.printf("[cli] SIGTERM with the broker gone: subscribe exited in %.2f s, tail in %.2f s%n",
                sub.toMillis() / 1e3, t.toMillis() / 1e3);
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
