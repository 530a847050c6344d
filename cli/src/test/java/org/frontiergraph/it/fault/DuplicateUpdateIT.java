package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 27, row 8: the same update published twice (an application retry, same updateId) is applied once. A real
 * worker process (CPU engine, 256 MB heap, -XX:+ExitOnOutOfMemoryError as the image starts it), the update's Avro
 * bytes sent by a plain KafkaProducer: one DUPLICATE_UPDATE error event, the version +1 only, a query answered exactly
 * once on it and checked against Dijkstra on the expected graph; after a SIGKILL and a restart (the partition
 * rebuilt from the log) a third copy is refused again and the version is still +1.
 */
class DuplicateUpdateIT extends FaultTest {
    static final long SEED = 0xFA_0008L;
    static final int N = 400;
    static final String GRAPH = "dup";

    private WorkerProcess start(String bootstrap) {
        return WorkerProcess.start("dedup", bootstrap, dir, "256m", Map.of("frontier.topics.partitions", "1"), Map.of(),
                List.of("-XX:+ExitOnOutOfMemoryError")).awaitReady(Duration.ofSeconds(90));
    }

    @Test
    void aRetriedUpdateIsAppliedOnceAndStillRefusedAfterARestart() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("dedup", 1);
        worker = start(bootstrap);

        EdgeList edges = UniformRandomGraph.generate(N, 4L * N, SEED, 10, true);
        int e0 = 0;
        while (edges.source(e0) == edges.target(e0)) e0++;
        int ru = edges.source(e0), rv = edges.target(e0);
        // the expected graph: one vertex added (id N, behind vertex 0), the edge (ru, rv) re-weighted lighter
        EdgeList expected = new EdgeList(N + 1, true);
        for (int i = 0; i < edges.size(); i++) {
            boolean reweighted = edges.source(i) == ru && edges.target(i) == rv;
            expected.add(edges.source(i), edges.target(i), reweighted ? 0.25 : edges.weight(i));
        }
        expected.add(0, N, 1.5);
        double[] want = DijkstraReference.run(GraphBuilder.build(expected), 0).distances();

        GraphUpdate update = GraphUpdate.newBuilder().setGraphId(GRAPH).setUpdateId("order-7-retryable")
                .setAddedVertexCount(1)
                .setReweighted(PackedArrays.edgeBatch(new int[] {ru}, new int[] {rv}, new double[] {0.25}))
                .setAdded(PackedArrays.edgeBatch(new int[] {0}, new int[] {N}, new double[] {1.5})).build();
        byte[] bytes = FrontierCodec.encode(update);

        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            client.publishSnapshot(GRAPH, 1, Snapshots.of(edges), 0, true, n -> {});
            Awaitility.await("the graph loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded(GRAPH, 1));

            RecordMetadata first = raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, GRAPH, bytes)).get();
            RecordMetadata retry = raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, GRAPH, bytes)).get();
            ErrorEvent dup = awaitDuplicate(out, retry.offset());
            assertTrue(dup.getReason().contains("as version 2"), dup.getReason());
            assertNoErrorAt(out, first.offset());
            checkAnswer(client, out, "after-retry", want);
            assertEquals(2, maxVersion(out), "the version is +1 only");

            // SIGKILL, restart: the partition is rebuilt from the log (the retry in it skipped again), window refilled
            worker.kill();
            worker = start(bootstrap);
            checkAnswer(client, out, "after-restart", want);
            RecordMetadata third = raw.send(new ProducerRecord<>(FaultSupport.GRAPHS, GRAPH, bytes)).get();
            ErrorEvent again = awaitDuplicate(out, third.offset());
            assertTrue(again.getReason().contains("as version 2"), again.getReason());
            checkAnswer(client, out, "after-third", want);
            assertEquals(2, maxVersion(out), "still +1 after the restart and a third copy");
            long duplicates = out.errors().stream().filter(e -> e.getCode().equals("DUPLICATE_UPDATE")).count();
            assertEquals(2, duplicates, "one DUPLICATE_UPDATE per copy refused");
            System.out.printf("[heavy 8] one update published 3 times (1 before a SIGKILL + restart): applied once (version 1 -> %d, "
                            + "%d vertices), %d DUPLICATE_UPDATE events, 3 queries answered exactly once and verified "
                            + "against Dijkstra, %.1f s%n", maxVersion(out), N + 1, duplicates,
                    FaultSupport.seconds(System.nanoTime() - t0));
        }
    }

    private static ErrorEvent awaitDuplicate(OutputLog out, long offset) {
        Awaitility.await("DUPLICATE_UPDATE at offset " + offset).atMost(Duration.ofSeconds(60))
                .until(() -> out.errors().stream().anyMatch(e -> e.getOffset() == offset));
        List<ErrorEvent> at = out.errors().stream().filter(e -> e.getOffset() == offset).toList();
        assertEquals(1, at.size(), () -> "error events at " + offset + ": " + at);
        assertEquals("DUPLICATE_UPDATE", at.get(0).getCode(), at.get(0).getReason());
        assertEquals(GRAPH, at.get(0).getGraphId());
        return at.get(0);
    }

    private static void assertNoErrorAt(OutputLog out, long offset) {
        assertTrue(out.errors().stream().noneMatch(e -> e.getOffset() == offset), () -> "the first copy was refused: " + out.errors());
    }

    private static long maxVersion(OutputLog out) {
        return out.statuses().stream().filter(s -> s.getGraphId().equals(GRAPH)).mapToLong(GraphStatus::getVersion).max().orElse(0);
    }

    /** A FULL SSSP query from 0: answered once (one chunk 0 on the topic), on version 2, with the expected distances. */
    private static void checkAnswer(FrontierClient client, OutputLog out, String queryId, double[] want) throws InterruptedException {
        List<QueryResult> answer = client.query(GraphQuery.newBuilder().setQueryId(queryId).setGraphId(GRAPH)
                        .setAlgorithm(Algorithm.SSSP).setSource(0).setResultMode(ResultMode.FULL).build(), Duration.ofSeconds(60))
                .orElseThrow(() -> new AssertionError("no answer to " + queryId));
        QueryResult head = answer.get(0);
        assertEquals(ResultStatus.OK, head.getStatus(), head.getError());
        assertEquals(2, head.getGraphVersion(), queryId + ": answered on version 2");
        assertEquals(N + 1, head.getVertexCount());
        assertEquals(1, answer.size(), "one chunk");
        assertArrayEquals(want, PackedArrays.toDoubleArray(head.getDistances()), queryId + ": distances as Dijkstra's");
        Thread.sleep(1_000);   // a second answer would come within the batch
        long chunks0 = out.results().stream().filter(a -> a.value().getQueryId().equals(queryId) && a.value().getChunkIndex() == 0).count();
        assertEquals(1, chunks0, queryId + " answered exactly once");
    }

    private static KafkaProducer<String, byte[]> rawProducer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
