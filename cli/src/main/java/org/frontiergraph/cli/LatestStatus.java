package org.frontiergraph.cli;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.client.SnapshotVersions;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.kafka.GraphPartitioner;

/**
 * A graph's last GraphStatus, read from the end of the status topic: only the partition its key maps to (Kafka's
 * default partitioner, as the workers publish), only its last {@value #WINDOW} records, so that the answer costs the
 * same whatever the topic holds. What {@code load} and {@code update} need to know the version a graph is at.
 */
final class LatestStatus {
    /** Records of the graph's status partition read back from its end. */
    static final int WINDOW = 20_000;

    private LatestStatus() {}

    /** The last status of {@code graphId} on {@code topic}; empty when none is among the partition's last records. */
    static Optional<GraphStatus> of(Properties kafka, String topic, String graphId, Duration timeout) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
        long deadline = System.nanoTime() + timeout.toNanos();
        FrontierSerde serde = FrontierSerde.fromClientSettings(kafka);
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> parts = c.partitionsFor(topic, timeout);
            if (parts.isEmpty()) return Optional.empty();
            TopicPartition tp = new TopicPartition(topic, GraphPartitioner.partitionOf(graphId, parts.size()));
            c.assign(List.of(tp));
            long end = c.endOffsets(List.of(tp), timeout).get(tp);
            long begin = c.beginningOffsets(List.of(tp), timeout).get(tp);
            c.seek(tp, Math.max(begin, end - WINDOW));
            GraphStatus last = null;
            while (c.position(tp, timeout) < end) {
                if (System.nanoTime() > deadline) throw new CliFailure("could not read " + topic + " within " + timeout.toSeconds() + " s");
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(100))) {
                    if (!graphId.equals(r.key()) || r.value() == null) continue;
                    try {
                        if (serde.decode(r.value()) instanceof GraphStatus s && graphId.equals(s.getGraphId())) last = s;
                    } catch (FrontierCodec.MalformedMessageException e) {
                        // not a status: skipped
                    }
                }
            }
            return Optional.ofNullable(last);
        }
    }

    /**
     * The version of a snapshot of {@code graphId} published now, by the contract's rule (docs/contract.md, "Choosing
     * versions"): the clock's ({@link SnapshotVersions#now}), or above the graph's last reported version when that is
     * higher (a publisher whose clock is behind, versions given by hand).
     */
    static long nextSnapshotVersion(Properties kafka, String topic, String graphId, Duration timeout) {
        long current = of(kafka, topic, graphId, timeout).map(GraphStatus::getVersion).orElse(-1L);
        return SnapshotVersions.next(System.currentTimeMillis(), current);
    }
}
