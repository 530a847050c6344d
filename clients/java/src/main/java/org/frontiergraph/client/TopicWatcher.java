package org.frontiergraph.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.FrontierSerde;

/**
 * Reads one output topic without a consumer group: all partitions assigned, starting at the end (or the beginning),
 * decoding Frontier messages of one type. Used by the CLI, the demo and the integration tests.
 */
public final class TopicWatcher<T extends SpecificRecord> implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final Class<T> type;
    private final List<T> seen = new ArrayList<>();
    private final FrontierSerde serde;

    public TopicWatcher(String bootstrap, String topic, Class<T> type, boolean fromBeginning) {
        this(FrontierClient.kafka(bootstrap), topic, type, fromBeginning);
    }

    /**
     * {@code kafka}: bootstrap.servers and the cluster's other client settings (security), and the framing it reads
     * ({@link FrontierSerde#fromClientSettings}: single-object unless they name {@code frontier.serialization.read}).
     */
    public TopicWatcher(Properties kafka, String topic, Class<T> type, boolean fromBeginning) {
        this(kafka, topic, type, fromBeginning, FrontierSerde.fromClientSettings(kafka));
    }

    /** Reading with {@code serde}: with registry framing, records of either framing. */
    public TopicWatcher(Properties kafka, String topic, Class<T> type, boolean fromBeginning, FrontierSerde serde) {
        this.type = type;
        this.serde = serde;
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(2 << 20));
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (parts.isEmpty() && System.nanoTime() < deadline) {   // a worker starting right now creates it
            parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            if (parts.isEmpty()) pause();
        }
        if (parts.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic '" + topic + "' does not exist after 30 s (is a worker running?)");
        }
        consumer.assign(parts);
        if (fromBeginning) consumer.seekToBeginning(parts);
        else consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // resolve now, so that later records are not missed
    }

    private static void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Polls once, waiting up to {@code timeout}: the messages that arrived since the last poll, in the order read.
     * They are not kept in {@link #seen()}: for a reader that runs indefinitely (a subscription's pushes).
     */
    public List<T> poll(Duration timeout) {
        List<T> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : consumer.poll(timeout)) {
            try {
                SpecificRecord m = serde.decode(r.value());
                if (type.isInstance(m)) out.add(type.cast(m));
            } catch (FrontierCodec.MalformedMessageException e) {
                // not ours: ignore
            }
        }
        return out;
    }

    /** Polls until {@code done} holds for the messages seen so far, or the timeout passes; returns what was seen. */
    public List<T> awaitUntil(Predicate<List<T>> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(seen) && System.nanoTime() < deadline) {
            pollSeen();
        }
        return List.copyOf(seen);
    }

    /** The first message matching {@code match} within the timeout. */
    public Optional<T> awaitFirst(Predicate<T> match, Duration timeout) {
        return awaitUntil(l -> l.stream().anyMatch(match), timeout).stream().filter(match).findFirst();
    }

    /**
     * Reads to the end the topic has now, within {@code timeout}, keeping the messages in {@link #seen()}; returns
     * them. Polling may continue afterwards for messages published later.
     *
     * @throws IllegalStateException when the end was not reached in time
     */
    public List<T> catchUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        java.util.Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), timeout);
        while (!reached(end, deadline)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read topic " + end.keySet().iterator().next().topic() + " to its end within "
                        + timeout.toSeconds() + " s");
            }
            pollSeen();
        }
        return List.copyOf(seen);
    }

    /** One poll of 100 ms: the messages of this type kept in {@link #seen()}, others (not ours) ignored. */
    private void pollSeen() {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
            try {
                SpecificRecord m = serde.decode(r.value());
                if (type.isInstance(m)) seen.add(type.cast(m));
            } catch (FrontierCodec.MalformedMessageException e) {
                // not ours: ignore
            }
        }
    }

    private boolean reached(java.util.Map<TopicPartition, Long> end, long deadline) {
        Duration left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        for (var e : end.entrySet()) if (consumer.position(e.getKey(), left) < e.getValue()) return false;
        return true;
    }

    public List<T> seen() { return List.copyOf(seen); }

    /** Ends a {@link #poll} in progress on another thread (it throws Kafka's WakeupException), or the next one. */
    void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /** Closes the consumer within {@code timeout}. */
    public void close(Duration timeout) {
        consumer.close(timeout);
    }

}
