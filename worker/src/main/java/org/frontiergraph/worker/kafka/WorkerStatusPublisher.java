package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.annotation.KafkaClient;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.frontiergraph.schema.WorkerGraph;
import org.frontiergraph.schema.WorkerPartition;
import org.frontiergraph.schema.WorkerStatus;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes this worker's {@link WorkerStatus} on the status topic, keyed by the worker, every
 * {@code frontier.status-interval} (docs/contract.md, "WorkerStatus"): its consumer's state and readiness, the
 * partitions it owns with their lag, and the graphs it holds, as many as fit half the output producer's
 * {@code max.request.size}. Fire and forget: a status that does not go out is logged, and the next follows an interval
 * later. A stopping worker publishes none (the cluster view tells it silent after three intervals).
 */
@Singleton
public class WorkerStatusPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerStatusPublisher.class);
    /** A listed graph's bytes beside its id and backend: five numbers at their longest varints and two lengths. */
    static final int GRAPH_OVERHEAD_BYTES = 48;

    private final Producer<String, byte[]> producer;
    private final GraphConsumer consumer;
    private final GraphRegistry registry;
    private final String topic;
    private final String worker;
    private final long intervalMs;
    private final int maxListBytes;
    /** The write framing ({@code frontier.serialization.write}). */
    private final FrontierSerde serde;

    public WorkerStatusPublisher(@KafkaClient(id = "frontier-output", acks = KafkaClient.Acknowledge.ALL) Producer<String, byte[]> producer,
                                 GraphConsumer consumer, GraphRegistry registry, GraphEventProcessor processor,
                                 OutputPublisher outputs, TopicsConfig topics, FrontierConfig config, FrontierSerde serde) {
        this.serde = serde;
        this.producer = producer;
        this.consumer = consumer;
        this.registry = registry;
        this.topic = topics.getStatus();
        this.worker = processor.workerId();
        this.intervalMs = config.getStatusInterval().toMillis();
        this.maxListBytes = outputs.maxRequestBytes() / 2;
    }

    @Scheduled(fixedDelay = "${frontier.status-interval:10s}", initialDelay = "1s")
    void publish() {
        GraphConsumer.State state = consumer.status().state();
        if (state == GraphConsumer.State.STOPPING || state == GraphConsumer.State.STOPPED) return;   // its producer closes next
        WorkerStatus s = status(System.currentTimeMillis());
        try {
            producer.send(new ProducerRecord<>(topic, worker, serde.encode(topic, s)), (meta, e) -> {
                if (e != null) LOG.warn("worker status not published to {}: {}", topic, e.toString());
            });
        } catch (RuntimeException e) {   // the producer closed (the worker stops) or refused the record at once
            LOG.warn("worker status not published to {}: {}", topic, e.toString());
        }
    }

    /** This worker's status now. */
    WorkerStatus status(long nowMs) {
        GraphConsumer.Status c = consumer.status();
        List<WorkerGraph> graphs = new ArrayList<>();
        for (GraphEntry e : registry.all()) {
            graphs.add(WorkerGraph.newBuilder().setGraphId(e.graphId()).setVersion(e.version()).setPartition(e.partition())
                    .setVertexCount(e.vertexCount()).setEdgeCount(e.edgeCount()).setBackend(e.backend())
                    .setResidentBytes(e.residentBytes()).build());
        }
        return build(worker, nowMs, intervalMs, c, consumer.lag(), graphs, maxListBytes);
    }

    /**
     * A status of these parts: the consumer's state, readiness and owned partitions in order (each with its lag, -1 where
     * {@code lag} has none), the graphs by id, as many as fit {@code maxListBytes} (counted by id and backend length),
     * the rest counted in {@code graphsOmitted}.
     */
    static WorkerStatus build(String worker, long nowMs, long intervalMs, GraphConsumer.Status c, Map<Integer, Long> lag,
                              List<WorkerGraph> graphs, int maxListBytes) {
        List<WorkerPartition> partitions = new ArrayList<>();
        c.assigned().stream().sorted().forEach(p -> partitions.add(WorkerPartition.newBuilder().setPartition(p)
                .setLag(lag.getOrDefault(p, -1L)).setRebuilding(c.rebuilding().contains(p)).build()));
        List<WorkerGraph> sorted = new ArrayList<>(graphs);
        sorted.sort(Comparator.comparing(WorkerGraph::getGraphId));
        List<WorkerGraph> listed = new ArrayList<>();
        long bytes = 0;
        for (WorkerGraph g : sorted) {
            bytes += GRAPH_OVERHEAD_BYTES + g.getGraphId().getBytes(StandardCharsets.UTF_8).length
                    + g.getBackend().getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxListBytes) break;
            listed.add(g);
        }
        return WorkerStatus.newBuilder().setWorker(worker).setTimestampMs(nowMs).setIntervalMs(intervalMs)
                .setState(c.state().name()).setReady(c.ready()).setPartitions(partitions).setGraphs(listed)
                .setGraphsOmitted(sorted.size() - listed.size()).build();
    }
}
