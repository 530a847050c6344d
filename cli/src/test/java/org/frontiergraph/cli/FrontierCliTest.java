package org.frontiergraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.subscription.StandingForm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command line itself, with no broker (one test points at a closed port): every command answers --help, bad
 * values give one readable line and exit 2, a broker that is down is reported within seconds with exit 1, and the
 * Kafka settings reach the clients and the worker in the documented order.
 */
class FrontierCliTest {
    private static final List<String> COMMANDS = List.of("worker", "demo", "load", "update", "query", "subscribe", "graphs", "tail",
            "generate");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream(), errBytes = new ByteArrayOutputStream();

    private int run(String... argv) {
        outBytes.reset();
        errBytes.reset();
        return FrontierCli.run(argv, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
                new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    }

    private String out() { return outBytes.toString(StandardCharsets.UTF_8); }

    private String err() { return errBytes.toString(StandardCharsets.UTF_8); }

    @Test
    void everyCommandAnswersHelpWithEachOfItsOptions() {
        CommandLine cli = FrontierCli.commandLine(System.out, System.err);
        assertEquals(COMMANDS, cli.getSubcommands().keySet().stream().filter(c -> !c.equals("help")).toList());
        for (String command : COMMANDS) {
            for (String[] argv : List.of(new String[] {command, "--help"}, new String[] {command, "-h"}, new String[] {"help", command})) {
                assertEquals(0, run(argv), String.join(" ", argv) + ": " + err());
                assertTrue(out().startsWith("Usage: frontier " + command), out());
                assertEquals("", err(), String.join(" ", argv));
                for (OptionSpec o : cli.getSubcommands().get(command).getCommandSpec().options()) {
                    assertTrue(out().contains(o.longestName()), command + " --help lacks " + o.longestName() + ":\n" + out());
                }
            }
        }
        assertTrue(out().contains("KIND (the defaults in brackets):"), "generate lists its kinds");
        assertTrue(out().contains("0.1% hubs"), "a literal % in help text: " + out());
        assertEquals(0, run("--help"));
        for (String command : COMMANDS) assertTrue(out().contains("  " + command + " "), out());
        assertEquals(0, run("help"));
        assertTrue(out().startsWith("Usage: frontier"), out());
    }

    @Test
    void theAlgorithmsHelpListsComeFromTheRegistries() {
        assertEquals(0, run("query", "--help"));
        String query = out().replaceAll("\\s+", " ");
        for (Algorithm a : Algorithm.values()) {
            assertTrue(query.contains(a.name().toLowerCase(java.util.Locale.ROOT)), "query --help names " + a + ":\n" + out());
        }
        assertTrue(query.contains("What to compute: bfs, sssp, mst, apsp, cc."), out());
        assertEquals(0, run("subscribe", "--help"));
        String subscribe = out().replaceAll("\\s+", " ");
        assertTrue(subscribe.contains("What to keep up to date: bfs, sssp, mst, cc."), out());
        for (Algorithm a : StandingForm.ALL.keySet()) {
            assertTrue(subscribe.contains(a.name().toLowerCase(java.util.Locale.ROOT)), "subscribe --help names " + a);
        }
        assertFalse(StandingForm.ALL.containsKey(Algorithm.APSP), "APSP keeps no standing answer");
    }

    @Test
    void noCommandPrintsTheListAndExitsTwo() {
        assertEquals(2, run());
        assertTrue(err().startsWith("Usage: frontier"), err());
        assertEquals("", out());
    }

    @Test
    void badValuesGiveOneReadableLineAndExitTwo() {
        Map<List<String>, String> cases = Map.ofEntries(
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "sssp", "--source", "99999999999"),
                        "frontier query: --source: '99999999999' is not a vertex id (an integer of at most 32 bits)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "dijkstra", "--source", "1"),
                        "frontier query: --algorithm: 'dijkstra' is not an algorithm (bfs, sssp, mst, apsp or cc)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--targets", "2,-99999999999"),
                        "frontier query: --targets: '-99999999999' is not a vertex id (an integer of at most 32 bits)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--mode", "all"),
                        "frontier query: --mode: 'all' is not a result mode (full, targets or summary)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--format", "xml"),
                        "frontier query: --format: 'xml' is not an output format (json, csv, dot or geojson)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--timeout", "0"),
                        "frontier query: --timeout: '0' is not a number of seconds (a positive integer)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs"),
                        "frontier query: --algorithm bfs needs --source V"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "mst", "--path-to", "3"),
                        "frontier query: --path-to needs --algorithm bfs or sssp (a tree of parents), not mst"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--path-to", "3", "--targets", "3"),
                        "frontier query: --path-to follows the parents of the FULL answer: drop --mode targets and --targets"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--mode", "targets"),
                        "frontier query: --mode targets needs --targets V,V,..."),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "mst", "--format", "geojson"),
                        "frontier query: --format geojson needs vertex coordinates: --coordinates FILE.co (a DIMACS "
                                + "coordinate file, e.g. USA-road-d.NY.co.gz)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--coordinates", "x.co"),
                        "frontier query: --coordinates goes with --format geojson"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--mode", "summary", "--format", "csv"),
                        "frontier query: --format csv prints rows: not with --mode summary (use json)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "apsp", "--format", "dot"),
                        "frontier query: --format dot does not apply to APSP (a distance matrix): use json"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "cc", "--format", "dot"),
                        "frontier query: --format dot draws a tree or a forest (bfs, sssp, mst), not cc: use json or csv"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "cc", "--format", "geojson", "--coordinates", "x.co"),
                        "frontier query: --format geojson draws a tree or a forest (bfs, sssp, mst), not cc: use json or csv"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "cc", "--path-to", "3"),
                        "frontier query: --path-to needs --algorithm bfs or sssp (a tree of parents), not cc"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "cc", "--mode", "summary", "--format", "csv"),
                        "frontier query: --format csv prints rows: not with --mode summary (use json)"),
                Map.entry(List.of("query", "--algorithm", "bfs", "--source", "1"),
                        "frontier query: Missing required option: '--graph=ID'"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--kafka-property", "acks"),
                        "frontier query: --kafka-property: 'acks' is not a Kafka setting (KEY=VALUE, e.g. security.protocol=SASL_SSL)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--kafka-config", "/no/such.properties"),
                        "frontier query: --kafka-config: no such file: /no/such.properties"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--frobnicate"),
                        "frontier query: unknown option '--frobnicate' (./frontier query --help lists the options)"),
                Map.entry(List.of("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--mode", "delta"),
                        "frontier query: --mode: 'delta' is for subscriptions (./frontier subscribe); a query's modes are full, targets or summary"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "apsp"),
                        "frontier subscribe: --algorithm: 'apsp' is not an algorithm a subscription keeps (bfs, sssp, mst or cc)"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "sssp"),
                        "frontier subscribe: --algorithm sssp needs --source V"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "mst", "--source", "3"),
                        "frontier subscribe: --source goes with bfs or sssp; mst is of the whole graph, with no source"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "cc", "--source", "3"),
                        "frontier subscribe: --source goes with bfs or sssp; cc is of the whole graph, with no source"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--mode", "all"),
                        "frontier subscribe: --mode: 'all' is not a result mode (delta, full, targets or summary)"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--mode", "targets"),
                        "frontier subscribe: --mode targets needs --targets V,V,..."),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--targets", "2", "--mode", "full"),
                        "frontier subscribe: --targets goes with --mode targets, not full"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "mst", "--mode", "targets", "--targets", "2"),
                        "frontier subscribe: --mode targets follows vertices: bfs, sssp or cc, not mst"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "mst", "--min-interval-ms", "-5"),
                        "frontier subscribe: --min-interval-ms: '-5' is not a number of milliseconds (0 to 2147483647)"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "mst", "--min-interval-ms", "soon"),
                        "frontier subscribe: --min-interval-ms: 'soon' is not a number of milliseconds (a non-negative integer)"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "mst", "--id", " "),
                        "frontier subscribe: --id: an empty subscription id"),
                Map.entry(List.of("subscribe", "--algorithm", "mst"),
                        "frontier subscribe: Missing required option: '--graph=ID'"),
                Map.entry(List.of("subscribe", "--graph", "g", "--algorithm", "mst", "--kafka-config", "/no/such.properties"),
                        "frontier subscribe: --kafka-config: no such file: /no/such.properties"),
                Map.entry(List.of("load", "--graph", "g", "--version", "-3", "x.gr"),
                        "frontier load: --version: '-3' is not a version (a non-negative integer)"),
                Map.entry(List.of("load", "--graph", "g", "--format", "csv", "x.gr"),
                        "frontier load: --format: 'csv' is not a graph file format (dimacs, snap or mtx)"),
                Map.entry(List.of("load", "--graph", "g"), "frontier load: Missing required parameter: 'FILE'"),
                Map.entry(List.of("worker", "--backend", "tpu"), "frontier worker: --backend: 'tpu' is not a backend (auto, gpu or cpu)"),
                Map.entry(List.of("demo", "--backend", "tpu"), "frontier demo: --backend: 'tpu' is not a backend (auto, gpu or cpu)"),
                Map.entry(List.of("generate", "--kind", "grid", "--seed", "x", "g.gr"), "frontier generate: --seed: 'x' is not an integer"),
                Map.entry(List.of("serve"), "frontier: unknown command 'serve' (worker, demo, load, update, query, subscribe, graphs, tail, generate, help; ./frontier --help)"));
        for (var c : cases.entrySet()) {
            assertEquals(2, run(c.getKey().toArray(String[]::new)), c.getKey() + ": " + err());
            assertEquals(c.getValue() + "\n", err(), c.getKey().toString());
            assertEquals("", out(), c.getKey().toString());
        }
    }

    @Test
    void aSettingTheKafkaClientRefusesIsAUsageError() throws IOException {
        int port = closedPort();
        assertEquals(2, run("query", "--graph", "g", "--algorithm", "bfs", "--source", "1", "--bootstrap", "localhost:" + port,
                "--kafka-property", "security.protocol=NOPE"));
        assertTrue(err().startsWith("frontier query: invalid Kafka setting: "), err());
        assertTrue(err().contains("security.protocol"), err());
        assertEquals(1, err().lines().count(), err());
    }

    @Test
    void aBrokerThatIsDownIsReportedWithinSeconds() throws IOException {
        int port = closedPort();
        Path graph = dir.resolve("tiny.gr");
        Files.writeString(graph, "p sp 2 1\na 1 2 5\n");
        String expected = "frontier: cannot reach Kafka at localhost:" + port + " within 5 s (is the broker running? --bootstrap)\n";
        for (List<String> argv : List.of(
                List.of("query", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--bootstrap", "localhost:" + port),
                List.of("subscribe", "--graph", "g", "--algorithm", "sssp", "--source", "1", "--bootstrap", "localhost:" + port),
                List.of("load", "--graph", "g", graph.toString(), "--bootstrap", "localhost:" + port),
                List.of("update", "--graph", "g", "--reweight", "1", "2", "3", "--bootstrap", "localhost:" + port),
                List.of("graphs", "--bootstrap", "localhost:" + port),
                List.of("graphs", "drop", "g", "--bootstrap", "localhost:" + port),
                List.of("tail", "latency", "--bootstrap", "localhost:" + port),
                List.of("worker", "--bootstrap", "localhost:" + port))) {
            long t0 = System.nanoTime();
            int rc = run(argv.toArray(String[]::new));
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(1, rc, argv + ": " + err());
            assertEquals(expected, err(), argv.toString());
            assertTrue(seconds < 10, argv + " took " + seconds + " s");
        }
    }

    /** A port nothing listens on: bound once, then released. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private KafkaOptions kafkaOf(String... argv) {
        CommandLine cli = FrontierCli.commandLine(System.out, System.err);
        CommandLine.ParseResult parsed = cli.parseArgs(argv);
        Object command = parsed.subcommand().commandSpec().userObject();
        return command instanceof QueryCommand q ? q.kafka : ((WorkerCommand) command).kafka;
    }

    private Subscription subscriptionOf(String... argv) {
        CommandLine cli = FrontierCli.commandLine(System.out, System.err);
        return ((SubscribeCommand) cli.parseArgs(argv).subcommand().commandSpec().userObject()).checkOptions();
    }

    @Test
    void subscribeOptionsMakeTheSubscription() {
        Subscription s = subscriptionOf("subscribe", "--graph", "isp", "--algorithm", "SSSP", "--source", "17");
        assertEquals("isp", s.getGraphId());
        assertEquals(Algorithm.SSSP, s.getAlgorithm());
        assertEquals(17, s.getSource());
        assertEquals(ResultMode.DELTA, s.getResultMode(), "DELTA unless asked otherwise");
        assertEquals(0, s.getMinIntervalMs());
        assertFalse(s.getCancel());
        assertTrue(s.getSubscriptionId().startsWith("cli-"), s.getSubscriptionId());
        assertFalse(s.getSubscriptionId().equals(subscriptionOf("subscribe", "--graph", "isp", "--algorithm", "mst").getSubscriptionId()),
                "a new id each time");

        Subscription t = subscriptionOf("subscribe", "--graph", "isp", "--algorithm", "bfs", "--source", "1", "--targets", "5,9",
                "--min-interval-ms", "1_500", "--id", "watch-5-9");
        assertEquals(ResultMode.TARGETS, t.getResultMode(), "--targets implies targets mode");
        assertEquals(List.of(5, 9), t.getTargets());
        assertEquals(1_500, t.getMinIntervalMs());
        assertEquals("watch-5-9", t.getSubscriptionId());

        Subscription m = subscriptionOf("subscribe", "--graph", "isp", "--algorithm", "mst", "--mode", "summary");
        assertEquals(ResultMode.SUMMARY, m.getResultMode());
        assertEquals(null, m.getSource());
    }

    @Test
    void kafkaSettingsComeFromTheFileThenThePropertiesThenBootstrap() throws IOException {
        Path config = dir.resolve("client.properties");
        Files.writeString(config, String.join("\n", "bootstrap.servers=file-host:9093", "security.protocol=SASL_SSL",
                "sasl.mechanism=PLAIN", "ssl.truststore.location=/etc/kafka/truststore.jks", ""));
        String[] base = {"query", "--graph", "g", "--algorithm", "mst", "--kafka-config", config.toString(),
                "--kafka-property", "sasl.mechanism=SCRAM-SHA-512", "--kafka-property", "client.id=a=b"};
        Properties p = kafkaOf(base).clientProperties();
        assertEquals("file-host:9093", p.getProperty("bootstrap.servers"), "the file's cluster when --bootstrap is absent");
        assertEquals("SASL_SSL", p.getProperty("security.protocol"));
        assertEquals("SCRAM-SHA-512", p.getProperty("sasl.mechanism"), "--kafka-property over the file");
        assertEquals("a=b", p.getProperty("client.id"), "only the first '=' splits");
        assertEquals("/etc/kafka/truststore.jks", p.getProperty("ssl.truststore.location"));

        String[] withBootstrap = java.util.Arrays.copyOf(base, base.length + 2);
        withBootstrap[base.length] = "--bootstrap";
        withBootstrap[base.length + 1] = "cli-host:9094";
        assertEquals("cli-host:9094", kafkaOf(withBootstrap).clientProperties().getProperty("bootstrap.servers"));

        Map<String, Object> worker = kafkaOf("worker", "--kafka-config", config.toString(),
                "--kafka-property", "sasl.mechanism=SCRAM-SHA-512").workerProperties();
        assertEquals(Map.of("kafka.security.protocol", "SASL_SSL", "kafka.sasl.mechanism", "SCRAM-SHA-512",
                "kafka.ssl.truststore.location", "/etc/kafka/truststore.jks"), worker, "bootstrap goes to FrontierWorker.start");
    }

    @Test
    void serializationOptionsSetTheClientsAndTheWorkersFraming() {
        Properties p = kafkaOf("query", "--graph", "g", "--algorithm", "mst", "--serialization", "Registry",
                "--schema-registry", "http://registry:8081").clientProperties();
        assertEquals("registry", p.getProperty(FrontierSerde.READ));
        assertEquals("registry", p.getProperty(FrontierSerde.WRITE));
        assertEquals("http://registry:8081", p.getProperty(FrontierSerde.URL));
        assertEquals(org.frontiergraph.schema.codec.Framing.REGISTRY, FrontierSerde.fromClientSettings(p).write());

        KafkaOptions worker = kafkaOf("worker", "--serialization", "registry", "--schema-registry", "http://registry:8081");
        assertEquals(Map.of("frontier.serialization.read", "registry", "frontier.serialization.write", "registry",
                "kafka.schema.registry.url", "http://registry:8081"), worker.workerProperties());
        assertFalse(worker.hasClientSettings(), "the embedded broker works with a registry");

        assertEquals(2, run("query", "--graph", "g", "--algorithm", "mst", "--serialization", "avro"));
        assertTrue(err().contains("--serialization: unknown serialization 'avro': expected one of [single-object, registry]"), err());
    }

    @Test
    void withoutAnyClusterTheDefaultIsLocalhost() {
        Assumptions.assumeTrue(System.getenv("KAFKA_BOOTSTRAP_SERVERS") == null && System.getProperty("kafka.bootstrap.servers") == null,
                "a cluster is configured in this environment");
        KafkaOptions k = kafkaOf("query", "--graph", "g", "--algorithm", "mst");
        assertEquals("localhost:9092", k.clientProperties().getProperty("bootstrap.servers"));
        assertFalse(k.hasClientSettings());
        assertEquals(2, run("worker", "--kafka-property", "security.protocol=SSL"));
        assertEquals("frontier worker: --kafka-config / --kafka-property need a Kafka cluster (--bootstrap); the embedded "
                + "broker takes no client settings\n", err());
    }

    @Test
    void frontierKafkaPortIsTheDefaultBootstrapPort() {
        assertEquals("localhost:9092", KafkaOptions.defaultBootstrap(null));
        assertEquals("localhost:9092", KafkaOptions.defaultBootstrap("0"), "0: the embedded broker's free port, unknown here");
        assertEquals("localhost:19092", KafkaOptions.defaultBootstrap("19092"));
        org.junit.jupiter.api.Assertions.assertThrows(KafkaReachability.BadSetting.class, () -> KafkaOptions.defaultBootstrap("nine"));
    }

    @Test
    void failuresReadAsSentencesWithoutClassNames() {
        Exception wrapped = new IllegalStateException(new java.util.concurrent.ExecutionException(
                new org.apache.kafka.common.errors.TimeoutException("Topic frontier.graphs not present in metadata after 30000 ms.")));
        assertEquals("Topic frontier.graphs not present in metadata after 30000 ms.", FrontierCli.reason(wrapped));
        assertEquals("publishing failed: no broker", FrontierCli.reason(new RuntimeException(
                "org.apache.kafka.common.KafkaException: publishing failed: no broker")));
        assertFalse(FrontierCli.reason(new NullPointerException()).contains("NullPointerException"));
    }

    @Test
    void updateOptionsKeepTheirOrderAcrossKinds() {
        CommandLine cli = FrontierCli.commandLine(System.out, System.err);
        UpdateCommand u = (UpdateCommand) cli.parseArgs("update", "--graph", "g", "--add-vertices", "2", "--add", "1", "5",
                "--reweight", "1", "2", "7.5", "--remove", "3", "4", "--add", "5", "1", "2.5").subcommand().commandSpec().userObject();
        var updates = u.edits().updates("g");
        assertEquals(3, updates.size(), "a re-weight after an addition, a removal after a re-weight: new records");
        assertEquals(2, updates.get(0).getAddedVertexCount());
        assertEquals(1, org.frontiergraph.schema.codec.PackedArrays.intCount(updates.get(0).getAdded().getSources()));
        assertEquals(null, updates.get(0).getReweighted());
        assertEquals(7.5, org.frontiergraph.schema.codec.PackedArrays.toDoubleArray(updates.get(1).getReweighted().getWeights())[0]);
        assertEquals(1, org.frontiergraph.schema.codec.PackedArrays.intCount(updates.get(2).getRemoved().getSources()));
        assertEquals(2.5, org.frontiergraph.schema.codec.PackedArrays.toDoubleArray(updates.get(2).getAdded().getWeights())[0]);

        assertEquals(2, run("update", "--graph", "g", "--reweight", "1", "2"));
        assertEquals("frontier update: --reweight: missing W (--reweight U V W)\n", err());
        UpdateCommand named = (UpdateCommand) FrontierCli.commandLine(System.out, System.err).parseArgs("update", "--graph", "g", "--add", "1", "x", "--add-vertex", "x")
                .subcommand().commandSpec().userObject();
        assertEquals(List.of("1"), named.edits().updates("g").get(0).getAddedByName().getSources(),
                "an edge with a vertex that is not an integer goes by name");
        assertEquals(List.of("x"), named.edits().updates("g").get(1).getAddedVertexNames());
        assertEquals(2, run("update", "--graph", "g"));
        assertTrue(err().contains("nothing to publish"), err());
    }

    @Test
    void generateStillWritesThroughTheNewParser() throws IOException {
        Path file = dir.resolve("g.gr");
        assertEquals(0, run("generate", "--kind", "grid", "--vertices", "1_000", "--seed", "-7", file.toString()), err());
        assertTrue(out().startsWith("wrote grid: 31 x 32 grid, seed -7"), out());
        assertTrue(Files.size(file) > 0);
    }
}
