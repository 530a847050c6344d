package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * Publishes queries and updates to the graphs topic keyed by graph id, without waiting for each acknowledgement
 * (FrontierClient waits for every record; a burst or a stream of updates must not). The settings are
 * FrontierClient's (acks=all, idempotent, the codec of {@code kafka}'s compression.type, none by default as the client's),
 * with no linger, so that a lone query leaves at once. One producer publishes a graph's updates and queries, so Kafka
 * keeps them in publication order.
 */
final class BenchProducer implements AutoCloseable {
    private final KafkaProducer<String, byte[]> producer;
    private final String topic;

    BenchProducer(Properties kafka, String topic) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "kafka-bench");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1 << 20));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, kafka.getProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, FrontierClient.DEFAULT_COMPRESSION));
        p.put(ProducerConfig.LINGER_MS_CONFIG, FrontierClient.DEFAULT_LINGER_MS);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(256L << 20));
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
    }

    /** Hands the record to the producer (which sends it at once, batching what queues up behind). */
    Future<RecordMetadata> send(String graphId, SpecificRecord value) {
        return producer.send(new ProducerRecord<>(topic, graphId, FrontierCodec.encode(value)));
    }

    /** As {@link #send(String, SpecificRecord)}; {@code acked} is given the System.nanoTime of the broker's acknowledgement. */
    Future<RecordMetadata> send(String graphId, SpecificRecord value, LongConsumer acked) {
        return producer.send(new ProducerRecord<>(topic, graphId, FrontierCodec.encode(value)), (m, e) -> {
            if (e == null) acked.accept(System.nanoTime());
        });
    }

    /** Waits until the broker acknowledged {@code sent}; fails the run when it did not. */
    static void acknowledged(Future<RecordMetadata> sent, Duration timeout) {
        try {
            sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("publishing to Kafka failed: " + e, e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
