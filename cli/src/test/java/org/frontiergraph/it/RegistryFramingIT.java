package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.assertVerified;
import static org.frontiergraph.it.Pipeline.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.frontiergraph.it.Pipeline.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Registry framing against a real schema registry (Apicurio Registry, {@link TestRegistry}) and a real broker: a worker
 * reading and writing {@code frontier.serialization=registry}; records a producer wrote through the registry are read,
 * single-object records beside them too (a pipeline during its migration); the answers are registry-framed records
 * whose schema ids the registry holds under {@code <topic>-value}, and that confluent-kafka's own Avro deserializer
 * (Python, through the registry) and kcat ({@code -s value=avro -r URL}, where it was built with Avro support) decode.
 */
class RegistryFramingIT {
    static final String PYTHON = PythonClientIT.PYTHON;
    static TestRegistry registry;
    static TestKafka kafka;
    static FrontierWorker worker;
    static CsrGraph graph;
    static Prerequisite registryJar;

    @BeforeAll
    static void start() throws Exception {
        registryJar = Prerequisite.check("schema registry test", TestRegistry.missing(), "frontier.it.registry",
                "FRONTIER_IT_REGISTRY", "mvn -pl test-registry package");
        if (!registryJar.present()) return;
        registry = TestRegistry.start();
        kafka = TestKafka.start();
        worker = FrontierWorker.start(kafka.bootstrapServers(), Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "it-registry",
                "frontier.serialization.read", "registry",
                "frontier.serialization.write", "registry",
                "kafka.schema.registry.url", registry.url(),
                "frontier.topics.partitions", 2,
                "micronaut.server.port", -1));
        EdgeList edges = UniformRandomGraph.generate(400, 2_000, 11, 100, false);
        graph = GraphBuilder.build(edges);
        try (FrontierClient producer = client("registry");
             TopicWatcher<GraphStatus> status = producer.watchStatus()) {
            producer.publishSnapshot("reg", 1, Snapshots.of(edges), 0, true, null);
            awaitLoaded(status, "reg", 1);
        }
    }

    @BeforeEach
    void registryPresent() {
        registryJar.assumePresent();
    }

    @AfterAll
    static void stop() throws Exception {
        if (worker != null) worker.close();
        if (kafka != null) kafka.close();
        if (registry != null) registry.close();
    }

    /** A client writing {@code framing} (and reading registry framing, so either) through the test's registry. */
    static FrontierClient client(String framing) {
        Properties p = FrontierClient.kafka(kafka.bootstrapServers());
        p.setProperty(FrontierSerde.URL, registry.url());
        p.setProperty(FrontierSerde.WRITE, framing);
        p.setProperty(FrontierSerde.READ, "registry");
        return new FrontierClient(p, FrontierClient.Topics.defaults());
    }

    @Test
    void registryFramedInputGivesRegistryFramedAnswersUnderTheTopicSubjects() throws Exception {
        try (FrontierClient c = client("registry"); TopicWatcher<QueryResult> results = c.watchResults()) {
            GraphQuery q = query("reg", Algorithm.SSSP, 3);
            c.publishQuery(q);
            assertVerified(await(results, q.getQueryId()), graph, 1);
        }
        // the producer's records and the worker's answers are registry-framed, with ids the registry holds under the
        // topic-name strategy's subjects
        ObjectMapper json = new ObjectMapper();
        byte[] input = firstRecord("frontier.graphs");
        byte[] answer = firstRecord("frontier.results");
        assertEquals(0, input[0], "registry framing starts with byte 0");
        assertEquals(0, answer[0], "registry framing starts with byte 0");
        JsonNode results = json.readTree(registry.get("/subjects/frontier.results-value/versions/latest"));
        assertEquals(ByteBuffer.wrap(answer, 1, 4).getInt(), results.path("id").asInt());
        assertTrue(results.path("schema").asText().contains("\"QueryResult\""), results::toString);
        JsonNode subjects = json.readTree(registry.get("/subjects"));
        for (String s : List.of("frontier.graphs-value", "frontier.results-value", "frontier.errors-value",
                "frontier.latency-value", "frontier.graph-status-value")) {
            assertTrue(subjects.toString().contains("\"" + s + "\""), s + " not among " + subjects);
        }
    }

    @Test
    void mixedFramingsOnInputAreBothRead() {
        try (FrontierClient single = client("single-object"); FrontierClient framed = client("registry");
             TopicWatcher<QueryResult> results = framed.watchResults();
             TopicWatcher<GraphStatus> status = framed.watchStatus()) {
            GraphQuery q1 = query("reg", Algorithm.BFS, 0);
            single.publishQuery(q1);
            assertVerified(await(results, q1.getQueryId()), graph, 1);
            // a single-object snapshot, then a registry-framed update of it and a single-object query of the result
            EdgeList small = UniformRandomGraph.generate(50, 200, 5, 10, false);
            single.publishSnapshot("mixed", 1, Snapshots.of(small), 0, true, null);
            awaitLoaded(status, "mixed", 1);
            CsrGraph v1 = GraphBuilder.build(small);
            framed.publishUpdate(GraphUpdate.newBuilder().setGraphId("mixed").setBaseVersion(1L)
                    .setAdded(PackedArrays.edgeBatch(new int[] {0}, new int[] {49}, new double[] {0.25})).build());
            CsrGraph v2 = GraphEdit.apply(v1, new int[0], new int[0], new int[0], new int[0], new double[0],
                    new int[] {0}, new int[] {49}, new double[] {0.25});
            GraphQuery q2 = query("mixed", Algorithm.SSSP, 0);
            single.publishQuery(q2);
            List<QueryResult> answer = await(results, q2.getQueryId());
            assertVerified(answer, v2, 2);
            assertEquals(DijkstraReference.run(v2, 0).distances()[49], PackedArrays.toDoubleArray(answer.get(0).getDistances())[49]);
        }
    }

    @Test
    void aSchemaIdTheRegistryDoesNotKnowIsAMalformedRecord() {
        try (FrontierClient c = client("registry"); TopicWatcher<ErrorEvent> errors = c.watchErrors()) {
            c.publishRaw("unknown-id", new byte[] {0, 0, 0, 0x7f, 0x7f, 2, 'x'});
            ErrorEvent e = errors.awaitFirst(x -> "unknown-id".equals(x.getKey()), Pipeline.WAIT).orElseThrow();
            assertEquals("MALFORMED_RECORD", e.getCode());
            assertTrue(e.getReason().contains("32639"), e::toString);
        }
    }

    @Test
    void confluentKafkasAvroDeserializerDecodesAnAnswerThroughTheRegistry() throws Exception {
        assumePython("decoding with confluent-kafka's Avro deserializer");
        GraphQuery q = publishSummary();
        Path script = Path.of(getClass().getResource("/registry_decode.py").toURI());
        String out = run(List.of(PYTHON, script.toString(), kafka.bootstrapServers(), "frontier.results", registry.url(),
                "queryId", q.getQueryId()), true);
        assertDecoded(new ObjectMapper().readTree(out), q);
    }

    @Test
    void thePythonClientWritesAndReadsThroughTheRegistry() throws Exception {
        assumePython("the Python client's registry framing");
        EdgeList edges = UniformRandomGraph.generate(100, 150, 3, 10, false);
        try (FrontierClient c = client("single-object"); TopicWatcher<GraphStatus> status = c.watchStatus()) {
            c.publishSnapshot("pyreg", 1, Snapshots.of(edges), 0, true, null);
            awaitLoaded(status, "pyreg", 1);
        }
        CsrGraph v2 = GraphEdit.apply(GraphBuilder.build(edges), new int[0], new int[0], new int[0], new int[0], new double[0],
                new int[] {0}, new int[] {1}, new double[] {0.5});
        Path script = Path.of(getClass().getResource("/registry_client.py").toURI());
        String out = run(List.of(PYTHON, script.toString(), PythonClientIT.REPO.resolve("clients/python").toString(),
                kafka.bootstrapServers(), registry.url(), "pyreg"), true);
        JsonNode summary = new ObjectMapper().readTree(out.substring(out.lastIndexOf("\n{") + 1));
        assertEquals("OK", summary.path("status").asText(), out);
        assertEquals(2, summary.path("graphVersion").asLong(), out);
        assertEquals(reached(v2), summary.path("reachedCount").asLong(), out);
    }

    private static long reached(CsrGraph g) {
        return java.util.Arrays.stream(org.frontiergraph.kernels.bfs.BfsReference.run(g, 0).hops()).filter(h -> h >= 0).count();
    }

    @Test
    void kcatDecodesAnAnswerThroughTheRegistry() throws Exception {
        String kcat = kcatWithAvro();
        Prerequisite.check("kcat decoding", kcat.startsWith("/") ? null : kcat, "frontier.it.kcat", "FRONTIER_IT_KCAT",
                "a kcat built with libserdes (Avro/Schema-Registry support)").assumePresent();
        GraphQuery q = publishSummary();
        String out = run(List.of(kcat, "-C", "-b", kafka.bootstrapServers(), "-t", "frontier.results", "-o", "beginning",
                "-e", "-q", "-s", "value=avro", "-r", registry.url(), "-f", "%s\\n"), true);
        for (String line : out.split("\n")) {
            if (line.contains(q.getQueryId())) {
                assertDecoded(new ObjectMapper().readTree(line), q);
                return;
            }
        }
        throw new AssertionError("kcat printed no answer to " + q.getQueryId() + ":\n" + out);
    }

    /** A SUMMARY query answered in one small record; returns it once its answer is on the results topic. */
    private static GraphQuery publishSummary() {
        try (FrontierClient c = client("registry"); TopicWatcher<QueryResult> results = c.watchResults()) {
            GraphQuery q = GraphQuery.newBuilder(query("reg", Algorithm.BFS, 0))
                    .setResultMode(org.frontiergraph.schema.ResultMode.SUMMARY).build();
            c.publishQuery(q);
            await(results, q.getQueryId());
            return q;
        }
    }

    /** The decoded answer, as a registry's own decoder prints it: the worker's answer to {@code q}. */
    private static void assertDecoded(JsonNode answer, GraphQuery q) {
        assertEquals(q.getQueryId(), answer.path("queryId").asText(), answer::toString);
        assertEquals("reg", answer.path("graphId").asText());
        assertEquals("OK", answer.path("status").asText(answer.path("status").toString()).replaceAll("\\W", ""), answer::toString);
        // kcat prints a union's value as {"long": n}, confluent-kafka's decoder as n
        String reached = answer.path("reachedCount").toString().replaceAll("\\D", "");
        assertEquals(Long.toString(reached(graph)), reached, answer::toString);
    }

    /**
     * Skips the test when {@link #PYTHON} lacks a package it needs, or fails it when {@code FRONTIER_IT_PYTHON=required}
     * (.ci/run).
     */
    private static void assumePython(String what) throws Exception {
        Prerequisite.check(what, pythonMissing(), "frontier.it.python-client", "FRONTIER_IT_PYTHON",
                "apt-get install python3-confluent-kafka python3-avro python3-requests python3-numpy").assumePresent();
    }

    /** Why {@link #PYTHON} cannot run the decoder (it needs confluent_kafka.avro, avro and requests), or null. */
    private static String pythonMissing() throws Exception {
        if (!Path.of(PYTHON).toFile().canExecute()) return "no " + PYTHON;
        String out = run(List.of(PYTHON, "-c", "import confluent_kafka.avro, confluent_kafka.schema_registry, avro, requests, numpy; print('ok')")).trim();
        return out.endsWith("ok") ? null : PYTHON + " cannot import confluent_kafka.avro, confluent_kafka.schema_registry, avro, requests or numpy ("
                + out.substring(out.lastIndexOf('\n') + 1) + ")";
    }

    /** The path of a kcat built with Avro/Schema-Registry support, or why there is none. */
    private static String kcatWithAvro() throws Exception {
        Path kcat = Path.of("/usr/bin/kcat");
        if (!kcat.toFile().canExecute()) return "no kcat";
        // a kcat built without libserdes (Debian's) says so at once, whatever the broker
        String probe = run(List.of(kcat.toString(), "-C", "-b", "127.0.0.1:1", "-t", "x", "-e", "-s", "value=avro",
                "-r", "http://127.0.0.1:1", "-m", "1"));
        if (probe.contains("lacks Avro")) {
            return "kcat " + version(kcat) + " lacks Avro/Schema-Registry support (built without libserdes: \""
                    + probe.trim() + "\")";
        }
        return kcat.toString();
    }

    private static String version(Path kcat) throws Exception {
        String v = run(List.of(kcat.toString(), "-V"));
        int at = v.indexOf("Version ");
        return at < 0 ? "" : v.substring(at + 8, v.indexOf(' ', at + 8));
    }

    /** What {@code command} printed (stdout and stderr), whatever its exit status. */
    private static String run(List<String> command) throws Exception {
        return run(command, false);
    }

    /** What {@code command} printed; with {@code mustSucceed}, failing with that output unless it exited 0. */
    private static String run(List<String> command, boolean mustSucceed) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish in 90 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (mustSucceed && p.exitValue() != 0) throw new AssertionError(command + " exited " + p.exitValue() + ":\n" + out);
        return out;
    }

    /** The value of a topic's first record (partitions in order), as written. */
    private static byte[] firstRecord(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(topic).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) return r.value();
            }
        }
        throw new AssertionError("no record on " + topic);
    }
}
