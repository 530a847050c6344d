package org.frontiergraph.bench.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.GraphConsumer;
import org.frontiergraph.worker.kafka.TopicAdmin;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How long a worker takes to rebuild a partition after 0, 10^5, 10^6 ... logged updates, with and without checkpoints
 * (issue 29, "Bounded recovery"). Per row: an embedded broker (one partition), a worker in this JVM (CPU engine) that
 * loads the graph and applies K single-edge re-weights (ids u0, u1 ...) published by a plain producer, and with
 * checkpoints waits until the group's commit needs nothing before the end of the log; it stops (SIGTERM path: commits,
 * leaves the group) and a second worker starts: the row's times are its rebuild (frontier_rebuild_duration_seconds: from
 * the assignment to rebuilt) and its start to ready. Checks: the new worker
 * holds version 1 + K, and its CSR equals the graph built from the expected edges, array for array.
 *
 * <pre>RebuildBench --graph FILE [--updates 0,100000,1000000] [--rows K:on|off,...] [--worker KEY=VALUE]... [--seed 29] [--repeat 0]</pre>
 * {@code --updates}: each K without and with checkpoints; {@code --rows}: these rows, in this order (e.g.
 * {@code 0:off,10000000:on,0:off,10000000:on}, to alternate two sides on a shared machine); {@code --worker}: a
 * setting of both workers (e.g. {@code kafka.receive.buffer.bytes=65536}); {@code --repeat N}: each row's rebuild N
 * more times, a new second worker each time from the commit the first worker left (with checkpoints, each alternating
 * with the same commit without its {@code checkpointFrom}, so the checkpoint topic is read from its beginning), their
 * medians reported: on a shared machine one rebuild of a few hundred ms is mostly noise.
 */
public final class RebuildBench {
    static final String GRAPH = "g";
    static final TopicPartition P0 = new TopicPartition("frontier.graphs", 0);

    /** One row: K updates, checkpoints on or off. */
    record Spec(int updates, boolean checkpoints) {}

    record Options(Path graph, List<Spec> rows, Map<String, Object> worker, long seed, int repeat) {}

    @Command(name = "RebuildBench", description = "A partition's rebuild after K logged updates, with and without checkpoints: "
            + "a worker loads the graph and applies K re-weights, stops, and a second worker rebuilds; both checked.")
    static final class Cli implements BenchCli.Command<Options> {
        @Option(names = "--graph", paramLabel = "FILE", description = "the graph file (GraphFiles.read; required)")
        Path graph;
        @Option(names = "--updates", paramLabel = "K", split = ",", description = "each K a row without and a row with checkpoints")
        List<Integer> updates = List.of(0, 100_000, 1_000_000);
        @Option(names = "--rows", paramLabel = "K:on|off", split = ",", description = "these rows, in this order, instead of "
                + "--updates' (e.g. 0:off,10000000:on,0:off,10000000:on)")
        List<String> rows;
        @Option(names = "--worker", paramLabel = "KEY=VALUE", description = "a setting of both workers (repeatable)")
        Map<String, String> worker = new LinkedHashMap<>();
        @Option(names = "--seed", paramLabel = "N", description = "the updated edges and their weights")
        long seed = 29;
        @Option(names = "--repeat", paramLabel = "N", description = "each row's rebuild N more times (medians; with checkpoints "
                + "alternating with a read of the checkpoint topic from its beginning)")
        int repeat;

        @Override
        public Options options(String[] args) {
            if (graph == null) throw new IllegalArgumentException("--graph FILE is required");
            List<Spec> specs = rows != null ? rows.stream().map(RebuildBench::spec).toList()
                    : updates.stream().flatMap(k -> Stream.of(new Spec(k, false), new Spec(k, true))).toList();
            return new Options(graph, specs, new HashMap<>(worker), seed, Math.max(0, repeat));
        }
    }

    public static void main(String[] args) {
        BenchMain.main("RebuildBench", args, Cli::new, RebuildBench::run);
    }

    private static Spec spec(String row) {
        String[] kv = row.trim().replace("_", "").split(":");
        if (kv.length != 2 || !(kv[1].equals("on") || kv[1].equals("off")) || !kv[0].matches("\\d{1,9}")) {
            throw new IllegalArgumentException("--rows: a row is K:on or K:off, not " + row);
        }
        return new Spec(Integer.parseInt(kv[0]), kv[1].equals("on"));
    }

    static BenchMain.Result run(Options o) throws Exception {
        LoadedGraph loaded = GraphFiles.read(o.graph());
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Rebuild after K logged updates, %s (%d vertices, %d edges), CPU engine, %d cores, "
                + "one partition, embedded broker; worker in this JVM%n%n", o.graph().getFileName(), loaded.vertexCount(),
                loaded.edgeCount(), Runtime.getRuntime().availableProcessors()));
        md.append("| updates | checkpoints | replayed offsets | rebuild (s) | read checkpoints: ms (CPU ms), MB | decode ms | build and "
                + "install ms | decode and install CPU ms | rest: replay, seeks (ms) | start to ready (s) | CPU start to ready (s) | median of "
                + o.repeat() + " more (s) | median without checkpointFrom (s) | checked |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        boolean ok = true;
        emptyStart();   // the JVM warmed up: the first worker's start is not the first row's
        for (Spec spec : o.rows()) {
            int k = spec.updates();
            boolean checkpoints = spec.checkpoints();
            Row r = row(loaded, k, checkpoints, o.worker(), o.seed(), o.repeat());
            ok &= r.ok();
            Checkpointer.RestoreTimes t = r.restore();
            md.append(String.format(Locale.ROOT, "| %,d | %s | %,d | %.2f | %s | %s | %s | %s | %.0f | %.2f | %.2f | %s | %s | %s |%n", k,
                    checkpoints ? "on" : "off", r.replayed(), r.rebuild(),
                    t == null ? "-" : String.format(Locale.ROOT, "%.0f (%.0f), %.1f", t.readMs(), t.readCpuMs(), t.bytes() / 1e6),
                    t == null ? "-" : String.format(Locale.ROOT, "%.0f", t.decodeMs()),
                    t == null ? "-" : String.format(Locale.ROOT, "%.0f", t.installMs()),
                    t == null ? "-" : String.format(Locale.ROOT, "%.0f", t.installCpuMs()),
                    r.rebuild() * 1e3 - (t == null ? 0 : t.readMs() + t.decodeMs() + t.installMs()), r.seconds(), r.cpuSeconds(),
                    seconds(r.median()), seconds(r.medianWhole()), r.ok() ? "version and CSR equal" : "FAILED: " + r.why()));
            System.err.println(md);
        }
        md.append(String.format(Locale.ROOT, "%nrebuild: frontier_rebuild_duration_seconds (assignment to rebuilt: checkpoints read and "
                + "installed, the log replayed), split by the worker's restore stages (Checkpointer.lastRestore: reading its "
                + "partition of the checkpoint topic, decoding the checkpoint, building and installing it, with the consumer "
                + "thread's CPU time; the rest is the replay "
                + "and the consumer's seeks); start to ready: the second worker's start (Micronaut, group join) to ready; CPU: "
                + "the bench process's CPU time over the same span (worker and embedded broker).%n"));
        return new BenchMain.Result(md.toString(), ok);
    }

    record Row(long replayed, double rebuild, Checkpointer.RestoreTimes restore, double seconds, double cpuSeconds, boolean ok, String why,
               double median, double medianWhole) {
        Row medians(double median, double medianWhole, boolean repeatsOk) {
            return new Row(replayed, rebuild, restore, seconds, cpuSeconds, ok && repeatsOk, repeatsOk ? why : "a repeated rebuild "
                    + "installed another version", median, medianWhole);
        }
    }

    private static String seconds(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.2f", s);
    }

    private static double median(List<Double> xs) {
        if (xs.isEmpty()) return Double.NaN;
        List<Double> sorted = xs.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * {@code repeat} more rebuilds of the partition from {@code commit} (with checkpoints, each followed by one from the
     * same commit without its checkpointFrom): the medians of the two, and whether each installed version {@code version}.
     */
    private static Row repeated(Row first, String bootstrap, OffsetAndMetadata commit, boolean checkpoints, Map<String, Object> extra,
                                int repeat, long version) throws Exception {
        List<Double> hinted = new ArrayList<>(), whole = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < repeat; i++) {
            for (boolean hint : checkpoints ? new boolean[] {true, false} : new boolean[] {true}) {
                recommit(bootstrap, hint ? commit : new OffsetAndMetadata(commit.offset(), commit.metadata().split(";")[0]));
                try (FrontierWorker w = FrontierWorker.start(bootstrap, settings("r" + i + hint, checkpoints, extra))) {
                    await(() -> w.context().getBean(GraphConsumer.class).status().ready(), 1800, "a repeated worker ready");
                    (hint ? hinted : whole).add(w.context().getBean(MeterRegistry.class).get("frontier.rebuild.duration").gauge().value());
                    ok &= w.context().getBean(GraphRegistry.class).get(GRAPH).map(GraphEntry::version).orElse(0L) == version;
                }
            }
        }
        return first.medians(median(hinted), median(whole), ok);
    }

    /** Replaces the group's commit (retried until the group is empty: the last worker left). */
    private static void recommit(String bootstrap, OffsetAndMetadata c) throws Exception {
        await(() -> {
            try (Admin admin = admin(bootstrap)) {
                admin.alterConsumerGroupOffsets("frontier-workers", Map.of(P0, c)).all().get(30, TimeUnit.SECONDS);
                return true;
            } catch (java.util.concurrent.ExecutionException e) {
                return false;
            }
        }, 120, "the group's commit replaced");
    }

    /** The CPU time of this process so far, in seconds. */
    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    private static Map<String, Object> settings(String id, boolean checkpoints, Map<String, Object> extra) {
        Map<String, Object> s = new HashMap<>(Map.of("frontier.backend", "cpu", "micronaut.server.port", -1,
                "frontier.topics.partitions", 1, "frontier.worker-id", id, "frontier.checkpoints.enabled", checkpoints,
                "frontier.checkpoints.updates", 100_000, "frontier.checkpoints.interval", "60s"));
        s.putAll(extra);
        return s;
    }

    private static void emptyStart() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary()) {
            createTopics(broker.bootstrapServers());
            try (FrontierWorker w = FrontierWorker.start(broker.bootstrapServers(), settings("empty", true, Map.of()))) {
                await(() -> w.context().getBean(GraphConsumer.class).status().ready(), 120, "an empty worker ready");
            }
        }
    }

    private static Row row(LoadedGraph loaded, int k, boolean checkpoints, Map<String, Object> extra, long seed, int repeat) throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary()) {
            String bootstrap = broker.bootstrapServers();
            createTopics(bootstrap);
            CsrGraph base = loaded.toCsr();
            int[] us, vs;
            double[] ws;
            {
                List<int[]> canon = new ArrayList<>();
                for (int u = 0; u < base.vertexCount(); u++) {
                    for (int a = base.rowStart(u); a < base.rowEnd(u); a++) {
                        if (base.directed() || u < base.columns()[a]) canon.add(new int[] {u, base.columns()[a], a});
                    }
                }
                us = canon.stream().mapToInt(e -> e[0]).toArray();
                vs = canon.stream().mapToInt(e -> e[1]).toArray();
                ws = canon.stream().mapToDouble(e -> base.weights()[e[2]]).toArray();
            }
            int first = loaded.firstVertexId();
            try (FrontierWorker w1 = FrontierWorker.start(bootstrap, settings("w1", checkpoints, extra));
                 FrontierClient client = new FrontierClient(bootstrap); KafkaProducer<String, byte[]> raw = producer(bootstrap)) {
                GraphRegistry r1 = w1.context().getBean(GraphRegistry.class);
                await(() -> w1.context().getBean(GraphConsumer.class).status().ready(), 120, "the first worker ready");
                client.publishSnapshot(GRAPH, 1, Snapshots.of(loaded.edges()), first, true, n -> {});
                await(() -> r1.get(GRAPH).map(GraphEntry::version).orElse(0L) == 1, 300, "the graph loaded");
                SplittableRandom random = new SplittableRandom(seed);
                List<Future<RecordMetadata>> acks = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    int e = random.nextInt(us.length);
                    ws[e] = 1 + random.nextInt(10_000);
                    GraphUpdate u = GraphUpdate.newBuilder().setGraphId(GRAPH).setUpdateId("u" + i).setReweighted(PackedArrays.edgeBatch(
                            new int[] {us[e] + first}, new int[] {vs[e] + first}, new double[] {ws[e]})).build();
                    acks.add(raw.send(new ProducerRecord<>(P0.topic(), GRAPH, FrontierCodec.encode(u))));
                    if (acks.size() >= 50_000) {
                        for (Future<RecordMetadata> f : acks) f.get();
                        acks.clear();
                    }
                }
                raw.flush();
                for (Future<RecordMetadata> f : acks) f.get();
                await(() -> r1.get(GRAPH).map(GraphEntry::version).orElse(0L) == 1L + k, 1800, "version " + (1 + k));
                long end = endOffset(bootstrap);
                if (checkpoints && k >= 100_000) await(() -> rebuildFrom(bootstrap) == end, 300, "a commit needing nothing before " + end);
                else await(() -> committed(bootstrap) == end, 120, "the last batch committed");
            }
            OffsetAndMetadata commit = commit(bootstrap);
            Row rebuilt = rebuild(bootstrap, base, us, vs, ws, k, checkpoints, extra);
            return repeat == 0 || !rebuilt.ok() ? rebuilt : repeated(rebuilt, bootstrap, commit, checkpoints, extra, repeat, 1L + k);
        }
    }

    /** The second worker's rebuild, checked against the expected graph. */
    private static Row rebuild(String bootstrap, CsrGraph base, int[] us, int[] vs, double[] ws, int k, boolean checkpoints,
                               Map<String, Object> extra) throws Exception {
        long t0 = System.nanoTime();
        double cpu0 = cpuSeconds();
        try (FrontierWorker w2 = FrontierWorker.start(bootstrap, settings("w2", checkpoints, extra))) {
            await(() -> w2.context().getBean(GraphConsumer.class).status().ready(), 1800, "the second worker ready");
            double seconds = (System.nanoTime() - t0) / 1e9, cpu = cpuSeconds() - cpu0;
            Checkpointer.RestoreTimes restore = w2.context().getBean(Checkpointer.class).lastRestore().orElse(null);
            MeterRegistry meters = w2.context().getBean(MeterRegistry.class);
            long replayed = (long) meters.get("frontier.rebuild.replayed").gauge().value();
            double rebuild = meters.get("frontier.rebuild.duration").gauge().value();
            GraphEntry e = w2.context().getBean(GraphRegistry.class).get(GRAPH).orElse(null);
            if (e == null || e.version() != 1L + k) {
                return new Row(replayed, rebuild, restore, seconds, cpu, false, "version " + (e == null ? "none" : e.version()) + ", expected " + (1 + k),
                        Double.NaN, Double.NaN);
            }
            EdgeList expected = new EdgeList(base.vertexCount(), base.directed(), us.length);
            for (int i = 0; i < us.length; i++) expected.add(us[i], vs[i], ws[i]);
            CsrGraph want = GraphBuilder.build(expected), got = e.resident().graph();
            boolean same = java.util.Arrays.equals(want.rowOffsets(), got.rowOffsets()) && java.util.Arrays.equals(want.columns(), got.columns())
                    && java.util.Arrays.equals(want.weights(), got.weights()) && java.util.Arrays.equals(want.arcEdgeIds(), got.arcEdgeIds());
            return new Row(replayed, rebuild, restore, seconds, cpu, same, same ? null : "the rebuilt CSR differs from the expected graph",
                    Double.NaN, Double.NaN);
        }
    }

    private static void createTopics(String bootstrap) throws Exception {
        TopicsConfig t = new TopicsConfig();
        t.setPartitions(1);
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(TopicAdmin.topicsToCreate(t)).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static long endOffset(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            return admin.listOffsets(Map.of(P0, OffsetSpec.latest())).all().get(30, TimeUnit.SECONDS).get(P0).offset();
        }
    }

    private static OffsetAndMetadata commit(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            return admin.listConsumerGroupOffsets("frontier-workers").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(P0);
        }
    }

    private static long committed(String bootstrap) throws Exception {
        OffsetAndMetadata c = commit(bootstrap);
        return c == null ? -1 : c.offset();
    }

    private static long rebuildFrom(String bootstrap) throws Exception {
        OffsetAndMetadata c = commit(bootstrap);
        return c == null || c.metadata() == null || !c.metadata().startsWith("rebuildFrom=") ? -1
                : Long.parseLong(c.metadata().split(";")[0].substring("rebuildFrom=".length()));   // ";checkpointFrom=..." may follow
    }

    private interface Check {
        boolean done() throws Exception;
    }

    private static void await(Check c, int seconds, String what) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!c.done()) {
            if (System.nanoTime() > until) throw new IllegalStateException("not within " + seconds + " s: " + what);
            Thread.sleep(20);
        }
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 << 10));
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
