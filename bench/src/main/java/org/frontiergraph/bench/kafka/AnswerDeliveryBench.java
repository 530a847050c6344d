package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.OutputPublisher;
import org.frontiergraph.worker.kafka.TopicAdmin;
import org.frontiergraph.worker.processing.Outputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The path of a FULL answer after the kernel: its chunks packed, Avro-encoded and published by the worker's own
 * {@link OutputPublisher} (a producer with the worker's settings) to the embedded broker, and read back by a
 * consumer like KafkaBench's, without the engine, the worker's loop or the query around it. One answer of
 * {@code --vertices} distances (float64) and parents (int32), like an SSSP FULL answer on USA-road-d.NY; per run:
 * ms until the publisher has handed every chunk to the producer, until the broker acknowledged the last one, and until
 * the consumer holds the last one. Options: {@code --vertices} [264346], {@code --chunk-vertices} [60000],
 * {@code --runs} [200], {@code --warmup} [50], {@code --producer k=v} and {@code --consumer k=v} (repeatable).
 */
public final class AnswerDeliveryBench {
    private AnswerDeliveryBench() {}

    @Command(name = "AnswerDeliveryBench", description = "One FULL answer published by the worker's OutputPublisher "
            + "to the embedded broker and read back, without the engine.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Option(names = "--vertices", paramLabel = "N", description = "distances and parents of the answer")
        int vertices = 264_346;
        @Option(names = "--chunk-vertices", paramLabel = "N", description = "vertices a chunk")
        int per = 60_000;
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--warmup", paramLabel = "N", description = "untimed runs first")
        int warmup = 50;
        @Option(names = "--max-message-bytes", paramLabel = "N", description = "the results topic's max.message.bytes")
        Integer maxMessageBytes;
        @Option(names = "--producer", paramLabel = "KEY=VALUE", description = "a producer setting (repeatable)")
        Map<String, String> producer = new LinkedHashMap<>();
        @Option(names = "--consumer", paramLabel = "KEY=VALUE", description = "a consumer setting (repeatable)")
        Map<String, String> consumer = new LinkedHashMap<>();

        @Override
        public Map<String, String> defaults() {
            return Map.of("--runs", "200");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            runs.runs();
            return this;
        }
    }

    public static void main(String[] args) throws Exception {
        Cli o = BenchCli.options("AnswerDeliveryBench", args, Cli::new);
        int vertices = o.vertices, per = o.per, runs = o.runs.runs(), warmup = o.warmup;
        TopicsConfig topics = new TopicsConfig();
        if (o.maxMessageBytes != null) topics.setMaxMessageBytes(o.maxMessageBytes);
        Properties producerExtra = new Properties(), consumerExtra = new Properties();
        producerExtra.putAll(o.producer);
        consumerExtra.putAll(o.consumer);
        FrontierCodec.trust();
        SplittableRandom rnd = new SplittableRandom(42);
        double[] dist = new double[vertices];
        int[] parents = new int[vertices];
        for (int v = 0; v < vertices; v++) {
            dist[v] = rnd.nextInt(1 << 24);
            parents[v] = rnd.nextInt(vertices);
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary()) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(TopicAdmin.topicsToCreate(topics)).all().get();
            }
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.ACKS_CONFIG, "all");   // the worker's settings (worker/src/main/resources/application.yml)
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "1048576");
            p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
            p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
            p.putAll(producerExtra);
            Properties c = new Properties();
            c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            c.putAll(consumerExtra);
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
                 KafkaConsumer<String, byte[]> consumer = OutputTracker.consumer(c, "answer-delivery-bench")) {
                OutputTracker.atEnd(consumer, List.of(topics.getResults()), Duration.ofSeconds(30));
                OutputPublisher publisher = new OutputPublisher(producer, topics);
                double[] handed = new double[runs], acked = new double[runs], read = new double[runs];
                int chunks = 0;
                for (int run = -warmup; run < runs; run++) {
                    String id = "q" + run;
                    long t0 = System.nanoTime();
                    List<QueryResult> answer = chunks(id, dist, parents, per);
                    chunks = answer.size();
                    OutputPublisher.Batch batch = publisher.batch();
                    batch.addAll(List.of(new Outputs(answer, List.of(), List.of(), null, List.of())));
                    long t1 = System.nanoTime();
                    long ackedAt = 0;
                    BitSet held = new BitSet();
                    while (held.cardinality() < chunks) {
                        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                            if (!r.key().equals(id)) continue;
                            held.set(FrontierCodec.decode(r.value(), QueryResult.class).getChunkIndex());
                        }
                        if (ackedAt == 0 && batch.done()) ackedAt = System.nanoTime();
                    }
                    long t2 = System.nanoTime();
                    batch.await();
                    if (ackedAt == 0) ackedAt = System.nanoTime();
                    if (run >= 0) {
                        handed[run] = (t1 - t0) / 1e6;
                        acked[run] = (ackedAt - t0) / 1e6;
                        read[run] = (t2 - t0) / 1e6;
                    }
                }
                System.out.printf(Locale.ROOT, "%d vertices, %d chunks of <= %d, %d runs after %d; producer %s; consumer %s%n",
                        vertices, chunks, per, runs, warmup, producerExtra, consumerExtra);
                System.out.printf(Locale.ROOT, "handed to producer ms p50 %.2f p90 %.2f | acknowledged (or seen acked) p50 %.2f p90 %.2f"
                        + " | consumer holds all p50 %.2f p90 %.2f%n", pct(handed, 50), pct(handed, 90), pct(acked, 50),
                        pct(acked, 90), pct(read, 50), pct(read, 90));
            }
        }
    }

    /** The chunks of one answer as the worker makes them (QueryContext.vertexChunks, SsspAnswers.encode). */
    static List<QueryResult> chunks(String id, double[] dist, int[] parents, int per) {
        int total = dist.length, count = Math.max(1, (total + per - 1) / per);
        QueryResult[] out = new QueryResult[count];
        java.util.stream.IntStream.range(0, count).parallel().forEach(ci -> {
            int from = ci * per, to = Math.min(total, from + per);
            QueryResult r = QueryResult.newBuilder().setQueryId(id).setGraphId("ny").setGraphVersion(1)
                    .setAlgorithm(Algorithm.SSSP).setStatus(ResultStatus.OK).setBackend("cpu").setChunkIndex(ci)
                    .setChunkCount(count).setVertexCount(total).setFirstVertexId(1).setSource(1).build();
            r.setOffset(from);
            r.setDistances(PackedArrays.pack(dist, from, to));
            r.setParents(PackedArrays.pack(parents, from, to));
            out[ci] = r;
        });
        return Arrays.asList(out);
    }

    private static double pct(double[] v, int p) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, Math.max(0, (int) Math.ceil(p / 100.0 * s.length) - 1))];
    }
}
