package org.frontiergraph.worker.ui;

import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.WorkerStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.GraphPartitioner;
import org.frontiergraph.worker.kafka.KafkaClientSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live page's cluster view: every worker's readiness, partitions with lag, and graphs, read from the status topic
 * ({@link ClusterState} folds the records). A reader of its own, without a consumer group (every partition assigned),
 * started by the first request for the view, so a worker nobody looks at reads nothing; it starts
 * {@link ClusterState#STALE_INTERVALS} status intervals back, where every live worker's latest status is. A failure
 * (the topic not readable: no Read ACL) is shown on the page and retried every {@link #RETRY}.
 */
@Singleton
@Requires(property = "frontier.ui.enabled", notEquals = "false")
public class ClusterView implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterView.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration RETRY = Duration.ofSeconds(5);

    private final KafkaClientSettings kafka;
    private final String statusTopic;
    private final String graphsTopic;
    private final long intervalMs;
    private final ClusterState state;
    /** The worker's read framing: registry framing, when the workers write it, is read too. */
    private final FrontierSerde serde;
    private volatile int graphPartitions;
    private volatile String error;
    private volatile boolean caughtUp;
    private volatile boolean closed;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    public ClusterView(KafkaClientSettings kafka, TopicsConfig topics, FrontierConfig config, FrontierSerde serde) {
        this.kafka = kafka;
        this.serde = serde;
        this.statusTopic = topics.getStatus();
        this.graphsTopic = topics.getGraphs();
        this.intervalMs = config.getStatusInterval().toMillis();
        this.state = new ClusterState(intervalMs);
    }

    /** The workers and their graphs, as {@link ClusterState#view}; with {@code error} when the topic cannot be read. */
    public Map<String, Object> view() {
        start();
        Map<String, Object> out = state.view(System.currentTimeMillis(), this::partitionOf);
        out.put("caughtUp", caughtUp);
        out.put("error", error);
        return out;
    }

    private synchronized void start() {
        if (thread != null || closed) return;
        thread = new Thread(this::run, "frontier-cluster-view");
        thread.setDaemon(true);
        thread.start();
    }

    /** The graphs topic's partition of a graph id (Kafka's default partitioner), -1 before the count is known. */
    private int partitionOf(String graphId) {
        return GraphPartitioner.partitionOf(graphId, graphPartitions);
    }

    private void run() {
        while (!closed) {
            try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(properties(), new StringDeserializer(), new ByteArrayDeserializer())) {
                consumer = c;
                if (closed) return;
                read(c);
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                if (closed) return;
                error = "cannot read " + statusTopic + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                caughtUp = false;
                LOG.warn("the live view's cluster view {}; retrying in {} s", error, RETRY.toSeconds());
            } finally {
                consumer = null;
            }
            try {
                Thread.sleep(RETRY.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void read(KafkaConsumer<String, byte[]> c) {
        graphPartitions = c.partitionsFor(graphsTopic).size();
        List<TopicPartition> parts = c.partitionsFor(statusTopic).stream()
                .map(i -> new TopicPartition(statusTopic, i.partition())).toList();
        c.assign(parts);
        long from = System.currentTimeMillis() - ClusterState.STALE_INTERVALS * intervalMs;
        Map<TopicPartition, Long> at = new HashMap<>();
        parts.forEach(p -> at.put(p, from));
        Map<TopicPartition, OffsetAndTimestamp> offsets = c.offsetsForTimes(at);
        Map<TopicPartition, Long> ends = c.endOffsets(parts);
        for (TopicPartition p : parts) {
            OffsetAndTimestamp o = offsets.get(p);
            c.seek(p, o != null ? o.offset() : ends.get(p));
        }
        error = null;
        while (!closed) {
            for (ConsumerRecord<String, byte[]> r : c.poll(POLL)) accept(r.value());
            caughtUp = parts.stream().allMatch(p -> c.position(p) >= ends.get(p));
        }
    }

    private void accept(byte[] value) {
        SpecificRecord m;
        try {
            m = serde.decode(value);
        } catch (FrontierCodec.MalformedMessageException | RuntimeException e) {
            return;   // not a record of the contract
        }
        if (m instanceof WorkerStatus s) state.accept(s);
        else if (m instanceof GraphStatus g) state.accept(g);
    }

    private Properties properties() {
        Properties p = kafka.consumer();
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);   // no group: every partition assigned, nothing committed
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "frontier-cluster-view");
        return p;
    }

    @Override
    @PreDestroy
    public void close() {
        closed = true;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) c.wakeup();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t == null) return;
        t.interrupt();   // out of its pause between attempts
        try {
            t.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
