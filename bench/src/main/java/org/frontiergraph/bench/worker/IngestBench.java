package org.frontiergraph.bench.worker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.registry.ChunkDecoders;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.SnapshotAssembler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where a snapshot load's time goes, stage by stage: what KafkaBench's "load" row sums up. Without Kafka, one stage at
 * a time on the same chunks: the client's chunking ({@code FrontierClient.chunks}) and record encoding, the worker's
 * decoding, assembly ({@link SnapshotAssembler}), CSR build ({@code CsrAssembly.build}, also in the wide form that a graph
 * of more than 2^31 - 8 arcs takes) and residency (CPU engine), and the
 * worker's whole record path ({@code GraphEventProcessor.process}: all of those plus the GraphStatus record). Through
 * the embedded broker, without a worker: the encoded records published by a producer with FrontierClient's settings
 * until acknowledged, once per compression codec, then read back by a consumer with the worker's fetch settings;
 * and {@code FrontierClient.publishChunks} (encoding included) with that codec in its settings.
 *
 * <p>{@code --fetch-bytes}: the consumer's {@code max.partition.fetch.bytes} (Kafka's default, 1 MiB, as the worker's:
 * one 800 KB chunk a fetch).
 *
 * {@code --backend}: the engine the "resident" column loads into (cpu; gpu on the GPU machine); the worker path column
 * is the CPU engine's. On the GPU machine: {@code deploy/gpu/run.sh ingest-bench} (deploy/gpu/README.md).
 *
 * {@code --ingest-threads}: the ingest threads the assembly is also timed with ({@link ChunkDecoders}; default: the
 * cores, at most 16, as the worker's {@code frontier.ingest-threads}).
 *
 * <pre>IngestBench [--graphs kron18,kron20,ny] [--runs 3] [--codecs none,lz4] [--fetch-bytes N] [--backend cpu]
 *             [--ingest-threads N] [--chunk-edges N] [--producer KEY=VALUE]... [--no-kafka] [--out FILE.md] [--command TEXT]</pre>
 */
public final class IngestBench {
    private IngestBench() {}

    /** {@code --producer} settings, given to the plain producer and the client's beside their own. */
    private static final Properties PRODUCER = new Properties();
    /** {@code --chunk-edges}: edges a snapshot chunk. */
    private static int chunkEdges = FrontierClient.CHUNK_EDGES;

    /** The report so far, written to {@code --out} after each graph. */
    private static final StringBuilder REPORT = new StringBuilder();
    private static Path out;

    private static void say(String line) {
        System.out.println(line);
        REPORT.append(line).append('\n');
    }

    private static void say() {
        say("");
    }

    private static void sayf(String format, Object... args) {
        String text = String.format(Locale.ROOT, format, args);
        System.out.print(text);
        REPORT.append(text);
    }

    private static void flush() throws java.io.IOException {
        if (out != null) Files.writeString(out, REPORT);
    }

    /** The command line. */
    record Options(List<String> graphs, int runs, List<String> codecs, int fetchBytes, String backend, int threads, int chunkEdges,
                   Map<String, String> producer, boolean kafka, Path out, String command) {}

    @Command(name = "IngestBench", description = "Where a snapshot load's time goes, stage by stage, without Kafka and "
            + "through the embedded broker (no worker).")
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Graphs graphs;
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--codecs", paramLabel = "C", split = ",", description = "the producer's compression codecs through the broker")
        List<String> codecs = List.of("none", "lz4");
        @Option(names = "--fetch-bytes", paramLabel = "N", description = "the consumer's max.partition.fetch.bytes (0: Kafka's default)")
        int fetchBytes;
        @Mixin
        BenchCli.Backend backend;
        @Option(names = "--ingest-threads", paramLabel = "N", description = "the ingest threads the assembly is also timed with "
                + "(default: the cores, at most 16, as frontier.ingest-threads)")
        int threads = new ChunkDecoders(0).threads();
        @Option(names = "--chunk-edges", paramLabel = "N", description = "edges a snapshot chunk")
        int chunkEdges = FrontierClient.CHUNK_EDGES;
        @Option(names = "--producer", paramLabel = "KEY=VALUE", description = "a setting of the plain producer and the client's "
                + "(repeatable)")
        Map<String, String> producer = new LinkedHashMap<>();
        @Option(names = "--no-kafka", description = "only the stages without Kafka")
        boolean noKafka;
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "kron18,kron20,ny", "--runs", "3", "--backend", "cpu");
        }

        @Override
        public Options options(String[] args) {
            return new Options(graphs.graphs(), runs.runs(), List.copyOf(codecs), fetchBytes, backend.backend(), threads, chunkEdges,
                    Map.copyOf(producer), !noKafka, output.out(), output.command("IngestBench", args));
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = BenchCli.options("IngestBench", args, Cli::new);
        List<String> graphs = o.graphs(), codecs = o.codecs();
        int runs = o.runs(), fetchBytes = o.fetchBytes(), threads = o.threads();
        String backend = o.backend(), command = o.command();
        chunkEdges = o.chunkEdges();
        PRODUCER.putAll(o.producer());
        out = o.out();
        say("### IngestBench, " + java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).format(
                java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")) + " UTC");
        say();
        say("- command: `" + command + "`");
        sayf("- cores %d, heap %d MB, load average %.2f, residency on %s%n", Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), backend);
        say();
        say("Without Kafka, ms (median of " + runs + "); in parentheses the process's CPU ns an edge (all threads, GC included:"
                + " independent of the machine's load). Avro decode: records to GraphSnapshotChunk (the consumer thread);"
                + " assemble: SnapshotAssembler, each chunk's edges decoded and counted into the rows, on the caller's thread"
                + " (1 thread) or on " + threads + " ingest threads (frontier.ingest-threads), waiting for the last; build: the CSR"
                + " laid out from the counts (placement, row sort and merge, edge ids; the common pool); build, wide: the same in"
                + " the wide form (frontier.wide-arcs-from 1: 64-bit offsets, arcs in pages); resident: the engine's copy");
        say();
        say("| graph | edges | chunks | MB | chunks ms | encode ms | Avro decode | assemble, 1 thread | assemble, " + threads
                + " threads | build | build, wide | resident ms | worker path ms |");
        say("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<Encoded> encoded = new ArrayList<>();
        for (String g : graphs) {
            encoded.add(stages(g, runs, backend, threads));
            flush();
        }
        if (!o.kafka()) {
            System.exit(0);
        }
        say();
        say("Through the embedded broker (no worker), ms (median of " + runs + "): publish = encoded records handed to a"
                + " producer with FrontierClient's settings until all acknowledged; fetch = read back by a consumer with the worker's"
                + " settings; FrontierClient.publishChunks = the chunks encoded and published by the client, codec in its settings");
        say();
        say("Chunks of " + chunkEdges + " edges; producer settings besides: " + (PRODUCER.isEmpty() ? "none" : PRODUCER));
        say();
        say("| graph | codec | publish ms | fetch ms | publish MB/s | publish M edges/s | FrontierClient.publishChunks ms | M edges/s |");
        say("|---|---|---:|---:|---:|---:|---:|---:|");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary()) {
            for (Encoded e : encoded) {
                for (String codec : codecs) throughKafka(broker.bootstrapServers(), e, codec, runs, fetchBytes);
                flush();
            }
        }
        System.exit(0);
    }

    /** One graph's chunks, and as the client encodes them. */
    private record Encoded(String name, List<GraphSnapshotChunk> chunks, byte[][] records, long bytes) {}

    /** A stage's wall ms and process CPU ns an edge, run by run. */
    private static final class Stage {
        final double[] wallMs;
        final double[] cpuNsPerEdge;
        long wall0, cpu0;

        Stage(int runs) {
            wallMs = new double[runs];
            cpuNsPerEdge = new double[runs];
        }

        void start() {
            wall0 = System.nanoTime();
            cpu0 = processCpuNanos();
        }

        void stop(int run, long edges) {
            wallMs[run] = (System.nanoTime() - wall0) / 1e6;
            cpuNsPerEdge[run] = (processCpuNanos() - cpu0) / (double) edges;
        }

        /** "wall ms (CPU ns an edge)", medians. */
        String cell() {
            return String.format(Locale.ROOT, "%.0f (%.1f)", median(wallMs), median(cpuNsPerEdge));
        }
    }

    /** CPU time of the whole process (every thread, GC included): independent of what else the machine runs. */
    static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    private static Encoded stages(String name, int runs, String backend, int threads) throws Exception {
        GpuBench.Edges edges = GpuBench.edges(name);
        String id = "ingest-" + name;
        long m = edges.edges().size();
        double[] chunkMs = new double[runs], encodeMs = new double[runs], residentMs = new double[runs], pathMs = new double[runs];
        Stage decode = new Stage(runs), assembleOne = new Stage(runs), assembleMany = new Stage(runs), build = new Stage(runs),
                buildWide = new Stage(runs);
        byte[][] records = null;
        List<GraphSnapshotChunk> published = null;
        CsrGraph reference = GraphBuilder.build(edges.edges());
        FrontierConfig config = new FrontierConfig();
        config.setBackend(backend);
        try (EngineService engines = new EngineService(config); ChunkDecoders pool = new ChunkDecoders(threads)) {
            for (int r = 0; r < runs; r++) {
                long version = r + 1;
                long t0 = System.nanoTime();
                List<GraphSnapshotChunk> chunks = FrontierClient.chunks(id, version, Snapshots.of(edges.edges()), edges.firstVertexId(), true,
                        chunkEdges);
                long t1 = System.nanoTime();
                published = chunks;
                records = new byte[chunks.size()][];
                for (int c = 0; c < records.length; c++) records[c] = FrontierCodec.encode(chunks.get(c));
                long t2 = System.nanoTime();
                decode.start();
                List<GraphSnapshotChunk> decoded = new ArrayList<>(records.length);
                for (byte[] b : records) decoded.add(FrontierCodec.decode(b, GraphSnapshotChunk.class));
                decode.stop(r, m);
                assembleOne.start();
                assemble(decoded, new SnapshotAssembler(Long.MAX_VALUE));   // decoded and counted on this thread
                assembleOne.stop(r, m);
                System.gc();
                assembleMany.start();
                SnapshotAssembler.Assembled assembled = assemble(decoded, new SnapshotAssembler(Long.MAX_VALUE, pool));
                assembleMany.stop(r, m);
                build.start();
                CsrGraph g = assembled.graph().build();
                build.stop(r, m);
                long t5 = System.nanoTime();
                engines.load(g).close();
                long t6 = System.nanoTime();
                if (!sameArrays(g, reference)) throw new IllegalStateException(name + ": the assembled graph differs from the one built here");
                assembled = null;
                g = null;
                System.gc();
                SnapshotAssembler.Assembled wide = assemble(decoded, new SnapshotAssembler(Long.MAX_VALUE, pool, 1));
                buildWide.start();
                CsrGraph gw = wide.graph().build();
                buildWide.stop(r, m);
                if (!sameWide(gw, reference)) throw new IllegalStateException(name + ": the wide graph differs from the one built here");
                decoded = null;
                wide = null;
                gw = null;
                System.gc();
                try (WorkerServices worker = new WorkerServices("ingest-bench")) {
                    long p0 = System.nanoTime();
                    Outputs last = null;
                    for (int c = 0; c < records.length; c++) {
                        last = worker.processor().process(new InputRecord("graphs", 0, c, id, records[c], System.currentTimeMillis()), false);
                    }
                    for (var s : last.statuses()) FrontierCodec.encode(s);
                    pathMs[r] = (System.nanoTime() - p0) / 1e6;
                    if (last.statuses().isEmpty()) throw new IllegalStateException(name + ": the worker published no GraphStatus: " + last);
                }
                chunkMs[r] = (t1 - t0) / 1e6;
                encodeMs[r] = (t2 - t1) / 1e6;
                residentMs[r] = (t6 - t5) / 1e6;
            }
        }
        long bytes = 0;
        for (byte[] b : records) bytes += b.length;
        sayf("| %s | %,d | %d | %.1f | %.0f | %.0f | %s | %s | %s | %s | %s | %.0f | %.0f |%n", name, m, records.length, bytes / 1e6,
                median(chunkMs), median(encodeMs), decode.cell(), assembleOne.cell(), assembleMany.cell(), build.cell(),
                buildWide.cell(), median(residentMs), median(pathMs));
        return new Encoded(name, published, records, bytes);
    }

    /** The chunks accepted in order; the complete version. */
    private static SnapshotAssembler.Assembled assemble(List<GraphSnapshotChunk> chunks, SnapshotAssembler assembler) {
        SnapshotAssembler.Assembled assembled = null;
        for (int c = 0; c < chunks.size(); c++) {
            SnapshotAssembler.Outcome o = assembler.accept(chunks.get(c), 0, c, 0);
            if (o.complete().isPresent()) assembled = o.complete().get();
        }
        return assembled;
    }

    /** The wide graph {@code w} holds {@code narrow}'s arcs, page by page. */
    private static boolean sameWide(CsrGraph w, CsrGraph narrow) {
        CsrGraph want = narrow.widen(w.pages().pageArcs());
        return w.wide() && Arrays.equals(w.rowOffsetsLong(), want.rowOffsetsLong())
                && Arrays.deepEquals(w.pages().columns(), want.pages().columns())
                && Arrays.deepEquals(w.pages().weights(), want.pages().weights())
                && Arrays.deepEquals(w.pages().edgeIds(), want.pages().edgeIds());
    }

    private static boolean sameArrays(CsrGraph a, CsrGraph b) {
        return Arrays.equals(a.rowOffsets(), b.rowOffsets()) && Arrays.equals(a.columns(), b.columns())
                && Arrays.equals(a.weights(), b.weights()) && Arrays.equals(a.arcEdgeIds(), b.arcEdgeIds());
    }

    private static void throughKafka(String bootstrap, Encoded e, String codec, int runs, int fetchBytes) throws Exception {
        double[] publishMs = new double[runs], fetchMs = new double[runs];
        for (int r = 0; r < runs; r++) {
            String topic = "ingest-" + e.name() + "-" + codec + "-" + UUID.randomUUID().toString().substring(0, 8);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1 << 20));
            p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
            p.putAll(PRODUCER);
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
                producer.partitionsFor(topic);   // metadata first: not part of the time
                long t0 = System.nanoTime();
                List<Future<RecordMetadata>> sends = new ArrayList<>(e.records().length);
                for (byte[] b : e.records()) sends.add(producer.send(new ProducerRecord<>(topic, e.name(), b)));
                for (Future<RecordMetadata> f : sends) f.get(60, TimeUnit.SECONDS);
                publishMs[r] = (System.nanoTime() - t0) / 1e6;
            }
            Properties c = new Properties();
            c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");   // the worker's frontier.max-poll-records
            if (fetchBytes > 0) c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(fetchBytes));
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
                TopicPartition tp = new TopicPartition(topic, 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                consumer.position(tp);
                long t0 = System.nanoTime();
                int read = 0;
                while (read < e.records().length) {
                    for (ConsumerRecord<String, byte[]> rec : consumer.poll(Duration.ofSeconds(5))) read++;
                }
                fetchMs[r] = (System.nanoTime() - t0) / 1e6;
            }
        }
        double[] clientMs = new double[runs];
        for (int r = 0; r < runs; r++) {
            String topic = "ingest-client-" + e.name() + "-" + codec + "-" + UUID.randomUUID().toString().substring(0, 8);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            Properties k = FrontierClient.kafka(bootstrap);
            k.putAll(PRODUCER);
            k.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
            FrontierClient.Topics t = FrontierClient.Topics.defaults();
            try (FrontierClient client = new FrontierClient(k, new FrontierClient.Topics(topic, t.results(), t.latency(), t.errors(), t.status()))) {
                client.publishRaw("warm-up", new byte[] {0});   // metadata first: not part of the time
                long t0 = System.nanoTime();
                client.publishChunks(e.chunks(), null);
                clientMs[r] = (System.nanoTime() - t0) / 1e6;
            }
        }
        long edges = 0;
        for (GraphSnapshotChunk c : e.chunks()) edges += org.frontiergraph.schema.codec.PackedArrays.intCount(c.getEdges().getSources());
        sayf("| %s | %s | %.0f | %.0f | %.0f | %.1f | %.0f | %.1f |%n", e.name(), codec, median(publishMs), median(fetchMs),
                e.bytes() / 1e6 / (median(publishMs) / 1e3), edges / 1e3 / median(publishMs), median(clientMs),
                edges / 1e3 / median(clientMs));
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
