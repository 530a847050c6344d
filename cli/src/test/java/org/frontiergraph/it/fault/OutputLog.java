package org.frontiergraph.it.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * Everything the workers publish from now on, read in the background without a consumer group (so it survives a
 * broker restart and rebalances): result chunks with the time each arrived, error events, graph status.
 */
final class OutputLog implements AutoCloseable {
    /** A record as it arrived: its value, when, and where. */
    record Arrival<T>(T value, long nanos, int partition, long offset) {}

    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private final List<Arrival<QueryResult>> results = new ArrayList<>();
    private final List<ErrorEvent> errors = new ArrayList<>();
    private final List<GraphStatus> statuses = new ArrayList<>();
    private volatile boolean closed;

    OutputLog(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(2 << 20));
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (String topic : List.of(FaultSupport.RESULTS, FaultSupport.ERRORS, FaultSupport.STATUS)) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
        }
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position);   // resolve now: nothing published after this is missed
        thread = new Thread(this::run, "fault-output-log");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!closed) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.nanoTime();
                    SpecificRecord m;
                    try {
                        m = FrontierCodec.decode(r.value());
                    } catch (FrontierCodec.MalformedMessageException e) {
                        throw new IllegalStateException("a worker published an undecodable record on " + r.topic(), e);
                    }
                    synchronized (this) {
                        if (m instanceof QueryResult q) results.add(new Arrival<>(q, now, r.partition(), r.offset()));
                        else if (m instanceof ErrorEvent e) errors.add(e);
                        else if (m instanceof GraphStatus s) statuses.add(s);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    synchronized List<Arrival<QueryResult>> results() { return List.copyOf(results); }

    synchronized List<ErrorEvent> errors() { return List.copyOf(errors); }

    synchronized List<GraphStatus> statuses() { return List.copyOf(statuses); }

    /** Result chunks by query id, in arrival order. */
    synchronized Map<String, List<Arrival<QueryResult>>> resultsByQuery() {
        Map<String, List<Arrival<QueryResult>>> by = new HashMap<>();
        for (Arrival<QueryResult> a : results) by.computeIfAbsent(a.value().getQueryId(), k -> new ArrayList<>()).add(a);
        return by;
    }

    synchronized boolean loaded(String graphId, long version) {
        // >=: updates applied together report their last version only (docs/contract.md, "GraphStatus")
        return statuses.stream().anyMatch(s -> s.getGraphId().equals(graphId) && s.getVersion() >= version
                && s.getState() == GraphState.LOADED);
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        consumer.wakeup();
        thread.join(10_000);
    }
}
