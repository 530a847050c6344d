package org.frontiergraph.bench.kafka;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.frontiergraph.cli.EmbeddedKafkaBroker;

/**
 * The Kafka path of one closed-loop query with no work in it: what the transport alone costs, to set beside
 * KafkaBench's closed loop (p50 less compute). A client produces a 100-byte record to one topic (the query) and waits
 * for it on another; an echo thread in the same JVM, the worker's part, polls the first topic and produces each
 * record to the second at once (the results). Both producers have the worker's and FrontierClient's settings
 * (acks=all, idempotence, linger 0, no compression); both consumers fetch at once (fetch.min.bytes 1). The broker is
 * the embedded one KafkaBench uses, in this JVM. Prints the medians and p99s of the hand-overs, in ms
 * (docs/benchmarks.md, "The Kafka path's floor").
 * <pre>java -cp ... org.frontiergraph.bench.kafka.EchoFloor [rounds, default 2000] [work µs, default 0] [spin|sleep]</pre>
 * With work, the echo thread holds each record that long before producing it, as a worker's thread waits for its
 * kernel: spinning (as the CUDA driver's synchronization does with fewer contexts than cores), or sleeping; the
 * round trip then shows what a query of that compute time costs the Kafka path, the cores' idling included.
 */
public final class EchoFloor {
    private EchoFloor() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int warmup = Math.max(1, rounds / 10);
        long workNanos = args.length > 1 ? Long.parseLong(args[1]) * 1000 : 0;
        boolean sleep = args.length > 2 && args[2].equals("sleep");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startTemporary()) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Admin.create(java.util.Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("echo.in", 1, (short) 1), new NewTopic("echo.out", 1, (short) 1))).all().get();
            }
            int total = warmup + rounds;
            long[] sent = new long[total], acked = new long[total], polled = new long[total], read = new long[total];
            AtomicBoolean stop = new AtomicBoolean();
            Thread echo = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> in = consumer(bootstrap, "echo.in");
                     KafkaProducer<byte[], byte[]> out = producer(bootstrap)) {
                    while (!stop.get()) {
                        for (ConsumerRecord<byte[], byte[]> r : in.poll(Duration.ofMillis(100))) {
                            long at = System.nanoTime();
                            polled[ByteBuffer.wrap(r.value()).getInt()] = at;
                            if (workNanos > 0 && sleep) java.util.concurrent.locks.LockSupport.parkNanos(workNanos);
                            else while (System.nanoTime() - at < workNanos) Thread.onSpinWait();
                            out.send(new ProducerRecord<>("echo.out", r.key(), r.value()));
                        }
                    }
                }
            }, "echo");
            echo.start();
            try (KafkaProducer<byte[], byte[]> client = producer(bootstrap);
                 KafkaConsumer<byte[], byte[]> results = consumer(bootstrap, "echo.out")) {
                for (int i = 0; i < total; i++) {
                    byte[] value = new byte[100];
                    ByteBuffer.wrap(value).putInt(i);
                    int at = i;
                    sent[i] = System.nanoTime();
                    client.send(new ProducerRecord<>("echo.in", ("q" + i).getBytes(), value), (m, e) -> acked[at] = System.nanoTime());
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (read[i] == 0) {
                        for (ConsumerRecord<byte[], byte[]> r : results.poll(Duration.ofMillis(100))) {
                            read[ByteBuffer.wrap(r.value()).getInt()] = System.nanoTime();
                        }
                        if (System.nanoTime() > deadline) throw new IllegalStateException("round " + i + " not echoed in 30 s");
                    }
                }
            } finally {
                stop.set(true);
                echo.join(10_000);
            }
            System.out.println(String.format(Locale.ROOT, "%d rounds after %d warm-up, echo work %d µs (%s), ms (p50 / p99):",
                    rounds, warmup, workNanos / 1000, sleep ? "sleeping" : "spinning"));
            line("sent -> query acked", sent, acked, warmup);
            line("sent -> polled by the echo thread", sent, polled, warmup);
            line("polled -> read back by the client", polled, read, warmup);
            line("round trip (sent -> read back)", sent, read, warmup);
        }
    }

    private static void line(String what, long[] from, long[] to, int skip) {
        double[] ms = new double[from.length - skip];
        for (int i = skip; i < from.length; i++) ms[i - skip] = (to[i] - from[i]) / 1e6;
        Arrays.sort(ms);
        System.out.println(String.format(Locale.ROOT, "RESULT %-36s %.3f / %.3f", what, ms[ms.length / 2], ms[(int) (ms.length * 0.99)]));
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A consumer assigned the topic's one partition at its end (no group), fetching at once. */
    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TopicPartition tp = new TopicPartition(topic, 0);
        c.assign(List.of(tp));
        c.seekToEnd(List.of(tp));
        c.position(tp);   // resolved now: records produced from here on are read
        return c;
    }
}
