package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * The client side of the output topics for a whole run: one consumer (no group) on every partition of the results,
 * latency, status and error topics, from their ends at start-up, and one thread that polls it. A query is registered
 * before it is published; the moment its last result chunk is read completes its future, so a waiting client
 * learns of it with nothing in between. Chunks of other queries are passed over by key, undecoded; answers are kept
 * whole only when asked (to verify them), otherwise only their header.
 */
final class OutputTracker implements AutoCloseable {
    /** What every chunk of a result carries: enough to check status and version, and SUMMARY's values. */
    record Head(ResultStatus status, String error, long version, String backend, int chunkCount, Long reachedCount,
                Integer maxHops, Double maxDistance, Double totalWeight, Long components) {
        static Head of(QueryResult r) {
            return new Head(r.getStatus(), r.getError(), r.getGraphVersion(), r.getBackend(), r.getChunkCount(),
                    r.getReachedCount(), r.getMaxHops(), r.getMaxDistance(), r.getTotalWeight(), r.getComponents());
        }
    }

    /** A whole answer: its header, its chunks in order (null unless kept), when its last chunk was read. */
    record Answer(String queryId, Head head, List<QueryResult> chunks, long doneNanos) {}

    /** A graph version reported loaded, and when the report was read. */
    record Loaded(GraphStatus status, long nanos) {}

    /** A worker's error event, and when it was read. */
    record Error(ErrorEvent event, long nanos) {}

    private static final class Pending {
        final String queryId;
        final boolean keep;
        final CompletableFuture<Answer> done = new CompletableFuture<>();
        final BitSet have = new BitSet();
        final List<QueryResult> chunks = new ArrayList<>();
        Head head;

        Pending(String queryId, boolean keep) {
            this.queryId = queryId;
            this.keep = keep;
        }
    }

    private record VersionWait(String graphId, long version, CompletableFuture<Loaded> done) {}

    private final FrontierClient.Topics topics;
    private final String queryPrefix;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Thread thread;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, LatencyEvent> latency = new ConcurrentHashMap<>();
    private final Map<String, Long> versions = new ConcurrentHashMap<>();
    private final List<VersionWait> versionWaits = new CopyOnWriteArrayList<>();
    private final List<Error> errors = new CopyOnWriteArrayList<>();
    /** Graphs whose every reported version is timed: version to when its GraphStatus was read (System.nanoTime). */
    private final Map<String, Map<Long, Long>> versionTimes = new ConcurrentHashMap<>();
    private volatile boolean running = true;
    private volatile Throwable failure;

    /**
     * Starts reading at the current end of each output topic; waits (up to {@code timeout}) for the topics to exist,
     * since a worker starting right now creates them. Only latency events of queries whose id starts with
     * {@code queryPrefix} are kept.
     */
    OutputTracker(Properties kafka, FrontierClient.Topics topics, String queryPrefix, Duration timeout) {
        this.topics = topics;
        this.queryPrefix = queryPrefix;
        this.consumer = consumer(kafka, "kafka-bench-outputs");
        atEnd(consumer, List.of(topics.results(), topics.latency(), topics.status(), topics.errors()), timeout);
        this.thread = new Thread(this::run, "kafka-bench-outputs");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Assigns {@code consumer} every partition of {@code topics} (waiting for them to exist) at its end, resolved now,
     * so that nothing published from here on is missed; closes the consumer when that fails.
     */
    static void atEnd(KafkaConsumer<String, byte[]> consumer, List<String> topics, Duration timeout) {
        List<TopicPartition> parts = new ArrayList<>();
        try {
            for (String topic : topics) parts.addAll(partitions(consumer, topic, timeout));
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
        atEnd(consumer, parts);
    }

    /** Assigns {@code consumer} the partitions {@code parts} at their end, resolved now; closes it when that fails. */
    static void atEnd(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> parts) {
        try {
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** A consumer of output topics for a benchmark: no group, large fetches, nothing committed. */
    static KafkaConsumer<String, byte[]> consumer(Properties kafka, String clientId) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 << 20));
        p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(128 << 20));
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** The partitions of {@code topic}, waiting up to {@code timeout} for it to exist (a starting worker creates it). */
    static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer, String topic, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var info = consumer.partitionsFor(topic, Duration.ofSeconds(10));
            if (info != null && !info.isEmpty()) return info.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic '" + topic + "' does not exist after " + timeout.toSeconds() + " s (is a worker running?)");
            }
            try {
                Thread.sleep(200);   // the worker creates its topics as it starts; nothing to wait on but time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for topic " + topic, e);
            }
        }
    }

    /** Registers a query before it is published; {@code keep}: hold its chunks (to verify the answer). */
    CompletableFuture<Answer> expect(String queryId, boolean keep) {
        Pending p = new Pending(queryId, keep);
        if (pending.putIfAbsent(queryId, p) != null) throw new IllegalStateException("query id " + queryId + " used twice");
        return p.done;
    }

    /** Completes when the worker reports {@code graphId} at {@code version} or later; register before publishing. */
    CompletableFuture<Loaded> expectVersion(String graphId, long version) {
        VersionWait w = new VersionWait(graphId, version, new CompletableFuture<>());
        versionWaits.add(w);
        Long now = versions.get(graphId);
        if (now != null && now >= version) complete(graphId, null, System.nanoTime());
        return w.done;
    }

    /**
     * From now on, remembers when each version of {@code graphId} was reported loaded; the returned map (version to
     * System.nanoTime when its GraphStatus was read) fills as reports come.
     */
    Map<Long, Long> timeVersions(String graphId) {
        return versionTimes.computeIfAbsent(graphId, g -> new ConcurrentHashMap<>());
    }

    /** The latest version of {@code graphId} reported loaded, or -1. */
    long version(String graphId) { return versions.getOrDefault(graphId, -1L); }

    /** The worker's latency events of {@code queryIds}, waiting up to {@code timeout} for those not read yet. */
    List<LatencyEvent> latencies(List<String> queryIds, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (latency) {
            while (!latency.keySet().containsAll(queryIds)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) break;
                try {
                    latency.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return queryIds.stream().map(latency::get).filter(java.util.Objects::nonNull).toList();
        }
    }

    /** Error events the worker published since start-up, for {@code graphId}. */
    List<Error> errors(String graphId) {
        return errors.stream().filter(e -> graphId.equals(e.event().getGraphId())).toList();
    }

    /** Why the reading thread stopped, if it did. */
    Throwable failure() { return failure; }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.nanoTime();
                    String topic = r.topic();
                    if (topic.equals(topics.results())) result(r, now);
                    else if (topic.equals(topics.latency())) latency(r);
                    else if (topic.equals(topics.status())) status(r, now);
                    else error(r, now);
                }
            }
        } catch (WakeupException e) {
            if (running) failure = e;
        } catch (Throwable t) {
            failure = t;
            pending.values().forEach(p -> p.done.completeExceptionally(t));
            versionWaits.forEach(w -> w.done.completeExceptionally(t));
        }
    }

    private void result(ConsumerRecord<String, byte[]> r, long now) {
        Pending p = r.key() == null ? null : pending.get(r.key());
        if (p == null) return;   // another client's query, or a redelivered chunk of one answered
        QueryResult c = decode(r.value(), QueryResult.class);
        if (c == null || !c.getQueryId().equals(p.queryId) || p.have.get(c.getChunkIndex())) return;
        p.have.set(c.getChunkIndex());
        if (p.head == null) p.head = Head.of(c);
        if (p.keep) p.chunks.add(c);
        if (p.have.cardinality() >= c.getChunkCount()) {
            pending.remove(p.queryId);
            List<QueryResult> chunks = null;
            if (p.keep) {
                chunks = new ArrayList<>(p.chunks);
                chunks.sort(Comparator.comparingInt(QueryResult::getChunkIndex));
            }
            p.done.complete(new Answer(p.queryId, p.head, chunks, now));
        }
    }

    private void latency(ConsumerRecord<String, byte[]> r) {
        LatencyEvent e = decode(r.value(), LatencyEvent.class);
        if (e == null || !e.getQueryId().startsWith(queryPrefix)) return;
        synchronized (latency) {
            latency.put(e.getQueryId(), e);
            latency.notifyAll();
        }
    }

    private void status(ConsumerRecord<String, byte[]> r, long now) {
        GraphStatus s = decode(r.value(), GraphStatus.class);
        if (s == null || s.getState() != GraphState.LOADED) return;
        versions.merge(s.getGraphId(), s.getVersion(), Math::max);
        Map<Long, Long> times = versionTimes.get(s.getGraphId());
        if (times != null) times.putIfAbsent(s.getVersion(), now);
        complete(s.getGraphId(), s, now);
    }

    private void complete(String graphId, GraphStatus s, long now) {
        long v = versions.getOrDefault(graphId, -1L);
        for (VersionWait w : versionWaits) {   // a snapshot of the list: removing is safe
            if (w.graphId.equals(graphId) && v >= w.version && w.done.complete(new Loaded(s, now))) versionWaits.remove(w);
        }
    }

    private void error(ConsumerRecord<String, byte[]> r, long now) {
        ErrorEvent e = decode(r.value(), ErrorEvent.class);
        if (e == null) return;
        errors.add(new Error(e, now));
        for (VersionWait w : versionWaits) {
            if (w.graphId.equals(e.getGraphId()) && e.getQueryId() == null
                    && w.done.completeExceptionally(new IllegalStateException("the worker rejected a record of graph '"
                    + e.getGraphId() + "': " + e.getCode() + ": " + e.getReason()))) {
                versionWaits.remove(w);
            }
        }
    }

    private static <T extends SpecificRecord> T decode(byte[] value, Class<T> type) {
        try {
            SpecificRecord m = FrontierCodec.decode(value);
            return type.isInstance(m) ? type.cast(m) : null;
        } catch (FrontierCodec.MalformedMessageException e) {
            return null;   // not a Frontier message: not ours
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close(Duration.ofSeconds(5));
    }
}
