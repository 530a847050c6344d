package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.config.AbstractKafkaConsumerConfiguration;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's consumer of the graphs topic and the one thread that polls it; {@link GraphEventListener} handles
 * what it polls. Owning the poll loop (rather than leaving it to a framework) is what lets the worker promise:
 * <ul>
 *   <li>it never stops consuming silently: a failure outside per-record handling (which never throws) closes the
 *       consumer, whose partitions go back to the group, and starts a fresh one that rebuilds what it is assigned;
 *       {@link #status()} tells the health endpoint, which reports DOWN until a consumer polls again;</li>
 *   <li>it is ready only once the group assigned it its partitions and each was rebuilt from the log;</li>
 *   <li>a crashed worker's partitions move within the session timeout ({@code frontier.session-timeout}, 6 s), and a
 *       worker with a configured {@code frontier.worker-id} is a static member: restarted within that time, it gets
 *       its partitions back without a rebalance;</li>
 *   <li>{@link #stop()} ends the batch in hand, publishes and commits what was processed, and leaves the group: its
 *       partitions are revoked at once (a static member is removed from the group, since it does not leave by
 *       itself).</li>
 * </ul>
 */
@Context
public class GraphConsumer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GraphConsumer.class);
    private static final Duration POLL = Duration.ofMillis(200);
    /** The poll while batches wait for their acknowledgements, so their offsets are committed soon after. */
    private static final Duration POLL_UNSETTLED = Duration.ofMillis(2);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final long EXPIRY_SWEEP_MS = 1_000;
    private static final long LAG_READ_MS = 1_000;
    private static final long MAX_BACKOFF_MS = 30_000;
    /** Kafka's max.poll.interval.ms (default): a consumer that has not polled for this long has lost its partitions. */
    static final long MAX_POLL_INTERVAL_MS = 300_000;

    /** What the consumer is doing. */
    public enum State { STARTING, RUNNING, RESTARTING, STOPPING, STOPPED }

    /**
     * A snapshot for the health endpoint: the state, whether the worker is ready (joined, every assigned partition
     * rebuilt), the partitions assigned and still being rebuilt, how long ago the consumer last polled, how often it
     * was restarted and why last.
     */
    public record Status(State state, boolean ready, Set<Integer> assigned, Set<Integer> rebuilding, long lastPollAgeMs,
                         int restarts, String lastFailure, boolean threadAlive, int publishFailures, String lastPublishFailure,
                         int maxPublishFailures) {
        /** Kafka's max.poll.interval.ms: a consumer that has not polled for this long has lost its partitions. */
        public static final long STALLED_AFTER_MS = MAX_POLL_INTERVAL_MS;

        public Status(State state, boolean ready, Set<Integer> assigned, Set<Integer> rebuilding, long lastPollAgeMs,
                      int restarts, String lastFailure, boolean threadAlive) {
            this(state, ready, assigned, rebuilding, lastPollAgeMs, restarts, lastFailure, threadAlive, 0, null, Integer.MAX_VALUE);
        }
    }

    private final GraphEventProcessor processor;
    private final OutputPublisher publisher;
    private final GraphRegistry registry;
    private final FrontierMetrics metrics;
    private final FrontierConfig config;
    private final String topic;
    /** For the admin client that removes a static member from the group. */
    private final KafkaClientSettings kafka;
    /** micronaut-kafka's consumer settings: kafka.* (see {@link KafkaClientSettings}) and kafka.consumers.default.*,
     *  plus what its bean listeners add (the Kafka client metrics reporter, the graph record counter). */
    private final Properties consumerDefaults;
    private final String instanceId;
    private final Thread thread;
    /** Processes the partitions of a poll side by side; null when {@code frontier.partition-concurrency} is 1. */
    private final ExecutorService partitions;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile State state = State.STARTING;
    private volatile boolean ready;
    private volatile Set<Integer> assigned = Set.of();
    private volatile Set<Integer> rebuilding = Set.of();
    /** Each owned partition's lag (records to its end), -1 until known; read on the consumer thread once a second. */
    private volatile Map<Integer, Long> lag = Map.of();
    private long lagReadMs;
    private volatile long lastPollNanos = System.nanoTime();
    private volatile int restarts;
    private volatile String lastFailure;
    private volatile GraphEventListener listener;
    /** Takes and installs the graphs' checkpoints. */
    private final Checkpointer checkpointer;
    /** The checkpoint topic's clients, while the consumer runs; null when checkpoints are off or their topic unusable. */
    private final CheckpointTopic checkpoints;

    /** {@code topicsCreated}: the topics exist before the consumer subscribes. */
    public GraphConsumer(TopicAdmin topicsCreated, GraphEventProcessor processor, OutputPublisher publisher,
                         GraphRegistry registry, FrontierMetrics metrics, FrontierConfig config, TopicsConfig topics,
                         KafkaClientSettings kafka, AbstractKafkaConsumerConfiguration<?, ?> consumerDefaults,
                         Checkpointer checkpointer) {
        this.checkpointer = checkpointer;
        this.checkpoints = checkpointer.enabled() && topicsCreated.checkpointsAvailable()
                ? new CheckpointTopic(topics.getCheckpoints(), kafka, topics.getMaxMessageBytes()) : null;
        if (checkpoints != null) checkpointer.sink(checkpoints);
        this.processor = processor;
        this.publisher = publisher;
        this.registry = registry;
        this.metrics = metrics;
        this.config = config;
        this.topic = topics.getGraphs();
        this.kafka = kafka;
        this.consumerDefaults = consumerDefaults.getConfig();
        Object fetch = this.consumerDefaults.get(ConsumerConfig.FETCH_MAX_BYTES_CONFIG);   // the memory model sets a fetch aside
        if (fetch != null) config.setConsumerFetchBytes(Long.parseLong(fetch.toString()));
        this.instanceId = config.isStaticMembership() && config.getWorkerId() != null && !config.getWorkerId().isBlank()
                ? config.getWorkerId() : null;
        this.thread = new Thread(this::run, "frontier-consumer");
        this.partitions = config.getPartitionConcurrency() > 1 ? partitionPool(config.getPartitionConcurrency()) : null;
    }

    /** The threads that process the partitions of a poll side by side ({@code frontier.partition-concurrency}). */
    private static ExecutorService partitionPool(int threads) {
        AtomicInteger number = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "frontier-partition-" + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @PostConstruct
    void start() {
        LOG.info("consuming {} in group '{}' as a {} member (session timeout {})", topic, config.getGroupId(),
                instanceId == null ? "dynamic" : "static ('" + instanceId + "')", config.getSessionTimeout());
        thread.start();
    }

    public Status status() {
        long age = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastPollNanos);
        GraphEventListener l = listener;
        return new Status(state, ready && state == State.RUNNING, assigned, rebuilding, age, restarts, lastFailure, thread.isAlive(),
                l == null ? 0 : l.publishFailures(), l == null ? null : l.lastPublishFailure(), config.getMaxPublishFailures());
    }

    /** Where the consumer's thread is now: its stack, innermost call first. */
    public StackTraceElement[] stack() {
        return thread.getStackTrace();
    }

    /** The lag of each partition this worker owns: records between its consumer's position and the partition's end, -1 until known. */
    public Map<Integer, Long> lag() {
        return lag;
    }

    /**
     * Stops consuming and waits (up to {@code frontier.shutdown-timeout}) until the batch in hand is published and
     * committed and the consumer has left the group. Idempotent.
     */
    public void stop() {
        if (!stopping) {
            stopping = true;
            state = State.STOPPING;
            ready = false;
            stopRequested.countDown();
            KafkaConsumer<String, byte[]> c = consumer;
            if (c != null) c.wakeup();
        }
        try {
            if (!stopped.await(config.getShutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the consumer did not stop within {} (frontier.shutdown-timeout); its uncommitted records will be "
                        + "delivered again to the partitions' next owners", config.getShutdownTimeout());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    @PreDestroy
    public void close() {
        stop();
    }

    private void run() {
        long backoffMs = 500;
        try {
            while (!stopping) {
                try {
                    session();
                } catch (Throwable t) {   // whatever ended the consumer, a new one takes over: never stop silently
                    if (stopping) break;
                    restarts++;
                    lastFailure = t.toString();
                    state = State.RESTARTING;
                    ready = false;
                    LOG.error("the consumer of {} failed; its partitions went back to the group, a new consumer starts in {} ms",
                            topic, backoffMs, t);
                    if (stopRequested.await(backoffMs, TimeUnit.MILLISECONDS)) break;
                    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
                }
            }
            if (instanceId != null) leaveStaticMembership();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            state = State.STOPPED;
            ready = false;
            assigned = Set.of();
            rebuilding = Set.of();
            lag = Map.of();
            if (partitions != null) partitions.shutdown();
            if (checkpoints != null) {
                checkpointer.sink(null);
                checkpointer.awaitWrites();
                checkpoints.close();
            }
            stopped.countDown();
            LOG.info("stopped consuming {}", topic);
        }
    }

    /** One consumer from subscription to close; returns when stopping, throws when the consumer failed. */
    private void session() {
        KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(consumerProperties(), new StringDeserializer(), new ByteArrayDeserializer());
        GraphEventListener listener = new GraphEventListener(c, processor, publisher, registry, metrics, topic, () -> stopping,
                partitions, config.getMaxBatchAnswerBytes(), config.getRunRecords(), config.getSlowBatchMs(), checkpointer, checkpoints);
        consumer = c;
        this.listener = listener;
        try {
            if (stopping) return;   // stop() came while no consumer existed to wake up
            c.subscribe(List.of(topic), listener);
            long lastSweep = System.currentTimeMillis();
            while (!stopping) {
                listener.retryRebuilds();
                ConsumerRecords<String, byte[]> records = c.poll(listener.unsettled() ? POLL_UNSETTLED : POLL);
                lastPollNanos = System.nanoTime();
                listener.handle(records);
                long now = System.currentTimeMillis();
                if (now - lastSweep >= EXPIRY_SWEEP_MS && !stopping) {
                    listener.expirePending(now);
                    lastSweep = now;
                }
                publishStatus(listener);
                if (now - lagReadMs >= LAG_READ_MS) {
                    lag = lag(c, listener.assigned());
                    lagReadMs = now;
                }
                if (!stopping) state = State.RUNNING;
            }
        } catch (WakeupException e) {
            if (!stopping) throw e;
        } finally {
            consumer = null;
            close(c, listener);
        }
    }

    /** Closing revokes the consumer's partitions (the listener drops their graphs) and, for a dynamic member, leaves the group. */
    private void close(KafkaConsumer<String, byte[]> c, GraphEventListener listener) {
        Set<TopicPartition> held = listener.assigned();
        listener.drain();   // commit what was processed and acknowledged before the partitions go
        try {
            c.close(CLOSE_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.warn("closing the consumer failed: {}", e.toString());
        }
        Set<TopicPartition> left = listener.assigned();
        if (!left.isEmpty()) registry.dropPartitions(left.stream().map(TopicPartition::partition).toList());
        if (!held.isEmpty()) LOG.info("partitions {} revoked: consumer closed", held);
    }

    private void publishStatus(GraphEventListener listener) {
        if (stopping) return;
        assigned = listener.assigned().stream().map(TopicPartition::partition).collect(Collectors.toUnmodifiableSet());
        rebuilding = listener.rebuilding().stream().map(TopicPartition::partition).collect(Collectors.toUnmodifiableSet());
        boolean nowReady = listener.ready();
        if (nowReady && !ready) LOG.info("ready: partitions {} of {} rebuilt", assigned, topic);
        ready = nowReady;
    }

    /** The consumer's lag on each of {@code owned} (from its cached metadata: no request), -1 where not known yet. */
    private static Map<Integer, Long> lag(KafkaConsumer<String, byte[]> c, Set<TopicPartition> owned) {
        Map<Integer, Long> out = new TreeMap<>();
        Set<TopicPartition> assignment = c.assignment();
        for (TopicPartition tp : owned) out.put(tp.partition(), assignment.contains(tp) ? c.currentLag(tp).orElse(-1) : -1L);
        return Collections.unmodifiableMap(out);
    }

    /**
     * A static member does not leave the group when its consumer closes (the group waits the session timeout for it
     * to come back); a worker that stops for good asks the group to remove it, so its partitions move at once.
     */
    private void leaveStaticMembership() {
        Properties p = kafka.admin();
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "4000");
        try (Admin admin = Admin.create(p)) {
            admin.removeMembersFromConsumerGroup(config.getGroupId(), new RemoveMembersFromConsumerGroupOptions(
                    Set.of(new MemberToRemove(instanceId)))).all().get(5, TimeUnit.SECONDS);
            LOG.info("left group '{}' (static member '{}')", config.getGroupId(), instanceId);
        } catch (Exception e) {
            LOG.warn("could not remove static member '{}' from group '{}' ({}); its partitions move after the session timeout",
                    instanceId, config.getGroupId(), e.toString());
        }
    }

    Properties consumerProperties() {
        Properties p = new Properties();
        p.putAll(consumerDefaults);   // not filtered: interceptors and reporters read their own keys
        p.remove(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG);
        p.remove(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.getGroupId());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "frontier-" + (config.getWorkerId() != null ? config.getWorkerId() : hostName()));
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.getMaxPollRecords()));
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, Long.toString(MAX_POLL_INTERVAL_MS));
        p.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "5000");
        // graphs balanced over the group (GraphLoadAssignor); Kafka's while a member lacks it (a rolling upgrade)
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, GraphLoadAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName());
        p.put(GraphLoadAssignor.WEIGHTS_CONFIG, (Supplier<Map<Integer, Integer>>) () -> registry.all().stream()
                .collect(Collectors.groupingBy(GraphEntry::partition, Collectors.summingInt(e -> 1))));
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(config.getSessionTimeout().toMillis()));
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Long.toString(config.getHeartbeatInterval().toMillis()));
        if (instanceId != null) p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        return p;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "worker";
        }
    }
}
