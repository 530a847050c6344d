package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.annotation.KafkaClient;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.processing.Outputs;

/**
 * Publishes results (keyed by query id), latency and error events and graph status (keyed by graph id) as Avro
 * single-object bytes. Sends are asynchronous; {@link Batch#done()} tells whether the broker has answered all of
 * them and {@link Batch#await()} waits until it has, which the listener checks before committing offsets.
 */
@Singleton
public class OutputPublisher {
    private final Producer<String, byte[]> producer;
    private final TopicsConfig topics;

    public OutputPublisher(@KafkaClient(id = "frontier-output", acks = KafkaClient.Acknowledge.ALL) Producer<String, byte[]> producer,
                           TopicsConfig topics) {
        this.producer = producer;
        this.topics = topics;
    }

    public Batch batch() {
        return new Batch();
    }

    /** Sends in flight that must all succeed before offsets are committed. */
    public final class Batch {
        private final List<Future<RecordMetadata>> sends = new ArrayList<>();
        /** When the broker acknowledged the latest of the sends so far (the producer's callback), epoch ms. */
        private volatile long acknowledgedMs;

        /** The results, error events and graph status a record produced. */
        public void add(Outputs out) {
            out.results().forEach(this::result);
            out.errors().forEach(this::error);
            out.statuses().forEach(this::status);
            out.ended().forEach(s -> send(topics.getGraphs(), s.getGraphId(), s));
        }

        public void latency(LatencyEvent e) { send(topics.getLatency(), e.getGraphId(), e); }

        private void result(QueryResult r) { send(topics.getResults(), r.getQueryId(), r); }
        private void error(ErrorEvent e) { send(topics.getErrors(), e.getGraphId() != null ? e.getGraphId() : e.getKey(), e); }
        private void status(GraphStatus s) { send(topics.getStatus(), s.getGraphId(), s); }

        private void send(String topic, String key, SpecificRecord value) {
            sends.add(producer.send(new ProducerRecord<>(topic, key, FrontierCodec.encode(value)), (metadata, e) -> {
                if (e == null) acknowledgedMs = Math.max(acknowledgedMs, System.currentTimeMillis());
            }));
        }

        /** Whether every send so far has completed (acknowledged or failed): {@link #await()} would not block. */
        public boolean done() {
            for (Future<RecordMetadata> f : sends) if (!f.isDone()) return false;
            return true;
        }

        /** When the last acknowledgement so far arrived (epoch ms; 0 before any). */
        public long acknowledgedMs() {
            return acknowledgedMs;
        }

        /** Waits for every send; throws if any failed (the caller must then not commit). */
        public void await() throws ExecutionException, InterruptedException, TimeoutException {
            if (!done()) producer.flush();
            for (Future<RecordMetadata> f : sends) f.get(60, TimeUnit.SECONDS);
            sends.clear();
        }
    }
}
