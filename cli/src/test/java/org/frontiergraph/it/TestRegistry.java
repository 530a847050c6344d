package org.frontiergraph.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real schema registry for a test: Apicurio Registry (the test-registry module builds it from Maven Central), started
 * in a JVM of its own on a free loopback port, in-memory storage, and stopped by {@link #close}. It serves the Confluent
 * Schema Registry API at {@link #url()}.
 *
 * <p>{@link #missing} says why there is none when the runner jar was not built (a build that left the test-registry
 * module out: no module depends on it, a full build makes it before this one).
 */
final class TestRegistry implements AutoCloseable {
    private static final Duration START = Duration.ofSeconds(180);
    private final Process process;
    private final String url;
    private final Path log;

    private TestRegistry(Process process, String url, Path log) {
        this.process = process;
        this.url = url;
        this.log = log;
    }

    /** Why no registry can start here (its runner jar was not built), or null. */
    static String missing() throws IOException {
        return runner() == null ? "no Apicurio runner jar in " + targetDir() : null;
    }

    /** Starts the registry; {@link #missing()} must be null. */
    static TestRegistry start() throws Exception {
        Path runner = runner();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = Files.createTempFile("apicurio-", ".log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port, "-jar", runner.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        TestRegistry registry = new TestRegistry(p, "http://127.0.0.1:" + port + "/apis/ccompat/v6", log);
        registry.awaitReady();
        return registry;
    }

    /** The Confluent-compatible API's base URL: what {@code schema.registry.url} takes. */
    String url() {
        return url;
    }

    /** GET {@code path} under {@link #url()}: the registry's answer (JSON), failing on any status but 200. */
    String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new AssertionError("GET " + path + ": HTTP " + r.statusCode() + " " + r.body());
        return r.body();
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + START.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new AssertionError("Apicurio Registry exited at start: " + tail());
            try {
                get("/subjects");
                return;
            } catch (IOException | AssertionError e) {
                Thread.sleep(500);
            }
        }
        close();
        throw new AssertionError("Apicurio Registry did not start within " + START.toSeconds() + " s: " + tail());
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private static Path targetDir() {
        return PythonClientIT.REPO.resolve("test-registry").resolve("target");
    }

    private static Path runner() throws IOException {
        if (!Files.isDirectory(targetDir())) return null;
        try (Stream<Path> files = Files.list(targetDir())) {
            return files.filter(f -> f.getFileName().toString().endsWith("-runner.jar")).findFirst().orElse(null);
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        Files.deleteIfExists(log);
    }
}
