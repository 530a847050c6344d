package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.it.Pipeline;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM ends a worker, a real child JVM, within seconds: the JVM exits through its one shutdown hook (status 143),
 * the worker leaves the group at once (no member is left waiting for the session timeout), and what it acknowledged
 * is committed. Once idle, started as {@code ./frontier worker} does; once while loading a snapshot, started by the
 * image's entry class, after which a new worker completes the load from the log.
 */
class ShutdownIT {
    static final int PARTITIONS = 3;
    static final Duration EXIT_WITHIN = Duration.ofSeconds(15);

    static EmbeddedKafkaBroker broker;
    static Path dir;
    static String bootstrap;

    @BeforeAll
    static void start() throws Exception {
        dir = FaultSupport.tempDir("shutdown");
        broker = EmbeddedKafkaBroker.startTemporary();
        bootstrap = broker.bootstrapServers();
        FaultSupport.createTopics(bootstrap, PARTITIONS);
    }

    @AfterAll
    static void stop() {
        if (broker != null) broker.close();
        FaultSupport.deleteQuietly(dir);
    }

    @Test
    void sigtermStopsAnIdleCliWorkerWithinSeconds() throws Exception {
        try (WorkerProcess w = WorkerProcess.start("idle", "org.frontiergraph.cli.FrontierCli", List.of("worker", "--bootstrap", bootstrap),
                bootstrap, dir, "256m", Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS)));
             FrontierClient client = new FrontierClient(bootstrap)) {
            w.awaitReady(Duration.ofSeconds(90));
            EdgeList e = UniformRandomGraph.generate(200, 800, 11, 9, true);
            client.publishSnapshot("idle-g", 1, Snapshots.of(e), 0, true, null);
            GraphQuery q = GraphQuery.newBuilder().setQueryId("idle-q").setGraphId("idle-g").setAlgorithm(Algorithm.SSSP).setSource(0).build();
            List<QueryResult> answer = client.query(q, Pipeline.WAIT).orElseThrow();
            assertTrue(Pipeline.verify(answer, GraphBuilder.build(e)).ok());
            Awaitility.await("the answered query committed").atMost(Duration.ofSeconds(30))
                    .until(() -> FaultSupport.committed(bootstrap).equals(nonEmpty(FaultSupport.endOffsets(bootstrap, PARTITIONS))));
            assertTrue(FaultSupport.groupMembers(bootstrap).contains("idle"));

            Duration exit = w.terminate(EXIT_WITHIN);
            assertNotNull(exit, () -> "the worker did not exit within " + EXIT_WITHIN + " of SIGTERM:\n" + w.tail());
            Map<TopicPartition, Long> committed = FaultSupport.committed(bootstrap);
            assertEquals(143, w.exitCode(), () -> "exit status after SIGTERM (128 + 15):\n" + w.tail());
            assertEquals(List.of(), List.copyOf(FaultSupport.groupMembers(bootstrap)), "the worker left the group at once");
            assertEquals(nonEmpty(FaultSupport.endOffsets(bootstrap, PARTITIONS)), committed, "everything acknowledged is committed");
            assertTrue(w.log().contains("left group 'frontier-workers' (static member 'idle')"), w::tail);
            System.out.printf(Locale.ROOT, "[shutdown] idle ./frontier worker: SIGTERM to exit %.2f s, status %d, group empty%n",
                    exit.toNanos() / 1e9, w.exitCode());
        }
    }

    @Test
    void sigtermStopsAWorkerLoadingASnapshotAndTheLoadCompletesOnTheNextOne() throws Exception {
        EdgeList e = UniformRandomGraph.generate(20_000, 240_000, 12, 9, false);
        List<GraphSnapshotChunk> chunks = FrontierClient.chunks("big", 1, Snapshots.of(e), 0, true, 20_000);
        assertEquals(12, chunks.size());
        try (KafkaProducer<String, byte[]> producer = producer(bootstrap); FrontierClient client = new FrontierClient(bootstrap);
             OutputLog out = new OutputLog(bootstrap)) {
            WorkerProcess w = WorkerProcess.start("loader", bootstrap, dir, "384m",
                    Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS)));
            try {
                w.awaitReady(Duration.ofSeconds(90));
                List<RecordMetadata> first = new ArrayList<>();
                for (GraphSnapshotChunk c : chunks.subList(0, 6)) {
                    first.add(producer.send(new ProducerRecord<>(FaultSupport.GRAPHS, "big", FrontierCodec.encode(c))).get());
                }
                TopicPartition tp = new TopicPartition(FaultSupport.GRAPHS, first.get(0).partition());
                long third = first.get(2).offset();
                Awaitility.await("the worker is loading the snapshot").atMost(Duration.ofSeconds(60))
                        .until(() -> FaultSupport.committed(bootstrap).getOrDefault(tp, 0L) > third);
                assertFalse(out.loaded("big", 1), "the version cannot be complete: half its chunks are not published");

                Duration exit = w.terminate(EXIT_WITHIN);
                assertNotNull(exit, () -> "the loading worker did not exit within " + EXIT_WITHIN + " of SIGTERM:\n" + w.tail());
                assertEquals(143, w.exitCode(), w::tail);
                assertEquals(List.of(), List.copyOf(FaultSupport.groupMembers(bootstrap)), "the worker left the group at once");
                long committed = FaultSupport.committed(bootstrap).get(tp);
                assertTrue(committed > third && committed <= first.get(5).offset() + 1, "committed " + committed);
                System.out.printf(Locale.ROOT, "[shutdown] loading worker (6 of 12 chunks in, committed to offset %d): "
                        + "SIGTERM to exit %.2f s, status %d, group empty%n", committed, exit.toNanos() / 1e9, w.exitCode());
            } finally {
                w.close();
            }

            // the rest of the snapshot and a query: a new worker replays the first half from the commit's rebuild start
            for (GraphSnapshotChunk c : chunks.subList(6, 12)) producer.send(new ProducerRecord<>(FaultSupport.GRAPHS, "big", FrontierCodec.encode(c))).get();
            GraphQuery q = GraphQuery.newBuilder().setQueryId("big-q").setGraphId("big").setAlgorithm(Algorithm.BFS).setSource(7).build();
            client.publishQuery(q);
            try (WorkerProcess next = WorkerProcess.start("loader", bootstrap, dir, "384m",
                    Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS)))) {
                Awaitility.await("the load completed by the next worker").atMost(Duration.ofSeconds(120))
                        .until(() -> out.loaded("big", 1) && Traffic.answeredAt(out.resultsByQuery().get("big-q")) > 0);
                List<QueryResult> answer = out.resultsByQuery().get("big-q").stream().map(OutputLog.Arrival::value)
                        .sorted(java.util.Comparator.comparingInt(QueryResult::getChunkIndex)).toList();
                assertTrue(Pipeline.verify(answer, GraphBuilder.build(e)).ok(), "BFS on the snapshot loaded across the SIGTERM");
                Duration exit = next.terminate(EXIT_WITHIN);
                assertNotNull(exit, next::tail);
            }

            // readiness waits for the rebuild: the moment a fresh worker reports ready, it holds the replayed graph
            try (WorkerProcess third = WorkerProcess.start("loader", bootstrap, dir, "384m",
                    Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS)))) {
                Awaitility.await("ready").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                        .until(() -> third.httpStatus("/health/readiness") == 200);
                double resident = gauge(third.httpBody("/prometheus"), "frontier_graphs_resident");
                assertTrue(resident >= 1, "ready before the graphs of its partitions were rebuilt: " + resident + " resident");
                assertNotNull(third.terminate(EXIT_WITHIN), third::tail);
            }
        }
    }

    private static double gauge(String prometheus, String name) {
        return prometheus.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{")).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .orElseThrow(() -> new AssertionError("no gauge " + name));
    }

    private static Map<TopicPartition, Long> nonEmpty(Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Long> m = new java.util.HashMap<>(ends);
        m.values().removeIf(o -> o == 0);
        return m;
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1 << 20));
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
