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
 * <p>When partitions are assigned, or publishing fails, their graphs are rebuilt from the log: {@link PartitionRecovery}
 * decides where each partition resumes and which records are replayed (state only), the listener seeks there.
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
    private final FrontierMetrics metrics;
    private final PartitionRecovery recovery;
    private Consumer<String, byte[]> consumer;

    public GraphEventListener(GraphEventProcessor processor, OutputPublisher publisher, GraphRegistry registry,
                              FrontierMetrics metrics) {
        this.processor = processor;
        this.publisher = publisher;
        this.metrics = metrics;
        this.recovery = new PartitionRecovery(registry);
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
        Map<TopicPartition, Long> next = new HashMap<>();
        List<AnsweredQuery> answered = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            boolean replay = recovery.replaying(tp, r.offset());
            Outputs out = processor.process(
                    new InputRecord(r.topic(), r.partition(), r.offset(), r.key(), r.value(), r.timestamp()), replay);
            batch.add(out);
            if (out.answered() != null) answered.add(out.answered());
            if (replay) recovery.replayed(tp, r.offset());
            else next.put(tp, r.offset() + 1);
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
            commit(recovery.commits(next));
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
    private void commit(Map<TopicPartition, OffsetAndMetadata> commits) {
        if (commits.isEmpty()) return;
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
        recovery.forget(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        recovery.forget(partitions);
    }

    private void rebuild(Collection<TopicPartition> partitions) {
        List<TopicPartition> fromBeginning = new ArrayList<>();
        for (PartitionRecovery.Resume r : recovery.rebuild(partitions, consumer::committed)) {
            if (r.atBeginning()) fromBeginning.add(r.partition());
            else consumer.seek(r.partition(), r.offset());
        }
        if (!fromBeginning.isEmpty()) consumer.seekToBeginning(fromBeginning);
    }
}
