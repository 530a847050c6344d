package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.frontiergraph.client.SnapshotVersions;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's stream commands against a real broker and a real worker, run as {@code ./frontier} runs them (picocli,
 * in this JVM): {@code update} causes a DELTA push that {@code subscribe} prints; {@code graphs} lists what the
 * worker holds; {@code graphs drop} frees a graph, ends its subscription, and a new worker's rebuild does not bring
 * it back; {@code tail} prints decoded records; a default {@code load} after 10^5 updates is accepted.
 */
class StreamCommandsIT extends WorkerIT {
    private static final Map<String, Object> SETTINGS = Map.of("frontier.backend", "cpu", "frontier.worker-id", "stream-it",
            "micronaut.server.port", -1);

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        startWorker(SETTINGS);
    }

    /** A directed DIMACS graph: 1 -> 2 (4), 2 -> 3 (1), 1 -> 3 (9), 3 -> 4 (2). */
    private static Path file(String name) throws IOException {
        Path f = dir.resolve(name + ".gr");
        Files.writeString(f, "p sp 4 4\na 1 2 4\na 2 3 1\na 1 3 9\na 3 4 2\n");
        return f;
    }

    @Test
    void anUpdateFromTheCliIsPushedToASubscriberAndADropEndsIt() throws Exception {
        // a graph of the same partition loaded first: the new worker's rebuild below replays "roads" from its snapshot
        String keep = samePartitionAs("roads");
        assertEquals(0, cli("load", "--graph", keep, file("keep").toString()).status());
        Run load = cli("load", "--graph", "roads", file("roads").toString());
        assertEquals(0, load.status(), load.err());
        long v = Long.parseLong(load.out().replaceAll("(?s).*version (\\d+) loaded.*", "$1"));
        assertTrue(SnapshotVersions.isClockChosen(v), "a default load's version comes from the clock: " + load.out());

        ByteArrayOutputStream subOut = new ByteArrayOutputStream(), subErr = new ByteArrayOutputStream();
        CompletableFuture<Integer> subscriber = cliInBackground(subOut, subErr,
                "subscribe", "--graph", "roads", "--algorithm", "sssp", "--source", "1", "--id", "cli-watch");
        List<JsonNode> pushes = awaitLines(subOut, 1);
        assertEquals("INITIAL", pushes.get(0).get("reason").asText());
        assertEquals(5, pushes.get(0).get("distances").get("3").asInt());

        Run update = cli("update", "--graph", "roads", "--reweight", "1", "3", "2", "--add", "4", "1", "1", "--wait");
        assertEquals(0, update.status(), update.err());
        assertTrue(update.out().startsWith("graph 'roads' version " + (v + 1) + " applied by stream-it"), update.out());
        JsonNode delta = awaitLines(subOut, 2).get(1);
        assertEquals("UPDATE", delta.get("reason").asText(), delta.toString());
        assertTrue(delta.get("delta").asBoolean());
        assertEquals(v + 1, delta.get("graphVersion").asLong());
        assertEquals(2, delta.get("distances").get("3").asInt(), "1 -> 3 re-weighted to 2");
        assertEquals(4, delta.get("distances").get("4").asInt());
        assertFalse(delta.get("distances").has("2"), "vertex 2 did not change: " + delta);

        Run rejected = cli("update", "--graph", "roads", "--remove", "2", "4", "--wait");
        assertEquals(1, rejected.status());
        assertTrue(rejected.err().startsWith("frontier: the update at offset ") && rejected.err().contains("INVALID_UPDATE"), rejected.err());

        Run graphs = cli("graphs", "--format", "json");
        assertEquals(0, graphs.status(), graphs.err());
        JsonNode roads = find(graphs.json(), "roads");
        assertEquals(v + 1, roads.get("version").asLong());
        assertEquals(4, roads.get("vertexCount").asInt());
        assertEquals(5, roads.get("edgeCount").asInt());
        assertEquals("cpu", roads.get("backend").asText());
        assertEquals("stream-it", roads.get("worker").asText());
        assertTrue(roads.get("partition").asInt() >= 0 && roads.get("residentBytes").asLong() > 0, roads.toString());
        Run table = cli("graphs");
        assertTrue(table.out().startsWith("GRAPH ") && table.out().contains("\nroads ") && table.out().contains("\n" + keep + " "), table.out());

        Run tail = cli("tail", "status", "--graph", "roads", "--from-beginning", "--max", "2", "--timeout", "30");
        assertEquals(0, tail.status(), tail.err());
        List<JsonNode> statuses = tail.lines();
        assertEquals(List.of(v, v + 1), statuses.stream().map(s -> s.get("version").asLong()).toList(), tail.out());
        assertEquals("LOADED", statuses.get(1).get("state").asText());
        Run results = cli("tail", "results", "--graph", "roads", "--from-beginning", "--max", "1", "--timeout", "30");
        JsonNode initial = results.lines().get(0);
        assertEquals("cli-watch", initial.get("queryId").asText());
        assertEquals(List.of(0.0, 4.0, 5.0, 7.0), doubles(initial.get("distances")), "packed distances decoded");

        Run drop = cli("graphs", "drop", "roads");
        assertEquals(0, drop.status(), drop.err());
        assertTrue(drop.out().startsWith("graph 'roads' dropped by stream-it (it was at version " + (v + 1)), drop.out());
        assertEquals(1, (int) subscriber.get(), "the subscription ended with its graph");
        List<JsonNode> all = awaitLines(subOut, 3);
        assertEquals("END", all.get(2).get("reason").asText());
        assertEquals("UNKNOWN_GRAPH", all.get(2).get("status").asText());
        assertTrue(subErr.toString(StandardCharsets.UTF_8).contains("was dropped"), subErr.toString(StandardCharsets.UTF_8));
        Run query = cli("query", "--graph", "roads", "--algorithm", "bfs", "--source", "1");
        assertEquals(1, query.status());
        assertTrue(query.err().startsWith("frontier: UNKNOWN_GRAPH: graph 'roads' was dropped"), query.err());
        assertFalse(cli("graphs").out().contains("\nroads "));
        assertEquals("DROPPED", find(cli("graphs", "--all", "--format", "json").json(), "roads").get("state").asText());
        Run again = cli("graphs", "drop", "roads");
        assertEquals(1, again.status());
        assertTrue(again.err().startsWith("frontier: graph 'roads' not dropped: UNKNOWN_GRAPH"), again.err());
        Run tailErrors = cli("tail", "errors", "--graph", "roads", "--from-beginning", "--timeout", "3");
        assertTrue(tailErrors.lines().stream().anyMatch(e -> e.get("code").asText().equals("UNKNOWN_GRAPH")), tailErrors.out());

        // a new worker rebuilds the partition from the log (from keep's snapshot, so roads' too, then its tombstone):
        // keep comes back, roads does not
        restartWorker(SETTINGS);
        Awaitility.await("the new worker rebuilt " + keep).atMost(Duration.ofSeconds(90))
                .until(() -> cli("query", "--graph", keep, "--algorithm", "bfs", "--source", "1", "--timeout", "5").status() == 0);
        Run gone = cli("query", "--graph", "roads", "--algorithm", "bfs", "--source", "1");
        assertTrue(gone.err().startsWith("frontier: UNKNOWN_GRAPH: graph 'roads' was dropped"), gone.err());
    }

    @Test
    void aDefaultLoadIsAcceptedAfterAHundredThousandUpdates() throws Exception {
        Path f = file("busy");
        Run first = cli("load", "--graph", "busy", f.toString());
        assertEquals(0, first.status(), first.err());
        long v = Long.parseLong(first.out().replaceAll("(?s).*version (\\d+) loaded.*", "$1"));
        int n = 100_000;
        List<GraphUpdate> updates = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            updates.add(GraphUpdate.newBuilder().setGraphId("busy")
                    .setReweighted(PackedArrays.edgeBatch(new int[] {1}, new int[] {2}, new double[] {1 + i % 7})).build());
        }
        try (TopicWatcher<GraphStatus> status = client.watchStatus()) {
            for (int i = 0; i < n; i += 10_000) client.publishAll(updates.subList(i, i + 10_000));
            status.awaitFirst(s -> s.getGraphId().equals("busy") && s.getVersion() >= v + n, Duration.ofMinutes(5))
                    .orElseThrow(() -> new AssertionError("the updates were not applied"));
        }
        Run second = cli("load", "--graph", "busy", f.toString());
        assertEquals(0, second.status(), "a default load after " + n + " updates: " + second.err());
        long w = Long.parseLong(second.out().replaceAll("(?s).*version (\\d+) loaded.*", "$1"));
        assertTrue(w > v + n, w + " after " + (v + n));
    }

    /** A graph id that Kafka's default partitioner puts in the same partition of the graphs topic as {@code id}. */
    private static String samePartitionAs(String id) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        int partitions;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            partitions = c.partitionsFor(client.topics().graphs(), Duration.ofSeconds(30)).size();
        }
        int target = partition(id, partitions);
        for (int i = 0; ; i++) if (partition("keep-" + i, partitions) == target) return "keep-" + i;
    }

    private static int partition(String id, int partitions) {
        return Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private static JsonNode find(JsonNode graphs, String id) {
        for (JsonNode g : graphs) if (g.get("graphId").asText().equals(id)) return g;
        throw new AssertionError("no graph " + id + " in " + graphs);
    }

    private static List<Double> doubles(JsonNode a) {
        List<Double> l = new ArrayList<>();
        a.forEach(x -> l.add(x.asDouble()));
        return l;
    }
}
