package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.FrontierSerde;

/**
 * Counts the records the worker reads from the graphs topic by message type ({@code frontier.records{type=GraphUpdate}}
 * and so on): the update, snapshot and query rates of the dashboard. A Kafka consumer interceptor, so the listener
 * needs no change; {@link RecordCountingConsumers} installs it. It reads only the type header (the fingerprint), never
 * decodes, and counts records a rebuild replays after a rebalance again.
 */
public class GraphRecordCounter implements ConsumerInterceptor<Object, Object> {
    /** Consumer config: a {@code Supplier<MeterRegistry>}. */
    public static final String REGISTRY = "frontier.metrics.registry";
    /** Consumer config: the name of the graphs topic. */
    public static final String TOPIC = "frontier.metrics.graphs-topic";
    /** Consumer config: a {@code Supplier<FrontierSerde>}, the worker's read framing (else single-object). */
    public static final String SERDE = "frontier.metrics.serde";

    private MeterRegistry meters;
    private String topic;
    private FrontierSerde serde = FrontierSerde.singleObject();

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs) {
        Object registry = configs.get(REGISTRY);
        meters = registry instanceof Supplier<?> s ? (MeterRegistry) s.get() : null;
        Object t = configs.get(TOPIC);
        topic = t == null ? null : t.toString();
        if (configs.get(SERDE) instanceof Supplier<?> s) serde = (FrontierSerde) s.get();
    }

    /** The counter of each message type, looked up once (a poll holds up to thousands of records). */
    private final Map<String, Counter> counters = new HashMap<>();

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        if (meters == null || records.isEmpty()) return records;
        String last = null;
        long run = 0;
        for (ConsumerRecord<Object, Object> r : records) {   // runs of one type (a stream of updates) counted at once
            if (topic != null && !topic.equals(r.topic())) continue;
            String type = type(r.value());
            if (!type.equals(last)) {
                if (run > 0) count(last, run);
                last = type;
                run = 0;
            }
            run++;
        }
        if (run > 0) count(last, run);
        return records;
    }

    /** The message type of a record's value: the schema's name, "tombstone" (no value) or "malformed". */
    String type(Object value) {
        if (value == null) return "tombstone";   // a key with no value: drops its graph
        if (!(value instanceof byte[] bytes)) return "malformed";
        try {
            return serde.typeOf(bytes).getSimpleName();
        } catch (FrontierCodec.MalformedMessageException | RuntimeException e) {   // a registry out of reach too
            return "malformed";
        }
    }

    void count(String type) {
        count(type, 1);
    }

    private void count(String type, long n) {
        counters.computeIfAbsent(type, t -> Counter.builder("frontier.records").tag("type", t)
                .description("Records read from the graphs topic, by message type (replayed records count again)")
                .register(meters)).increment(n);
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }
}
