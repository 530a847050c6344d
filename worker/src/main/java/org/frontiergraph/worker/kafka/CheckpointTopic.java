package org.frontiergraph.worker.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
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
import org.frontiergraph.worker.checkpoint.CheckpointCatalog;
import org.frontiergraph.worker.checkpoint.CheckpointFormat;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint topic ({@code frontier.topics.checkpoints}): partitioned as the graphs topic, a graph's checkpoint
 * records go to the partition number of the graph's own partition (set explicitly, not by the key's hash), so a
 * worker assigned partition p of the graphs topic reads partition p of this one only. Writes (a producer of its own,
 * acks=all, idempotent) come from the checkpoint thread; {@link #read} from the consumer's thread, at an assignment,
 * from the offset the last commit named (where the newest checkpoints start) or from the beginning.
 */
final class CheckpointTopic implements Checkpointer.Sink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointTopic.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String topic;
    private final Properties consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final List<Future<RecordMetadata>> sent = new ArrayList<>();

    CheckpointTopic(String topic, KafkaClientSettings kafka, int maxMessageBytes) {
        this.topic = topic;
        Properties p = kafka.producer();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(maxMessageBytes));
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "frontier-checkpoints-" + Long.toHexString(System.nanoTime()));
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.consumer = kafka.consumer();
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(Math.max(16 << 20, maxMessageBytes)));
        consumer.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(64 << 20));
        // the socket's buffer sized by the kernel (TCP autotuning), not Kafka's 64 KiB: a read of tens of MB otherwise
        // waits for the broker's thread once every 64 KiB, which on a busy host cost more than the bytes themselves
        consumer.putIfAbsent(ConsumerConfig.RECEIVE_BUFFER_CONFIG, "-1");
        // the read stops at the end of the log, where the fetch the consumer has already sent for more would wait out
        // fetch.max.wait.ms (500) on the broker, and close() for it: half a second of every rebuild (docs/benchmarks.md)
        consumer.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10");
        consumer.remove(ConsumerConfig.GROUP_ID_CONFIG);
    }

    @Override
    public synchronized void send(CheckpointFormat.Out r, int partition) {
        sent.add(producer.send(new ProducerRecord<>(topic, partition, r.key(), r.value(), r.headers())));
    }

    @Override
    public long flush() throws Exception {
        List<Future<RecordMetadata>> waiting;
        synchronized (this) {
            waiting = new ArrayList<>(sent);
            sent.clear();
        }
        producer.flush();
        long lowest = Long.MAX_VALUE;
        for (Future<RecordMetadata> f : waiting) {
            RecordMetadata m = f.get();
            lowest = Math.min(lowest, m.hasOffset() ? m.offset() : -1);
        }
        return lowest == Long.MAX_VALUE ? -1 : lowest;
    }

    /**
     * Reads partition {@code partition} of the topic from offset {@code from} to its end, as compaction would leave
     * it; from its beginning when {@code from} is negative (no hint) or not within the log (below its start, past its
     * end: a stale or wrong hint). The catalog says where the read started.
     */
    CheckpointCatalog read(int partition, long from) {
        TopicPartition tp = new TopicPartition(topic, partition);
        KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(consumer, new StringDeserializer(), new ByteArrayDeserializer());
        try {
            if (c.partitionsFor(topic, Duration.ofSeconds(30)).stream().noneMatch(i -> i.partition() == partition)) {
                LOG.error("topic {} has no partition {}: graphs of that partition are rebuilt from the log alone (create the "
                        + "topic as docs/operations.md says: compacted, as many partitions as the graphs topic)", topic, partition);
                return new CheckpointCatalog(0, true);
            }
            c.assign(List.of(tp));
            long start = from < 0 ? 0 : c.beginningOffsets(List.of(tp), Duration.ofSeconds(30)).getOrDefault(tp, 0L);   // no hint: no need
            long end = c.endOffsets(List.of(tp), Duration.ofSeconds(30)).getOrDefault(tp, 0L);
            boolean seek = from > start && from <= end;
            if (from >= 0 && !seek && from != start) {
                LOG.warn("{}: the checkpoints' offset {} the last commit named is not within the log ({}..{}): read from the "
                        + "beginning", tp, from, start, end);
            }
            CheckpointCatalog catalog = new CheckpointCatalog(seek ? from : start, !seek);
            if (seek) c.seek(tp, from);
            else c.seekToBeginning(List.of(tp));
            while (c.position(tp, Duration.ofSeconds(30)) < end) {
                for (ConsumerRecord<String, byte[]> r : c.poll(POLL).records(tp)) {
                    catalog.add(r.key(), r.value(), r.headers(), r.offset());
                }
            }
            return catalog;
        } finally {
            // no group to leave, nothing to commit: a close that waits for the fetch still in flight (up to
            // fetch.max.wait.ms, and the broker's turn on a busy host) only delays the rebuild (measured 17 ms of 63)
            c.close(Duration.ZERO);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
