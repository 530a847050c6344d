package org.frontiergraph.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.FrontierCliAccess;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.AfterAll;

/**
 * What an end-to-end test with one worker in this JVM holds: a real broker, the worker and a client of both, started
 * by the test class ({@link #startWorker}, in its {@code @BeforeAll}) and closed after its last test, client first;
 * and {@code ./frontier} against that broker, run as it runs (picocli, in this JVM: {@link #cli}, {@link #cliInBackground}).
 */
abstract class WorkerIT {
    static final ObjectMapper JSON = new ObjectMapper();

    static TestKafka kafka;
    static FrontierWorker worker;
    static FrontierClient client;

    /** A real broker, one worker with {@code settings} on it, and a client. */
    static void startWorker(Map<String, Object> settings) {
        kafka = TestKafka.start();
        worker = FrontierWorker.start(kafka.bootstrapServers(), settings);
        client = new FrontierClient(kafka.bootstrapServers());
    }

    /** The worker closed and a new one started with {@code settings} (it rebuilds its partitions from the log). */
    static void restartWorker(Map<String, Object> settings) {
        worker.close();
        worker = FrontierWorker.start(kafka.bootstrapServers(), settings);
    }

    @AfterAll
    static void stopWorker() throws Exception {
        if (client != null) client.close();
        if (worker != null) worker.close();
        if (kafka != null) kafka.close();
        client = null;
        worker = null;
        kafka = null;
    }

    /** What one command printed, and its exit status. */
    record Run(int status, String out, String err) {
        JsonNode json() throws IOException {
            return JSON.readTree(out);
        }

        /** The JSON lines printed. */
        List<JsonNode> lines() throws IOException {
            List<JsonNode> l = new ArrayList<>();
            for (String s : out.split("\n")) if (!s.isBlank()) l.add(JSON.readTree(s));
            return l;
        }
    }

    /** {@code ./frontier ARGV --bootstrap <the broker>}, to its end. */
    static Run cli(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = FrontierCliAccess.run(withBootstrap(argv), print(out), print(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code ./frontier ARGV --bootstrap <the broker>} started in the background, printing to {@code out} and {@code err}. */
    static CompletableFuture<Integer> cliInBackground(ByteArrayOutputStream out, ByteArrayOutputStream err, String... argv) {
        return CompletableFuture.supplyAsync(() -> FrontierCliAccess.run(withBootstrap(argv), print(out), print(err)));
    }

    /** The JSON lines a command running in the background printed, once there are at least {@code n}. */
    static List<JsonNode> awaitLines(ByteArrayOutputStream out, int n) throws IOException {
        Awaitility.await(n + " line(s) printed").atMost(Duration.ofSeconds(60))
                .until(() -> out.toString(StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count() >= n);
        return printed(out);
    }

    /** The JSON lines a command running in the background has printed so far. */
    static List<JsonNode> printed(ByteArrayOutputStream out) throws IOException {
        return new Run(0, out.toString(StandardCharsets.UTF_8), "").lines();
    }

    private static String[] withBootstrap(String[] argv) {
        String[] args = new String[argv.length + 2];
        System.arraycopy(argv, 0, args, 0, argv.length);
        args[argv.length] = "--bootstrap";
        args[argv.length + 1] = kafka.bootstrapServers();
        return args;
    }

    private static PrintStream print(ByteArrayOutputStream to) {
        return new PrintStream(to, true, StandardCharsets.UTF_8);
    }
}
