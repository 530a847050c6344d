package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Named vertices end to end, through the CLI against a real broker and worker (real Avro on the wire): a SNAP file
 * whose endpoints are names is loaded ({@code load --names}); a query and a subscription by name are answered in
 * names; an update by name (a re-weight and a new named vertex) is pushed to the subscriber naming what changed;
 * every distance is checked against Dijkstra on the integer graph with the same edits, mapped through the names; an
 * unknown name gives an UNKNOWN_NAME error event (and a failed answer) and the worker goes on; the names are in the
 * graph's checkpoint, and a new worker's rebuild answers by name, the update's new name included.
 */
class NamedVerticesIT extends WorkerIT {
    private static final Map<String, Object> SETTINGS = Map.of("frontier.backend", "cpu", "frontier.worker-id", "names-it",
            "micronaut.server.port", -1, "frontier.checkpoints.updates", 1, "frontier.checkpoints.interval", "1s");
    private static final String G = "named-roads";

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        startWorker(SETTINGS);
    }

    /** The file's edges (names, weights), in file order: a directed SNAP edge list, tab-separated, names with spaces. */
    private static final String[][] EDGES = {
            {"Main & 1st", "Main & 2nd", "4"}, {"Main & 2nd", "Oak & 2nd", "3"}, {"Main & 1st", "Oak & 1st", "10"},
            {"Oak & 1st", "Oak & 2nd", "2"}, {"Oak & 2nd", "Elm, North", "6"}, {"Main & 2nd", "Elm, North", "12"},
            {"Elm, North", "router-7", "1"}, {"Oak & 1st", "Main & 1st", "5"}};

    /** Dijkstra from {@code source} on the integer graph of these edges, by name (names numbered as first seen). */
    private static Map<String, Double> reference(List<String[]> edges, String source) {
        List<String> names = new ArrayList<>();
        for (String[] e : edges) for (int i = 0; i < 2; i++) if (!names.contains(e[i])) names.add(e[i]);
        EdgeList list = new EdgeList(names.size(), true);
        for (String[] e : edges) list.add(names.indexOf(e[0]), names.indexOf(e[1]), Double.parseDouble(e[2]));
        double[] d = DijkstraReference.run(GraphBuilder.build(list), names.indexOf(source)).distances();
        Map<String, Double> byName = new HashMap<>();
        for (int v = 0; v < names.size(); v++) byName.put(names.get(v), d[v]);
        return byName;
    }

    /** A CSV answer ({@code vertex,distance,parent}, names quoted when they hold a comma) by vertex name. */
    private static Map<String, Double> csv(String out) {
        Map<String, Double> d = new HashMap<>();
        for (String line : out.split("\n")) {
            if (line.isBlank() || line.startsWith("vertex,")) continue;
            String name;
            String rest;
            if (line.startsWith("\"")) {
                int end = line.indexOf("\",", 1);
                name = line.substring(1, end).replace("\"\"", "\"");
                rest = line.substring(end + 2);
            } else {
                name = line.substring(0, line.indexOf(','));
                rest = line.substring(line.indexOf(',') + 1);
            }
            String dist = rest.substring(0, rest.indexOf(','));
            d.put(name, dist.isEmpty() ? Double.POSITIVE_INFINITY : Double.parseDouble(dist));
        }
        return d;
    }

    /** A push's (or answer's) distances by name, through its "names" dictionary. */
    private static Map<String, Double> named(JsonNode push) {
        Map<String, Double> d = new HashMap<>();
        JsonNode names = push.get("names");
        assertNotNull(names, "an answer asked by name carries names: " + push);
        for (Iterator<Map.Entry<String, JsonNode>> it = push.get("distances").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            d.put(names.get(e.getKey()).asText(), e.getValue().isNull() ? Double.POSITIVE_INFINITY : e.getValue().asDouble());
        }
        return d;
    }

    @Test
    void namesThroughLoadQueryUpdateSubscribeRebuildAndCheckpoint() throws Exception {
        Path file = dir.resolve("roads.txt");
        StringBuilder text = new StringBuilder("# named junctions\n");
        for (String[] e : EDGES) text.append(String.join("\t", e)).append('\n');
        Files.writeString(file, text);
        List<String[]> edges = new ArrayList<>(List.of(EDGES));

        Run load = cli("load", "--graph", G, "--names", file.toString());
        assertEquals(0, load.status(), load.err());
        assertTrue(load.out().contains("6 vertices, 8 edges"), load.out());
        long v = Long.parseLong(load.out().replaceAll("(?s).*version (\\d+) loaded.*", "$1"));

        Run query = cli("query", "--graph", G, "--algorithm", "sssp", "--source", "Main & 1st", "--format", "csv");
        assertEquals(0, query.status(), query.err());
        assertEquals(reference(edges, "Main & 1st"), csv(query.out()), query.out());

        ByteArrayOutputStream subOut = new ByteArrayOutputStream(), subErr = new ByteArrayOutputStream();
        CompletableFuture<Integer> subscriber = cliInBackground(subOut, subErr,
                "subscribe", "--graph", G, "--algorithm", "sssp", "--source", "Main & 1st", "--id", "named-watch");
        JsonNode initial = awaitLines(subOut, 1).get(0);
        assertEquals("INITIAL", initial.get("reason").asText());
        assertEquals(reference(edges, "Main & 1st"), named(initial), initial.toString());

        // an update by name: a road re-weighted, and a new junction with a road to it
        Run update = cli("update", "--graph", G, "--reweight", "Main & 2nd", "Oak & 2nd", "9", "--add-vertex", "Harbor Gate",
                "--add", "router-7", "Harbor Gate", "2", "--wait");
        assertEquals(0, update.status(), update.err());
        edges.set(1, new String[] {"Main & 2nd", "Oak & 2nd", "9"});
        edges.add(new String[] {"router-7", "Harbor Gate", "2"});
        Map<String, Double> after = reference(edges, "Main & 1st");
        // the re-weight, then the new junction: two records, pushed apart or together
        Awaitility.await("a push on version " + (v + 2)).atMost(Duration.ofSeconds(60))
                .until(() -> printed(subOut).stream().anyMatch(p -> p.get("graphVersion").asLong() == v + 2));
        List<JsonNode> pushes = printed(subOut);
        Map<String, Double> pushed = new HashMap<>(named(initial));
        for (JsonNode p : pushes.subList(1, pushes.size())) {
            assertEquals("UPDATE", p.get("reason").asText(), p.toString());
            pushed.putAll(named(p));
        }
        assertEquals(after, pushed, "the pushes, by name, applied to the INITIAL answer");
        assertTrue(pushes.get(pushes.size() - 1).get("names").toString().contains("Harbor Gate"), pushes.toString());
        Run byNewName = cli("query", "--graph", G, "--algorithm", "sssp", "--source", "Oak & 1st", "--targets", "Harbor Gate",
                "--format", "csv");
        assertEquals(0, byNewName.status(), byNewName.err());
        assertEquals(Map.of("Harbor Gate", reference(edges, "Oak & 1st").get("Harbor Gate")), csv(byNewName.out()));

        // an unknown name: a named error, the worker goes on
        Run unknown = cli("query", "--graph", G, "--algorithm", "bfs", "--source", "Nowhere Lane");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().startsWith("frontier: UNKNOWN_NAME: query '") && unknown.err().contains("'Nowhere Lane'"), unknown.err());
        Run badUpdate = cli("update", "--graph", G, "--remove", "Main & 1st", "Nowhere Lane", "--wait");
        assertEquals(1, badUpdate.status());
        assertTrue(badUpdate.err().contains("UNKNOWN_NAME"), badUpdate.err());
        Run errors = cli("tail", "errors", "--graph", G, "--from-beginning", "--max", "2", "--timeout", "30");
        assertEquals(List.of("UNKNOWN_NAME", "UNKNOWN_NAME"), errors.lines().stream().map(e -> e.get("code").asText()).toList(),
                errors.out());
        Run still = cli("query", "--graph", G, "--algorithm", "sssp", "--source", "Main & 1st", "--format", "csv");
        assertEquals(after, csv(still.out()), "the worker goes on, the bad update not applied");

        // the names are in the graph's checkpoint, "Harbor Gate" included
        Awaitility.await("a checkpoint of " + G + " naming Harbor Gate").atMost(Duration.ofSeconds(60))
                .until(() -> checkpointNames().contains("Harbor Gate"));

        // a new worker rebuilds the graph (from its checkpoint) and answers by name
        restartWorker(SETTINGS);
        Awaitility.await("the new worker rebuilt " + G).atMost(Duration.ofSeconds(90))
                .until(() -> cli("query", "--graph", G, "--algorithm", "bfs", "--source", "Main & 1st", "--timeout", "5").status() == 0);
        Run rebuilt = cli("query", "--graph", G, "--algorithm", "sssp", "--source", "Harbor Gate", "--format", "csv");
        assertEquals(0, rebuilt.status(), rebuilt.err());
        assertEquals(reference(edges, "Harbor Gate"), csv(rebuilt.out()), rebuilt.out());
        Run rebuiltPath = cli("query", "--graph", G, "--algorithm", "sssp", "--source", "Main & 1st", "--path-to", "Harbor Gate");
        assertEquals(0, rebuiltPath.status(), rebuiltPath.err());
        assertEquals(List.of("Main & 1st", "Main & 2nd", "Elm, North", "router-7", "Harbor Gate"),
                texts(JSON.readTree(rebuiltPath.out()).get("pathNames")), rebuiltPath.out());
        subscriber.cancel(true);
    }

    private static List<String> texts(JsonNode array) {
        List<String> l = new ArrayList<>();
        array.forEach(x -> l.add(x.asText()));
        return l;
    }

    /** The names in the latest checkpoint chunks of {@link #G} on the checkpoint topic (real records, decoded). */
    private static List<String> checkpointNames() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "names-it-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> names = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of("frontier.checkpoints"));
            long deadline = System.currentTimeMillis() + 5_000;
            while (System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || !r.key().startsWith(G + "/") || r.value() == null || r.value().length == 0) continue;
                    // chunks carry frontier.checkpoint; a checkpoint's subscription records (g/s/sub-j) do not
                    if (r.headers().lastHeader("frontier.checkpoint") == null) continue;
                    GraphSnapshotChunk chunk = FrontierCodec.decode(r.value(), GraphSnapshotChunk.class);
                    if (chunk.getNamed()) names.addAll(chunk.getNames());
                }
            }
        } catch (FrontierCodec.MalformedMessageException e) {
            throw new AssertionError(e);
        }
        return names;
    }
}
