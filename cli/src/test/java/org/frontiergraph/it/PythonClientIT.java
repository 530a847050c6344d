package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.FileRecords;
import org.apache.kafka.common.record.RecordBatch;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Python client (clients/python) against a real broker and a real worker: runs its unittest suite
 * ({@code python3 -m unittest discover -s clients/python/tests}) as a child process with {@code FRONTIER_BOOTSTRAP}
 * set, and fails if it fails. The suite uses no Java: it publishes, decodes and checks answers against its own
 * references, so it proves docs/contract.md is enough to talk to a worker. The worker here publishes lz4 (an
 * operator's choice; the default is uncompressed), and afterwards the broker's log shows the answers the Python
 * client read were lz4-compressed (the contract says consumers must read any codec).
 *
 * <p>Skipped, with the reason ({@link Prerequisite}), when {@code /usr/bin/python3} (or {@code -Dfrontier.it.python})
 * cannot import confluent_kafka, avro and numpy, unless {@code -Dfrontier.it.python-client=required} or {@code FRONTIER_IT_PYTHON=required} (.ci/run sets it
 * after installing python3-confluent-kafka, python3-avro and python3-numpy), which makes it fail.
 */
class PythonClientIT {
    static final String PYTHON = System.getProperty("frontier.it.python", "/usr/bin/python3");
    static final Path REPO = repo();
    static final int CHUNK_VERTICES = 1_000, CHUNK_EDGES = 1_000;
    static TestKafka kafka;
    static FrontierWorker worker;
    static Prerequisite python;

    @BeforeAll
    static void start() throws Exception {
        python = Prerequisite.check("Python client test", pythonMissing(), "frontier.it.python-client", "FRONTIER_IT_PYTHON",
                "apt-get install python3-confluent-kafka python3-avro python3-numpy");
        if (!python.present()) return;
        kafka = TestKafka.start();
        worker = FrontierWorker.start(kafka.bootstrapServers(), Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "it-python",
                // workers publish uncompressed by default; an operator may choose lz4, which consumers must read
                "kafka.producers.frontier-output.compression.type", "lz4",
                "frontier.result-chunk-vertices", CHUNK_VERTICES,
                "frontier.result-chunk-edges", CHUNK_EDGES,
                "frontier.topics.partitions", 3,
                "micronaut.server.port", -1));
    }

    @BeforeEach
    void pythonPresent() {
        python.assumePresent();
    }

    @AfterAll
    static void stop() throws Exception {
        if (worker != null) worker.close();
        if (kafka != null) kafka.close();
    }

    /** The checkout's root: failsafe runs in cli. */
    private static Path repo() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("clients/python/tests"))) return d;
        }
        throw new IllegalStateException("clients/python/tests not found above " + Path.of("").toAbsolutePath());
    }

    /** Null if the interpreter imports the three packages, else what is wrong. */
    static String pythonMissing() throws Exception {
        if (!Files.isExecutable(Path.of(PYTHON))) return "no " + PYTHON;
        Process p = new ProcessBuilder(PYTHON, "-c", "import confluent_kafka, avro, numpy")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return PYTHON + " did not start in 60 s";
        }
        return p.exitValue() == 0 ? null : PYTHON + " lacks confluent_kafka, avro or numpy (" + last(out) + ")";
    }

    private static String last(String out) {
        String[] lines = out.split("\n");
        return lines[lines.length - 1];
    }

    @Test
    void pythonClientSuitePassesAgainstTheWorker() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(PYTHON, "-m", "unittest", "discover", "-v", "-s", "clients/python/tests")
                .directory(REPO.toFile()).redirectErrorStream(true);
        pb.environment().put("FRONTIER_BOOTSTRAP", kafka.bootstrapServers());
        pb.environment().put("FRONTIER_RESULT_CHUNK_VERTICES", Integer.toString(CHUNK_VERTICES));
        pb.environment().put("FRONTIER_RESULT_CHUNK_EDGES", Integer.toString(CHUNK_EDGES));
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        pb.environment().put("PYTHONUNBUFFERED", "1");
        Process p = pb.start();
        List<String> lines = new ArrayList<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    System.out.println("[python] " + line);
                    synchronized (lines) { lines.add(line); }
                }
            } catch (Exception e) {
                System.out.println("[python] output lost: " + e);
            }
        }, "python-output");
        pump.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the Python client suite ran over 10 minutes");
        }
        pump.join(10_000);
        String out;
        synchronized (lines) { out = String.join("\n", lines); }
        assertEquals(0, p.exitValue(), () -> "the Python client suite failed:\n" + out);
        assertTrue(out.contains("LiveTest") && out.matches("(?s).*\\nOK( \\(expected failures=\\d+\\))?\\s*$"), () -> "no passing live tests in:\n" + out);
        assertFalse(out.contains("skipped"), () -> "the live tests must run here, not skip:\n" + out);
        answersAreLz4Compressed();
    }

    /**
     * The worker was set to publish lz4 and the Python client read every answer: check the broker really holds lz4 batches on
     * the results topic (and some on the graphs topic, from the Python producer: librdkafka sends a batch that lz4
     * does not shrink uncompressed). Only where the broker's log directory is on this machine (the embedded broker).
     */
    private static void answersAreLz4Compressed() throws Exception {
        String dir;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            List<Integer> ids = admin.describeCluster().nodes().get().stream().map(Node::id).toList();
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(ids).allDescriptions().get().get(ids.get(0));
            dir = dirs.keySet().iterator().next();
        }
        assumeTrue(Files.isDirectory(Path.of(dir)), () -> "broker log dir " + dir + " is not on this machine: lz4 not checked");
        Map<CompressionType, Integer> results = batches(Path.of(dir), "frontier.results");
        Map<CompressionType, Integer> graphs = batches(Path.of(dir), "frontier.graphs");
        assertTrue(results.getOrDefault(CompressionType.LZ4, 0) > 0 && results.size() == 1,
                () -> "answers should be lz4-compressed, batches by codec: " + results);
        assertTrue(graphs.getOrDefault(CompressionType.LZ4, 0) > 0, () -> "the Python producer's batches by codec: " + graphs);
    }

    private static Map<CompressionType, Integer> batches(Path logDir, String topic) throws Exception {
        Map<CompressionType, Integer> count = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(logDir)) {
            for (Path d : dirs.filter(d -> d.getFileName().toString().matches(java.util.regex.Pattern.quote(topic) + "-\\d+")).toList()) {
                try (Stream<Path> logs = Files.list(d)) {
                    for (Path log : logs.filter(f -> f.toString().endsWith(".log")).toList()) {
                        File f = log.toFile();
                        try (FileRecords records = FileRecords.open(f)) {
                            for (RecordBatch b : records.batches()) count.merge(b.compressionType(), 1, Integer::sum);
                        }
                    }
                }
            }
        }
        return count;
    }
}
