package org.frontiergraph.bench.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.worker.FrontierWorker;

/**
 * The Kafka cluster and the worker a run talks to: the embedded KRaft broker of the CLI and a worker (in this JVM
 * as {@code ./frontier demo} starts one, or a child JVM as the fault suite does), or a given cluster with a worker
 * assumed running there (or started against it). Closes the worker before the broker: the other order hangs Kafka
 * clients on close.
 */
final class BenchCluster implements AutoCloseable {
    private final EmbeddedKafkaBroker broker;
    private final FrontierWorker worker;
    private final Process workerProcess;
    private final Path workerLog;
    private final String bootstrap;
    private final String description;

    private BenchCluster(EmbeddedKafkaBroker broker, FrontierWorker worker, Process workerProcess, Path workerLog,
                         String bootstrap, String description) {
        this.broker = broker;
        this.worker = worker;
        this.workerProcess = workerProcess;
        this.workerLog = workerLog;
        this.bootstrap = bootstrap;
        this.description = description;
    }

    static BenchCluster start(BenchOptions o) throws IOException {
        EmbeddedKafkaBroker broker = o.bootstrap() == null ? EmbeddedKafkaBroker.startTemporary() : null;
        String bootstrap = broker != null ? broker.bootstrapServers() : o.bootstrap();
        String kafka = broker != null ? "embedded broker (KRaft, one node, in this JVM) on " + bootstrap : "the cluster at " + bootstrap;
        try {
            if (!o.startsWorker()) {
                return new BenchCluster(broker, null, null, null, bootstrap, kafka + "; worker: already running there");
            }
            if (o.workerJvm()) {
                Path log = Files.createTempFile("kafka-bench-worker-", ".log");
                Process p = startProcess(bootstrap, o, log);
                return new BenchCluster(broker, null, p, log, bootstrap, kafka + "; worker: a child JVM (pid " + p.pid()
                        + ", -Xmx" + o.workerHeap() + "), frontier.backend=" + o.backend());
            }
            FrontierWorker w = FrontierWorker.start(bootstrap, Map.of("frontier.backend", o.backend(), "micronaut.server.port", -1));
            return new BenchCluster(broker, w, null, null, bootstrap, kafka + "; worker: in this JVM, frontier.backend=" + o.backend());
        } catch (IOException | RuntimeException e) {
            if (broker != null) broker.close();
            throw e;
        }
    }

    /** System properties of this JVM that the child worker JVM gets too: the worker's settings and log levels. */
    private static final List<String> PASSED_ON = List.of("frontier.", "logger.", "kafka.producers.", "kafka.consumers.");

    /**
     * {@code org.frontiergraph.worker.FrontierWorker} in a child JVM: this JVM's runtime and class path, and its
     * {@link #PASSED_ON} system properties (e.g. {@code -Dfrontier.subscriptions.settled-first=false} given to the
     * benchmark reaches the worker).
     */
    private static Process startProcess(String bootstrap, BenchOptions o, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + o.workerHeap(), "-Xss16m",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.frontiergraph.schema",
                "-Dkafka.bootstrap.servers=" + bootstrap,
                "-Dmicronaut.server.port=-1",
                "-Dfrontier.backend=" + o.backend()));
        for (String name : System.getProperties().stringPropertyNames()) {
            if (!name.equals("frontier.backend") && PASSED_ON.stream().anyMatch(name::startsWith)) {
                cmd.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.frontiergraph.worker.FrontierWorker"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("KAFKA_BOOTSTRAP_SERVERS");
        Process p = pb.start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroy, "kafka-bench-worker-stop"));   // Ctrl-C: no orphan
        return p;
    }

    String bootstrapServers() { return bootstrap; }

    /** Where the broker and the worker run, for the report. */
    String description() { return description; }

    /** Null while the worker this run started is alive (or none was started); else why it is not. */
    String workerGone() {
        if (workerProcess == null || workerProcess.isAlive()) return null;
        return "the worker JVM exited with status " + workerProcess.exitValue() + "; its log ends:\n" + logTail();
    }

    /**
     * The worker's flush steps so far (its {@code frontier.subscriptions.flush.step} timers: flushes that ran the step,
     * mean and max ms), read from its meters when it runs in this JVM; empty when it runs elsewhere or timed none.
     */
    String flushSteps() {
        if (worker == null) return "";
        MeterRegistry meters = worker.context().findBean(MeterRegistry.class).orElse(null);
        if (meters == null) return "";
        StringBuilder b = new StringBuilder();
        for (Timer t : meters.find("frontier.subscriptions.flush.step").timers()) {
            if (t.count() == 0) continue;
            b.append(b.length() == 0 ? "" : "; ").append(String.format(Locale.ROOT, "%s %,d flushes, mean %.2f ms, max %.2f ms",
                    t.getId().getTag("step"), t.count(), t.mean(TimeUnit.MILLISECONDS), t.max(TimeUnit.MILLISECONDS)));
        }
        return b.toString();
    }

    String logTail() {
        if (workerLog == null) return "";
        try {
            List<String> lines = Files.readAllLines(workerLog, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        try {
            if (worker != null) worker.close();
            if (workerProcess != null) {
                workerProcess.destroy();
                try {
                    if (!workerProcess.waitFor(20, TimeUnit.SECONDS)) workerProcess.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    workerProcess.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
                try {
                    Files.deleteIfExists(workerLog);
                } catch (IOException e) {
                    // a temporary file: left behind
                }
            }
        } finally {
            if (broker != null) broker.close();
        }
    }
}
