package org.frontiergraph.bench.kafka;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.kafka.GraphPartitioner;

/**
 * Scale-out through Kafka as a deployment runs it: the broker in a JVM of its own, one worker JVM per GPU, {@code
 * --copies} copies of one graph published as distinct graph ids ({@code ny-0}, {@code ny-1}, ...: ids a user would
 * pick, spread over the graphs topic's partitions by Kafka's partitioner), and a closed-loop load of BFS/SSSP SUMMARY
 * queries ({@code --window} in flight) from several producers, read back by several consumers. The same load runs on
 * one worker, then, in the same run, on {@code --workers} workers once the group has settled and every worker is
 * ready; before both, the load generator alone (its queries read back from a topic of their own). Reports queries/s
 * for each and their ratio, which partitions and graphs each worker held and the answers each served, each process's
 * CPU use; every answer is checked ({@link ScaleOutReference}). Exit status 0 when every answer was right, 1 when
 * not, 2 on a bad command line.
 *
 * <pre>java -cp ... org.frontiergraph.bench.kafka.ScaleOutBench [--graph ny] [--copies 12] [--backend gpu] [--workers 2] ...</pre>
 * (deploy/gpu/run.sh scale-out-bench on a 2-GPU machine; docs/benchmarks.md, "Scale-out across GPUs").
 */
public final class ScaleOutBench {
    private static final String PROBE_TOPIC = "frontier.scale-out-probe";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(240);

    private ScaleOutBench() {}

    public static void main(String[] args) {
        BenchMain.main("ScaleOutBench", args, ScaleOutOptions.Cli::new, ScaleOutBench::run);
    }

    /** Which partitions and graphs a phase's workers held, and the CPU each process used during its load. */
    record Placement(Map<String, List<Integer>> partitions, Map<String, Double> cpuCores) {}

    static BenchMain.Result run(ScaleOutOptions o) throws IOException {
        FrontierCodec.trust();
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        GpuBench.Edges e = GpuBench.edges(o.graph());
        if (e == null) throw new IllegalStateException(o.graph() + ": its dataset was not found (../shared/datasets or FRONTIER_DATASETS)");
        log("%s: %,d vertices, %,d edges; CPU reference for %d sources", o.graph(), e.edges().vertexCount(), e.edges().size(), o.sources());
        ScaleOutReference reference = new ScaleOutReference(e.edges(), e.firstVertexId(), o.sources(), o.seed());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < o.copies(); i++) ids.add(o.graph() + "-" + i);
        long version = System.currentTimeMillis();
        String runId = "so" + Long.toString(version, 36);
        List<String> failures = new ArrayList<>();
        ScaleOutLoad.Outcome probe = null, one, many;
        Placement onePlace, manyPlace;
        int partitions;
        String topic = FrontierClient.Topics.defaults().graphs();
        try (ScaleOutCluster cluster = ScaleOutCluster.start(o)) {
            Properties kafka = FrontierClient.kafka(cluster.bootstrapServers());
            log("broker (own JVM, pid %d) on %s", cluster.broker().process().pid(), cluster.bootstrapServers());
            partitions = o.partitions() > 0 ? o.partitions() : new org.frontiergraph.worker.config.TopicsConfig().getPartitions();
            if (o.probeS() > 0) {
                createTopic(cluster.bootstrapServers(), PROBE_TOPIC, partitions);
                probe = new ScaleOutLoad(kafka, PROBE_TOPIC, PROBE_TOPIC, true, ids, version, reference, o)
                        .run("the load generator alone (queries read back)", runId + "p", o.warmupS(), o.probeS());
                log("generator alone: %,.0f queries/s", probe.perSecond());
            }
            cluster.startWorker(0);
            awaitSettled(cluster, topic, 1, -1);
            load(kafka, ids, version, e, failures);
            partitions = cluster.group(topic).partitions().values().stream().mapToInt(List::size).sum();
            ScaleOutLoad load = new ScaleOutLoad(kafka, topic, FrontierClient.Topics.defaults().results(), false, ids, version, reference, o);
            Map<String, Double> cpu = cpuSeconds(cluster);
            long p0 = System.nanoTime();
            one = load.run("1 worker", runId + "a", o.warmupS(), o.measureS());
            onePlace = new Placement(cluster.group(topic).partitions(), cores(cpu, cpuSeconds(cluster), System.nanoTime() - p0));
            log("1 worker: %,.0f queries/s", one.perSecond());
            for (int i = 1; i < o.workers(); i++) cluster.startWorker(i);
            awaitSettled(cluster, topic, o.workers(), partitions);
            cpu = cpuSeconds(cluster);
            p0 = System.nanoTime();
            many = load.run(o.workers() + " workers", runId + "b", o.warmupS(), o.measureS());
            manyPlace = new Placement(cluster.group(topic).partitions(), cores(cpu, cpuSeconds(cluster), System.nanoTime() - p0));
            log("%d workers: %,.0f queries/s (%.2fx)", o.workers(), many.perSecond(), many.perSecond() / one.perSecond());
            String gone = cluster.gone();
            if (gone != null) failures.add(gone);
        }
        for (ScaleOutLoad.Outcome r : List.of(one, many)) {
            if (r.failed() > 0) failures.add(r.label() + ": " + r.failed() + " of " + r.checked() + " answers wrong or missing: " + r.firstFailures());
        }
        if (probe != null && probe.failed() > 0) failures.add("generator alone: " + probe.firstFailures());
        String markdown = ScaleOutReport.markdown(o, started, (System.nanoTime() - t0) / 1e9, ids, partitions, probe, one, onePlace,
                many, manyPlace, failures);
        if (o.out() != null) {
            Path parent = o.out().toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(o.out(), markdown);
        }
        return new BenchMain.Result(markdown, failures.isEmpty());
    }

    /** Publishes every copy and waits until a worker reports each loaded. */
    private static void load(Properties kafka, List<String> ids, long version, GpuBench.Edges e, List<String> failures) {
        long t = System.nanoTime();
        FrontierClient.Topics topics = FrontierClient.Topics.defaults();
        try (FrontierClient client = new FrontierClient(kafka, topics);
             OutputTracker tracker = new OutputTracker(kafka, topics, "no-queries", Duration.ofSeconds(120))) {
            List<CompletableFuture<OutputTracker.Loaded>> loaded = new ArrayList<>();
            for (String id : ids) {
                loaded.add(tracker.expectVersion(id, version));
                client.publishSnapshot(id, version, Snapshots.of(e.edges()), e.firstVertexId(), true, null);
            }
            for (int i = 0; i < ids.size(); i++) {
                try {
                    loaded.get(i).get(300, TimeUnit.SECONDS);
                } catch (Exception x) {
                    throw new IllegalStateException(ids.get(i) + " version " + version + " was not reported loaded: " + x, x);
                }
            }
            for (String id : ids) {
                for (OutputTracker.Error err : tracker.errors(id)) failures.add(id + ": " + err.event().getCode() + ": " + err.event().getReason());
            }
        }
        log("%d copies published and loaded in %.1f s", ids.size(), (System.nanoTime() - t) / 1e9);
    }

    /**
     * Waits until the group is stable with {@code members} members holding every partition ({@code partitions}; -1:
     * whatever the topic has) and every worker answers ready.
     */
    private static void awaitSettled(ScaleOutCluster cluster, String topic, int members, int partitions) {
        long t = System.nanoTime(), deadline = t + READY_TIMEOUT.toNanos();
        ScaleOutCluster.Group g = null;
        while (true) {
            String gone = cluster.gone();
            if (gone != null) throw new IllegalStateException(gone);
            boolean ready = cluster.workers().stream().allMatch(cluster::ready);
            if (ready) {
                try {
                    g = cluster.group(topic);
                } catch (IllegalStateException e) {
                    g = null;   // the group does not exist yet
                }
                int count = partitions >= 0 ? partitions : g == null ? 0 : g.partitions().values().stream().mapToInt(List::size).sum();
                if (g != null && count > 0 && g.settled(members, count)) break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(members + " workers not settled and ready after " + READY_TIMEOUT.toSeconds()
                        + " s (group " + g + "; readiness " + cluster.workers().stream().map(w -> w.name() + "=" + cluster.ready(w)).toList() + ")");
            }
            ScaleOutCluster.pause(250);
        }
        log("%d worker(s) ready after %.1f s: %s", members, (System.nanoTime() - t) / 1e9, g.partitions());
    }

    private static Map<String, Double> cpuSeconds(ScaleOutCluster cluster) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (ScaleOutCluster.Child w : cluster.workers()) out.put(w.name(), w.cpuSeconds());
        out.put("broker", cluster.broker().cpuSeconds());
        out.put("load generator", ownCpuSeconds());
        return out;
    }

    private static Map<String, Double> cores(Map<String, Double> before, Map<String, Double> after, long nanos) {
        Map<String, Double> out = new LinkedHashMap<>();
        after.forEach((k, v) -> out.put(k, (v - before.getOrDefault(k, 0.0)) / (nanos / 1e9)));
        return out;
    }

    /** CPU seconds this JVM has used. */
    static double ownCpuSeconds() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean s ? s.getProcessCpuTime() / 1e9 : Double.NaN;
    }

    private static void createTopic(String bootstrap, String name, int partitions) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + name + ": " + e, e);
        }
    }

    /** The partition of the graphs topic (of {@code partitions}) that holds {@code graphId}'s records. */
    static int partitionOf(String graphId, int partitions) {
        return GraphPartitioner.partitionOf(graphId, partitions);
    }

    static String header(ScaleOutOptions o, ZonedDateTime started, double seconds) {
        StringBuilder b = new StringBuilder();
        b.append("### ScaleOutBench, ").append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
        b.append("- command: `").append(o.command()).append("`\n");
        for (String line : Machine.describe().split("\n")) b.append("- ").append(line.replaceAll(" +", " ")).append('\n');
        b.append("- GPU: ").append(Machine.gpus().replace("\n", "; ")).append('\n');
        b.append(String.format(Locale.ROOT, "- %d copies of %s (graph ids %s-0 .. %s-%d); backend %s; %d workers (one JVM each, -Xmx%s%s);"
                        + " broker in its own JVM (-Xmx%s); load: %d SUMMARY queries in flight (%s), %d producers, %d readers,"
                        + " %.0f s warm-up then %.0f s measured per phase; %d seeded sources; took %.0f s%n",
                o.copies(), o.graph(), o.graph(), o.graph(), o.copies() - 1, o.backend(), o.workers(), o.workerHeap(),
                (o.gpus() > 0 && !o.backend().equals("cpu") ? ", CUDA_VISIBLE_DEVICES=i mod " + o.gpus() : "")
                        + (o.workerOpts().isEmpty() ? "" : ", " + String.join(" ", o.workerOpts())), o.brokerHeap(),
                o.window(), o.algorithms(), o.producers(), o.readers(), o.warmupS(), o.measureS(), o.sources(), seconds));
        return b.toString();
    }

    static void log(String format, Object... args) {
        System.err.println("[scale-out] " + String.format(Locale.ROOT, format, args));
    }
}
