package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.ConsumerAware;
import io.micronaut.configuration.kafka.annotation.KafkaListener;
import io.micronaut.configuration.kafka.annotation.OffsetReset;
import io.micronaut.configuration.kafka.annotation.OffsetStrategy;
import io.micronaut.configuration.kafka.annotation.Topic;
import io.micronaut.context.annotation.Property;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.processing.AnsweredQuery;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka adapter of the graphs topic. For each polled batch: every record goes through the processor (errors
 * are per record), the outputs are published and acknowledged, and only then are offsets committed
 * (at-least-once; results are idempotent by query id).
 *
 * <p>When partitions are assigned, the graphs of those partitions are rebuilt from the log: the consumer seeks to
 * the beginning and replays snapshots and updates up to the committed offset (queries there were answered
 * already), then carries on normally. The same happens if publishing fails, so no offset is ever skipped.
 */
@KafkaListener(groupId = "${frontier.group-id:frontier-workers}", batch = true,
        offsetReset = OffsetReset.EARLIEST, offsetStrategy = OffsetStrategy.DISABLED,
        properties = {
                @Property(name = ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, value = "false"),
                @Property(name = ConsumerConfig.MAX_POLL_RECORDS_CONFIG, value = "200"),
                @Property(name = ConsumerConfig.METADATA_MAX_AGE_CONFIG, value = "5000"),
                @Property(name = ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                        value = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor")
        })
public class GraphEventListener implements ConsumerRebalanceListener, ConsumerAware<String, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(GraphEventListener.class);

    private final GraphEventProcessor processor;
    private final OutputPublisher publisher;
    private final GraphRegistry registry;
    private final FrontierMetrics metrics;
    /** Per partition: records below this offset are replayed (state only). */
    private final Map<TopicPartition, Long> replayUntil = new ConcurrentHashMap<>();
    /** Commit metadata: the offset a rebuild of the partition starts reading at. */
    static final String REBUILD_FROM = "rebuildFrom=";
    private Consumer<String, byte[]> consumer;

    public GraphEventListener(GraphEventProcessor processor, OutputPublisher publisher, GraphRegistry registry,
                              FrontierMetrics metrics) {
        this.processor = processor;
        this.publisher = publisher;
        this.registry = registry;
        this.metrics = metrics;
    }

    @Topic("${frontier.topics.graphs:frontier.graphs}")
    public void receive(List<ConsumerRecord<String, byte[]>> records) {
        try {
            process(records);
        } catch (WakeupException e) {
            consumer.wakeup();   // micronaut-kafka is closing the consumer: hand the signal on to its poll loop
        }
    }

    private void process(List<ConsumerRecord<String, byte[]>> records) {
        OutputPublisher.Batch batch = publisher.batch();
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        List<AnsweredQuery> answered = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            boolean replay = r.offset() < replayUntil.getOrDefault(tp, -1L);
            Outputs out = processor.process(
                    new InputRecord(r.topic(), r.partition(), r.offset(), r.key(), r.value(), r.timestamp()), replay);
            batch.add(out);
            if (out.answered() != null) answered.add(out.answered());
            if (!replay) commits.put(tp, new OffsetAndMetadata(r.offset() + 1));
            else if (r.offset() + 1 == replayUntil.get(tp)) LOG.info("partition {} rebuilt from the log ({} graphs held)", tp, registry.size());
        }
        try {
            batch.await();
            long acknowledged = System.currentTimeMillis();   // the end of every answered query's end-to-end time
            for (AnsweredQuery q : answered) {
                LatencyEvent latency = q.latencyEvent(acknowledged);
                batch.latency(latency);
                metrics.query(latency);
            }
            batch.await();
            commit(commits);
        } catch (WakeupException e) {
            throw e;
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            Collection<TopicPartition> affected = new HashSet<>();
            records.forEach(r -> affected.add(new TopicPartition(r.topic(), r.partition())));
            LOG.error("publishing outputs failed ({}); rebuilding partitions {} from their committed offsets", e, affected);
            rebuild(affected);
        }
    }

    /**
     * Commits synchronously. A wakeup (micronaut-kafka closing the consumer) that lands in the commit is handed on:
     * the commit is sent asynchronously (the consumer's close waits for it) and the wakeup re-armed, so that the
     * poll loop sees it and ends; swallowing it would leave the loop polling and the close spinning forever.
     */
    private void commit(Map<TopicPartition, OffsetAndMetadata> next) {
        if (next.isEmpty()) return;
        // each commit also records where a rebuild of the partition must start reading (see rebuild)
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        next.forEach((tp, o) -> commits.put(tp, new OffsetAndMetadata(o.offset(),
                REBUILD_FROM + registry.rebuildFrom(tp.partition(), o.offset()))));
        try {
            consumer.commitSync(commits);
        } catch (WakeupException e) {
            consumer.commitAsync(commits, (offsets, error) -> {
                if (error != null) LOG.warn("commit during shutdown failed ({}); those records will be redelivered", error.toString());
            });
            consumer.wakeup();
        }
    }

    @Override
    public void setKafkaConsumer(Consumer<String, byte[]> consumer) {
        this.consumer = consumer;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) rebuild(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        forget(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        forget(partitions);
    }

    private void forget(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) return;
        partitions.forEach(replayUntil::remove);
        registry.dropPartitions(partitions.stream().map(TopicPartition::partition).toList());
    }

    /**
     * Drops what this worker holds for the partitions and replays their log up to the committed offsets, starting at
     * the offset the last commit recorded as enough to rebuild them (the first chunk of the oldest snapshot still in
     * use), or at the beginning when the commit carries none.
     */
    private void rebuild(Collection<TopicPartition> partitions) {
        forget(partitions);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
        List<TopicPartition> fromStart = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata c = committed.get(tp);
            if (c == null) {
                consumer.seekToBeginning(List.of(tp));
                continue;
            }
            long from = rebuildFrom(c);
            if (from >= c.offset()) {
                consumer.seek(tp, c.offset());   // nothing before the committed offset is needed
                continue;
            }
            replayUntil.put(tp, c.offset());
            if (from <= 0) {
                fromStart.add(tp);
            } else {
                consumer.seek(tp, from);
            }
            LOG.info("rebuilding graphs of {} from the log: replaying offsets {}..{}", tp, Math.max(0, from), c.offset() - 1);
        }
        if (!fromStart.isEmpty()) consumer.seekToBeginning(fromStart);
    }

    /** The rebuild start a commit recorded; 0 (the beginning) when it recorded none. */
    static long rebuildFrom(OffsetAndMetadata c) {
        String m = c.metadata();
        if (m == null || !m.startsWith(REBUILD_FROM)) return 0;
        try {
            return Long.parseLong(m.substring(REBUILD_FROM.length()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
