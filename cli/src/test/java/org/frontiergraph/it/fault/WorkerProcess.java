package org.frontiergraph.it.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A worker as a real child JVM: the project's classpath (the test JVM's own), the image's entry class
 * ({@code org.frontiergraph.worker.FrontierWorker}) or another main, settings as system properties, its output in a
 * log file. SIGKILL and SIGTERM are {@link Process#destroyForcibly()} and {@link Process#destroy()}.
 */
public final class WorkerProcess implements AutoCloseable {
    static final String WORKER_MAIN = "org.frontiergraph.worker.FrontierWorker";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String id;
    private final Process process;
    private final Path log;
    private final int httpPort;
    private final long startedNanos = System.nanoTime();

    private WorkerProcess(String id, Process process, Path log, int httpPort) {
        this.id = id;
        this.process = process;
        this.log = log;
        this.httpPort = httpPort;
    }

    /** Starts {@code FrontierWorker} with worker id {@code id} (a static group member) and these settings. */
    static WorkerProcess start(String id, String bootstrap, Path dir, String heap, Map<String, String> settings) {
        return start(id, WORKER_MAIN, List.of(), bootstrap, dir, heap, settings);
    }

    static WorkerProcess start(String id, String mainClass, List<String> args, String bootstrap, Path dir, String heap,
                               Map<String, String> settings) {
        return start(id, mainClass, args, bootstrap, dir, heap, settings, Map.of());
    }

    /** Starts {@code FrontierWorker} as above, with these environment variables too. */
    public static WorkerProcess start(String id, String bootstrap, Path dir, String heap, Map<String, String> settings,
                                      Map<String, String> env) {
        return start(id, WORKER_MAIN, List.of(), bootstrap, dir, heap, settings, env);
    }

    /**
     * Starts {@code FrontierWorker} as above, with these JVM options besides the usual ones (e.g.
     * {@code -XX:+ExitOnOutOfMemoryError}, as the image starts it).
     */
    public static WorkerProcess start(String id, String bootstrap, Path dir, String heap, Map<String, String> settings,
                                      Map<String, String> env, List<String> jvmOptions) {
        return start(id, WORKER_MAIN, List.of(), bootstrap, dir, heap, settings, env, jvmOptions);
    }

    private static WorkerProcess start(String id, String mainClass, List<String> args, String bootstrap, Path dir, String heap,
                                       Map<String, String> settings, Map<String, String> env) {
        return start(id, mainClass, args, bootstrap, dir, heap, settings, env, List.of());
    }

    private static WorkerProcess start(String id, String mainClass, List<String> args, String bootstrap, Path dir, String heap,
                                       Map<String, String> settings, Map<String, String> env, List<String> jvmOptions) {
        try {
            Files.createDirectories(dir);
            int port = freePort();
            long started = System.currentTimeMillis();
            // a temp folder of its own per process: JCuda extracts its native library into java.io.tmpdir and loads
            // it from there, so workers starting side by side (or after a kill mid-extraction) sharing one folder can
            // map a file another is rewriting, and die of SIGBUS in the dynamic loader (seen once in this suite)
            Path tmp = Files.createDirectories(dir.resolve("tmp-" + id + "-" + started + "-" + System.nanoTime()));
            Path log = dir.resolve(id + "-" + started + ".log");
            List<String> cmd = new ArrayList<>(List.of(javaBinary().toString(), "-Xmx" + heap, "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:+ExitOnOutOfMemoryError", "-Djava.io.tmpdir=" + tmp,
                    "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.frontiergraph.schema",
                    "-Dkafka.bootstrap.servers=" + bootstrap,
                    "-Dmicronaut.server.port=" + port,
                    "-Dfrontier.worker-id=" + id,
                    "-Dfrontier.backend=cpu"));
            cmd.addAll(jvmOptions);
            settings.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("FRONTIER_LOG_LEVEL", "WARN");
            pb.environment().remove("KAFKA_BOOTSTRAP_SERVERS");
            pb.environment().putAll(env);
            return new WorkerProcess(id, pb.start(), log, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start worker " + id, e);
        }
    }

    public String id() { return id; }

    long pid() { return process.pid(); }

    int httpPort() { return httpPort; }

    boolean alive() { return process.isAlive(); }

    /** Waits until /health/readiness answers UP: the worker joined the group and rebuilt its partitions. */
    public WorkerProcess awaitReady(Duration timeout) {
        try {
            Awaitility.await("worker " + id + " ready").atMost(timeout).pollInterval(Duration.ofMillis(250))
                    .failFast("worker " + id + " exited:\n" + tail(), () -> !process.isAlive())
                    .until(() -> httpStatus("/health/readiness") == 200);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("worker " + id + " not ready within " + timeout + ":\n" + tail(), e);
        }
        return this;
    }

    /** The HTTP status of GET {@code path}, or -1 when nothing answers. */
    public int httpStatus(String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    public String httpBody(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /**
     * GET {@code path} through {@code address} (an address of this machine, e.g. a non-loopback one, so that the
     * worker sees the call coming from it) with these headers: the whole response.
     */
    public HttpResponse<String> httpGet(java.net.InetAddress address, String path, Map<String, String> headers)
            throws IOException, InterruptedException {
        return HTTP.send(request(address, path, headers), HttpResponse.BodyHandlers.ofString());
    }

    /** The same, sent asynchronously (calls side by side open connections side by side). */
    public java.util.concurrent.CompletableFuture<HttpResponse<String>> httpGetAsync(java.net.InetAddress address, String path,
                                                                                      Map<String, String> headers) {
        return HTTP.sendAsync(request(address, path, headers), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(java.net.InetAddress address, String path, Map<String, String> headers) {
        String host = address.getHostAddress();
        if (address instanceof java.net.Inet6Address) host = "[" + host.replaceFirst("%.*$", "") + "]";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + host + ":" + httpPort + path))
                .timeout(Duration.ofSeconds(30));
        headers.forEach(b::header);
        return b.build();
    }

    /** SIGKILL, and waits for the process to be gone. */
    public void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
    }

    /** SIGTERM; returns how long the process took to exit, or null when it did not within {@code timeout}. */
    public Duration terminate(Duration timeout) {
        long t0 = System.nanoTime();
        process.destroy();
        return waitFor(timeout) ? Duration.ofNanos(System.nanoTime() - t0) : null;
    }

    public int exitCode() { return process.exitValue(); }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    Duration age() { return Duration.ofNanos(System.nanoTime() - startedNanos); }

    /** The worker's output so far. */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    public String tail() {
        List<String> lines = log().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    /** Heap in use after a full collection (jcmd GC.run, then GC.heap_info), in bytes. */
    long heapUsedAfterGc() throws IOException, InterruptedException {
        jcmd("GC.run");
        String info = jcmd("GC.heap_info");
        // the serial collector's generations ("def new generation", "tenured generation"); other collectors' "heap"
        Matcher m = Pattern.compile("(generation|heap)\\s+total \\d+K, used (\\d+)K").matcher(info);
        long used = 0;
        boolean found = false;
        while (m.find()) {
            used += Long.parseLong(m.group(2)) * 1024;
            found = true;
        }
        if (!found) throw new IllegalStateException("cannot read the heap of worker " + id + ": " + info);
        return used;
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Path jcmd = javaBinary().resolveSibling("jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("jcmd " + command + " failed: " + out);
        return out;
    }

    @Override
    public void close() {
        if (process.isAlive()) kill();
    }

    private static Path javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
