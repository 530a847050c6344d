package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.junit.jupiter.api.Test;

/**
 * Heavy and hostile (issue 27, row 6): keys, query ids, graph ids and subscription ids holding line breaks and
 * text that looks like a log line of the attacker's choice, sent as real Avro records through a raw producer to a
 * real worker process (default text log). No line of the worker's log starts with the forged text; each hostile
 * record still gets its error event; the worker stays live, and a good query in the same partition is answered
 * exactly once and verified.
 */
class LogForgingIT extends FaultTest {
    static final long SEED = 0xFA_0006L;
    static final int PARTITIONS = 2;
    static final String FORGED = "2026-01-01T00:00:00.000Z ERROR [main] x - forged";

    @Test
    void idsWithLineBreaksForgeNoLogLines() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("logs", PARTITIONS);
        worker = WorkerProcess.start("logs", bootstrap, dir, "256m", Map.of(
                "frontier.topics.partitions", Integer.toString(PARTITIONS))).awaitReady(Duration.ofSeconds(90));

        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap);
             KafkaProducer<String, byte[]> raw = rawProducer(bootstrap)) {
            Traffic good = new Traffic(client, "good", 1, 300, SEED);
            good.publishSnapshots();
            String graph = "good-0";
            Awaitility.await("the good graph loaded").atMost(Duration.ofSeconds(60)).until(() -> out.loaded(graph, 1));
            good.step();

            String nl = "\n" + FORGED;
            String longId = "L".repeat(5_000) + nl;
            List<ProducerRecord<String, byte[]>> hostile = List.of(
                    // a query id (a source outside the graph: a failed answer and a WARN naming the query)
                    record(graph, query("q" + nl, graph, 100_000)),
                    record(graph, query("q\r" + nl + "\r\n" + FORGED + "\u2028" + FORGED, graph, 100_000)),
                    record(graph, query(longId, graph, 100_000)),
                    // a key that is not the graph id (INVALID_KEY: "rejected ... (key ...)")
                    record(graph + nl, query("q-key", graph, 0)),
                    // a graph id nobody published (UNKNOWN_GRAPH), the key the same
                    record("nope" + nl, query("q-graph", "nope" + nl, 0)),
                    // a subscription id: refused (a source outside the graph), and one accepted then cancelled
                    record(graph, FrontierCodec.encode(Subscription.newBuilder().setSubscriptionId("s" + nl).setGraphId(graph)
                            .setAlgorithm(Algorithm.SSSP).setSource(100_000).build())),
                    record(graph, FrontierCodec.encode(Subscription.newBuilder().setSubscriptionId("s2" + nl).setGraphId(graph)
                            .setAlgorithm(Algorithm.SSSP).setSource(0).build())),
                    record(graph, FrontierCodec.encode(Subscription.newBuilder().setSubscriptionId("s2" + nl).setGraphId(graph)
                            .setAlgorithm(Algorithm.SSSP).setSource(0).setCancel(true).build())));
            Set<Long> offsets = new HashSet<>();
            int partition = -1;
            for (ProducerRecord<String, byte[]> r : hostile) {
                RecordMetadata m = raw.send(r).get();
                if (r.key().equals(graph)) {
                    partition = m.partition();
                    offsets.add(m.offset());
                }
            }
            // a good query in the same partition, after them
            Traffic.Expected after = good.query(graph);
            int p = partition;
            Awaitility.await("the good query answered").atMost(Duration.ofSeconds(60)).until(() -> good.allAnswered(out));
            Awaitility.await("error events for the hostile records").atMost(Duration.ofSeconds(60))
                    .until(() -> out.errors().size() >= 5);
            Thread.sleep(1_000);   // a second answer would arrive now

            String log = worker.log();
            List<String> forged = new ArrayList<>();
            for (String line : log.split("\r\n|\r|\n|\u2028|\u2029|\u0085", -1)) {
                if (line.startsWith(FORGED.substring(0, 24))) forged.add(line);   // the worker's own lines carry today's date
            }
            long escaped = log.lines().filter(l -> l.contains("\\n" + FORGED)).count();
            // cut where it is logged: by the log's quoting, or by the limit on ids (docs/contract.md, "Limits") that refuses it
            long cut = log.lines().filter(l -> l.contains("...(" + longId.length() + " chars)") || l.contains("...(" + longId.length() + " bytes)")).count();
            Traffic.Report report = good.check(out);
            String liveness = worker.httpBody("/health/liveness");
            System.out.printf(Locale.ROOT, "[heavy 6] %d hostile records (ids, keys, graph and subscription ids with line breaks "
                            + "and a forged log line), %d error events; worker log: %d lines, %d starting with the forged text, "
                            + "%d lines quoting it escaped, %d with a %,d-char id cut; good query %s in partition %d: %s; "
                            + "liveness %s; total %.1f s%n",
                    hostile.size(), out.errors().size(), log.lines().count(), forged.size(), escaped, cut, longId.length(),
                    after.queryId(), p, report, liveness.contains("\"UP\"") ? "UP" : liveness,
                    FaultSupport.seconds(System.nanoTime() - t0));
            assertTrue(forged.isEmpty(), () -> "forged lines in the worker's log:\n" + String.join("\n", forged));
            assertTrue(escaped >= 3, "the hostile ids were logged, escaped:\n" + worker.tail());
            assertTrue(cut >= 1, "the 5,000-char id was cut:\n" + worker.tail());
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertEquals(0, report.duplicateChunks(), "the good queries answered exactly once");
            assertTrue(worker.alive(), "the worker is alive");
            assertTrue(liveness.contains("\"restarts\":0") && liveness.contains("\"UP\""), liveness);
            assertEquals(200, worker.httpStatus("/health/readiness"));
        }
    }

    private static ProducerRecord<String, byte[]> record(String key, byte[] value) {
        return new ProducerRecord<>(FaultSupport.GRAPHS, key, value);
    }

    private static byte[] query(String queryId, String graphId, int source) {
        return FrontierCodec.encode(GraphQuery.newBuilder().setQueryId(queryId).setGraphId(graphId)
                .setAlgorithm(Algorithm.BFS).setSource(source).build());
    }

    private static KafkaProducer<String, byte[]> rawProducer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
