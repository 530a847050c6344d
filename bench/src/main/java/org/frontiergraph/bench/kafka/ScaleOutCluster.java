package org.frontiergraph.bench.kafka;

import java.io.IOException;
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
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.ConsumerGroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * The processes of a scale-out run: the broker in a JVM of its own ({@link BrokerProcess}) and worker JVMs
 * ({@code org.frontiergraph.worker.FrontierWorker}), each with this JVM's runtime and class path, its log in a
 * temporary folder, its own HTTP port (for its readiness), temporary folder and, with GPUs, its own device
 * ({@code CUDA_VISIBLE_DEVICES}).
 * Closing stops the workers, then the broker (the other order hangs Kafka clients on close); a shutdown hook does the
 * same when this JVM is stopped, so no child outlives it.
 */
final class ScaleOutCluster implements AutoCloseable {
    /** The workers' consumer group (frontier.group-id's default). */
    static final String GROUP = "frontier-workers";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    /** A child JVM: its name, process, log and (workers) HTTP port and device. */
    record Child(String name, Process process, Path log, int httpPort, String device) {
        /** CPU seconds the process has used so far (all its threads), NaN when the OS does not say. */
        double cpuSeconds() {
            return process.toHandle().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
        }
    }

    /** The group as the coordinator sees it: its state and each member's partitions of the graphs topic, by worker id. */
    record Group(ConsumerGroupState state, Map<String, List<Integer>> partitions) {
        /** Stable, with {@code members} members, every one of the topic's {@code count} partitions assigned. */
        boolean settled(int members, int count) {
            return state == ConsumerGroupState.STABLE && partitions.size() == members
                    && partitions.values().stream().mapToInt(List::size).sum() == count;
        }
    }

    private final ScaleOutOptions o;
    private final Path dir;
    private final Child broker;
    private final String bootstrap;
    private final List<Child> workers = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread hook = new Thread(this::stopAll, "scale-out-stop");

    private ScaleOutCluster(ScaleOutOptions o, Path dir, Child broker, String bootstrap) {
        this.o = o;
        this.dir = dir;
        this.broker = broker;
        this.bootstrap = bootstrap;
    }

    /** Starts the broker's JVM and waits (up to two minutes) until it is ready. */
    static ScaleOutCluster start(ScaleOutOptions o) throws IOException {
        Path dir = Files.createTempDirectory("scale-out-");
        Path address = dir.resolve("bootstrap");
        List<String> cmd = java(o.brokerHeap());
        cmd.addAll(List.of(BrokerProcess.class.getName(), address.toString()));
        Path log = dir.resolve("broker.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Child broker = new Child("broker", p, log, -1, null);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.exists(address)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the broker JVM did not start; its log ends:\n" + tail(log));
            }
            pause(100);
        }
        ScaleOutCluster c = new ScaleOutCluster(o, dir, broker, Files.readString(address, StandardCharsets.UTF_8).trim());
        Runtime.getRuntime().addShutdownHook(c.hook);
        return c;
    }

    String bootstrapServers() { return bootstrap; }

    Child broker() { return broker; }

    List<Child> workers() { return List.copyOf(workers); }

    /**
     * Starts worker {@code index} ({@code scale-out-INDEX}, a static member of the group), on device {@code index mod
     * --gpus} when there are GPUs.
     */
    Child startWorker(int index) throws IOException {
        String name = "scale-out-" + index;
        int port = freePort();
        List<String> cmd = java(o.workerHeap());
        Path tmp = Files.createDirectories(dir.resolve(name + "-tmp"));   // JCuda unpacks its natives there: one each
        cmd.set(cmd.indexOf("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir")), "-Djava.io.tmpdir=" + tmp);
        cmd.add(cmd.size() - 2, "-Dkafka.bootstrap.servers=" + bootstrap);
        cmd.add(cmd.size() - 2, "-Dmicronaut.server.port=" + port);
        cmd.add(cmd.size() - 2, "-Dfrontier.backend=" + o.backend());
        cmd.add(cmd.size() - 2, "-Dfrontier.worker-id=" + name);
        if (o.partitions() > 0) cmd.add(cmd.size() - 2, "-Dfrontier.topics.partitions=" + o.partitions());
        for (String opt : o.workerOpts()) cmd.add(cmd.size() - 2, opt);
        cmd.add("org.frontiergraph.worker.FrontierWorker");
        Path log = dir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("KAFKA_BOOTSTRAP_SERVERS");
        String device = null;
        if (o.gpus() > 0 && !o.backend().equals("cpu")) {
            device = Integer.toString(index % o.gpus());
            pb.environment().put("CUDA_VISIBLE_DEVICES", device);
        }
        Child w = new Child(name, pb.start(), log, port, device);
        workers.add(w);
        return w;
    }

    /** Whether {@code w} answers UP on /health/readiness (false while it starts, rebuilds or has nothing yet). */
    boolean ready(Child w) {
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + w.httpPort() + "/health/readiness"))
                    .timeout(Duration.ofSeconds(5)).GET().build();
            return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;   // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The consumer group now, its members named by worker id (their static instance id, else their client id). */
    Group group(String topic) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP);
            Map<String, List<Integer>> out = new TreeMap<>();
            for (MemberDescription m : d.members()) {
                List<Integer> parts = m.assignment().topicPartitions().stream().filter(tp -> tp.topic().equals(topic))
                        .map(TopicPartition::partition).sorted().toList();
                out.put(m.groupInstanceId().orElse(m.clientId()), parts);
            }
            return new Group(d.state(), out);
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe consumer group " + GROUP + ": " + e, e);
        }
    }

    /** Null while every child is alive; else which one exited, with its log's end. */
    String gone() {
        for (Child c : all()) {
            if (!c.process().isAlive()) {
                return c.name() + " exited with status " + c.process().exitValue() + "; its log ends:\n" + tail(c.log());
            }
        }
        return null;
    }

    private List<Child> all() {
        List<Child> out = new ArrayList<>(workers);
        out.add(broker);
        return out;
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already: the hook runs stopAll again, which finds nothing left
        }
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        } catch (IOException e) {
            // temporary files: left behind
        }
    }

    /** Workers first (SIGTERM: each leaves the group), then the broker (its standard input closed, then SIGTERM). */
    private synchronized void stopAll() {
        for (Child w : workers) w.process().destroy();
        for (Child w : workers) stop(w.process());
        try {
            broker.process().getOutputStream().close();
        } catch (IOException e) {
            // it is stopped below anyway
        }
        stop(broker.process());
    }

    private static void stop(Process p) {
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** This JVM's runtime and class path with {@code -Xmx heap}; the main class goes after the last two entries. */
    private static List<String> java(String heap) {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-Xss16m",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.frontiergraph.schema",
                "-cp", System.getProperty("java.class.path")));
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A wait between checks of a child process: there is nothing to block on but time. */
    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
