package org.frontiergraph.worker.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.configuration.kafka.annotation.KafkaClient;
import io.micronaut.core.value.PropertyResolver;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.Ids;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.subscription.PushBacklog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes results (keyed by query id), latency and error events and graph status (keyed by graph id) as Avro
 * single-object bytes. Sends are asynchronous; {@link Batch#done()} tells whether the broker has answered all of
 * them and {@link Batch#await()} waits until it has, which the listener checks before committing offsets.
 *
 * <p>Every output is bounded before it is sent: a record larger than the producer's {@code max.request.size} (read
 * from the Kafka settings) is not handed to the producer. Such a record, one that cannot be encoded, and one the
 * cluster refuses for good (not authorized on its topic, invalid: {@link SendFailures#deterministic}) is
 * <em>replaced</em>: a failed QueryResult of the same id and chunk (status RESOURCE_EXHAUSTED or INTERNAL_ERROR) where
 * it was an answer, and an error event (RESOURCE_EXHAUSTED or OUTPUT_REFUSED) naming the input record; a replacement
 * that fails for good is dropped with an ERROR line. Nothing deterministic is retried: the batch completes and its
 * offsets are committed. Only failures that may pass (the broker away, timeouts) fail {@link Batch#await()}.
 *
 * <p>Subscription pushes (results with a push reason) take a lane of their own: encoded and handed to their producer
 * ({@code frontier-pushes}, compressed: docs/operations.md) in order on one thread, off the consumer's; a batch is
 * {@link Batch#done() done} only once its pushes were handed over and acknowledged, so offsets are still committed
 * only after the outputs they caused. The publisher knows which subscriptions have a push not yet acknowledged
 * ({@link #behind}): the subscriptions' flush holds their next UPDATE push back until then, so that under lag the
 * changes of several batches leave as one push.
 */
@Singleton
public class OutputPublisher implements PushBacklog {
    private static final Logger LOG = LoggerFactory.getLogger(OutputPublisher.class);
    /** Kafka's bound on a record batch's framing beside the key and value (61 bytes of batch header, a record's varints). */
    static final int RECORD_OVERHEAD = 128;

    private final Producer<String, byte[]> producer;
    /** The pushes' producer (the same as {@link #producer} in tests), and their lane: one thread, in order. */
    private final Producer<String, byte[]> pushProducer;
    private final ExecutorService pushLane = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "frontier-pushes");
        t.setDaemon(true);
        return t;
    });
    /** Push records handed over and not yet acknowledged (or failed), by subscription id. */
    private final ConcurrentHashMap<String, AtomicInteger> unacknowledged = new ConcurrentHashMap<>();
    private final TopicsConfig topics;
    private final int maxRequestBytes;
    private final MeterRegistry meters;
    /** The write framing ({@code frontier.serialization.write}). */
    private final FrontierSerde serde;

    @Inject
    public OutputPublisher(@KafkaClient(id = "frontier-output", acks = KafkaClient.Acknowledge.ALL) Producer<String, byte[]> producer,
                           @KafkaClient(id = PUSHES, acks = KafkaClient.Acknowledge.ALL) Producer<String, byte[]> pushProducer,
                           TopicsConfig topics, FrontierConfig config, PropertyResolver settings, MeterRegistry meters,
                           FrontierSerde serde) {
        this(producer, pushProducer, topics, maxRequestSize(settings), meters, serde);
        config.setOutputRecordBytes(maxRequestBytes);   // result chunks are sized to fit it
        config.setOutputBufferBytes(producerSetting(settings, "buffer.memory", 32L << 20)   // the memory model sets them aside
                + producerSetting(settings, PUSHES, "buffer.memory", 32L << 20));
    }

    /** With Kafka's default {@code max.request.size} (1 MiB) and metrics kept to itself: for tests and benchmarks. */
    public OutputPublisher(Producer<String, byte[]> producer, TopicsConfig topics) {
        this(producer, topics, 1 << 20, new SimpleMeterRegistry(), FrontierSerde.singleObject());
    }

    public OutputPublisher(Producer<String, byte[]> producer, TopicsConfig topics, int maxRequestBytes, MeterRegistry meters) {
        this(producer, topics, maxRequestBytes, meters, FrontierSerde.singleObject());
    }

    public OutputPublisher(Producer<String, byte[]> producer, TopicsConfig topics, int maxRequestBytes, MeterRegistry meters,
                           FrontierSerde serde) {
        this(producer, producer, topics, maxRequestBytes, meters, serde);
    }

    private OutputPublisher(Producer<String, byte[]> producer, Producer<String, byte[]> pushProducer, TopicsConfig topics,
                            int maxRequestBytes, MeterRegistry meters, FrontierSerde serde) {
        this.serde = serde;
        this.producer = producer;
        this.pushProducer = pushProducer;
        this.topics = topics;
        this.maxRequestBytes = maxRequestBytes;
        this.meters = meters;
    }

    /**
     * The output producer's {@code max.request.size}: {@code kafka.producers.frontier-output.max.request.size}, else
     * {@code kafka.max.request.size}, else Kafka's default (1 MiB).
     */
    static int maxRequestSize(PropertyResolver settings) {
        return (int) producerSetting(settings, "max.request.size", 1 << 20);
    }

    /** A setting of the output producer: {@code kafka.producers.frontier-output.KEY}, else {@code kafka.KEY}, else Kafka's default. */
    static long producerSetting(PropertyResolver settings, String key, long kafkaDefault) {
        return producerSetting(settings, "frontier-output", key, kafkaDefault);
    }

    /** The pushes' producer's client id. */
    static final String PUSHES = "frontier-pushes";

    /** A setting of producer {@code client}: {@code kafka.producers.CLIENT.KEY}, else {@code kafka.KEY}, else Kafka's default. */
    static long producerSetting(PropertyResolver settings, String client, String key, long kafkaDefault) {
        for (String k : List.of("kafka.producers." + client + "." + key, "kafka." + key)) {
            var v = settings.getProperty(k, Long.class);
            if (v.isPresent()) return v.get();
        }
        return kafkaDefault;
    }

    /** Stops the pushes' lane (what it holds was waited for by the batches' {@link Batch#await}). */
    @PreDestroy
    public void close() {
        pushLane.shutdown();
    }

    /** Whether a push of subscription {@code subscriptionId} was handed over and is not acknowledged yet. */
    @Override
    public boolean behind(String subscriptionId) {
        AtomicInteger n = unacknowledged.get(subscriptionId);
        return n != null && n.get() > 0;
    }

    private void released(String subscriptionId) {
        unacknowledged.computeIfPresent(subscriptionId, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /** The largest record this publisher hands to its producer, key and framing included. */
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    public Batch batch() {
        return new Batch();
    }

    private void refusedMetric(String topic, ErrorCode code, boolean dropped) {
        Counter.builder("frontier.outputs.refused").tag("topic", topic).tag("code", code.name()).tag("replaced", Boolean.toString(!dropped))
                .description("Outputs not published: too large for the producer, not encodable, or refused for good by the cluster; "
                        + "replaced by a small failed result and an error event, or dropped when that failed too")
                .register(meters).increment();
    }

    /** Records of one call from which {@link Batch#addAll} encodes them on several cores. */
    static final int SIDE_BY_SIDE_RECORDS = 16;

    /**
     * A record to publish, before encoding; {@code at}: the input record it answers (null for pushes and latency
     * events); {@code replacement}: it replaces a refused output (a refusal of it is not replaced again).
     */
    private record Pending(String topic, String key, SpecificRecord value, Outputs.At at, boolean replacement) {
        Pending(String topic, String key, SpecificRecord value, Outputs.At at) {
            this(topic, key, value, at, false);
        }

        /** What a send in flight keeps of it: an answer's chunk without its arrays (enough to replace it). */
        Pending light() {
            return value instanceof QueryResult r && hasArrays(r)
                    ? new Pending(topic, key, failedChunk(r, null, null), at, replacement) : this;
        }

        /** A subscription's push (a result with a push reason): it takes the pushes' lane, and is counted there. */
        boolean push() {
            return !replacement && value instanceof QueryResult r && r.getReason() != null;
        }
    }

    private static boolean hasArrays(QueryResult r) {
        return r.getVertices() != null || r.getHops() != null || r.getDistances() != null || r.getParents() != null
                || r.getMstEdges() != null || r.getRemovedEdges() != null || CompactArrays.isCompact(r);
    }

    /** A send in flight and what it sends. */
    private record Sent(Pending pending, Future<RecordMetadata> future) {}

    /** A query's result chunks: the first handed to the producer, the last acknowledged ({@link System#nanoTime}; 0: not yet). */
    private static final class SendTimes {
        volatile long handed, acknowledged;
    }

    /** Sends in flight that must all succeed before offsets are committed. */
    public final class Batch {
        /** Guarded by the batch: the consumer's thread and the pushes' lane both add to it. */
        private final List<Sent> sends = new ArrayList<>();
        /** The batch's pushes on the lane: done once each was handed to the producer (or refused). */
        private final List<Future<?>> handed = new ArrayList<>();
        /** Outputs replaced or dropped so far (for tests and the log). */
        private final AtomicInteger refused = new AtomicInteger();
        /** When the broker acknowledged the latest of the sends so far (the producer's callback), epoch ms. */
        private volatile long acknowledgedMs;
        /** Per query id, when its result chunks were handed over and acknowledged (the latency event's last stages). */
        private final Map<String, SendTimes> answerTimes = new ConcurrentHashMap<>();

        /** The results, error events and graph status a record produced. */
        public void add(Outputs out) {
            addAll(List.of(out));
        }

        /**
         * The outputs of several records, sent in their order. The records are Avro-encoded first, on the host's cores
         * side by side when there are several (a FULL answer's chunks are megabytes of packed arrays each, a burst's
         * answers hundreds of records), then handed to the producer one by one in order. Subscription pushes among them
         * go, in their order, to the pushes' lane (after the others are handed over), which encodes and sends them there.
         */
        public void addAll(List<Outputs> outs) {
            List<Pending> pending = new ArrayList<>();
            List<Pending> pushes = new ArrayList<>();
            for (Outputs out : outs) {
                Outputs.At at = out.at();
                out.results().forEach(r -> {
                    Pending p = new Pending(topics.getResults(), r.getQueryId(), r, at);
                    (p.push() ? pushes : pending).add(p);
                });
                out.errors().forEach(e -> pending.add(new Pending(topics.getErrors(),
                        e.getGraphId() != null ? e.getGraphId() : e.getKey(), e, at)));
                out.statuses().forEach(st -> pending.add(new Pending(topics.getStatus(), st.getGraphId(), st, at)));
                out.ended().forEach(sub -> pending.add(new Pending(topics.getGraphs(), sub.getGraphId(), sub, at)));
            }
            publish(pending, sideBySide(outs, pending.size()));
            if (pushes.isEmpty()) return;
            for (Pending p : pushes) unacknowledged.computeIfAbsent(p.key(), k -> new AtomicInteger()).incrementAndGet();
            boolean many = pushes.size() >= SIDE_BY_SIDE_RECORDS;
            Future<?> h = pushLane.submit(() -> {
                try {
                    publish(pushes, many);
                } catch (RuntimeException | Error e) {   // the batch fails (await): none of these is on its way any more
                    for (Pending p : pushes) unacknowledged.remove(p.key());
                    throw e;
                }
            });
            synchronized (this) {
                handed.add(h);
            }
        }

        /** Encodes and sends {@code pending} in order: on several cores ({@code sideBySide}) or here, one by one. */
        private void publish(List<Pending> pending, boolean sideBySide) {
            int n = pending.size();
            if (!sideBySide) {
                for (Pending p : pending) encodeAndSend(p);
                return;
            }
            if (n >= SIDE_BY_SIDE_RECORDS) {   // many small records: encode them all on the cores, then send
                Object[] encoded = new Object[n];
                IntStream.range(0, n).parallel().forEach(i -> encoded[i] = encodeOrFailure(pending.get(i)));
                for (int i = 0; i < n; i++) send(pending.get(i), encoded[i]);
                return;
            }
            new InOrder(pending).run();
        }

        /**
         * Encodes a few large records (a FULL answer's chunks) on the common pool's cores and on this thread, claiming
         * them in order, and hands each to the producer as soon as it and every record before it are encoded: the
         * first chunk is on its way to the broker while the later ones are still being encoded.
         */
        private final class InOrder {
            private final List<Pending> pending;
            private final AtomicReferenceArray<Object> encoded;
            private final AtomicInteger next = new AtomicInteger();
            private volatile Throwable failed;

            InOrder(List<Pending> pending) {
                this.pending = pending;
                this.encoded = new AtomicReferenceArray<>(pending.size());
            }

            /** Encodes the next unclaimed record; false when none is left. */
            private boolean encodeNext() {
                int i = next.getAndIncrement();
                if (i >= pending.size()) return false;
                try {
                    encoded.set(i, encodeOrFailure(pending.get(i)));
                } catch (Throwable e) {   // out of memory: the worker's own fault, as before
                    failed = e;
                }
                synchronized (this) {
                    notifyAll();
                }
                return true;
            }

            void run() {
                int n = pending.size();
                int helpers = Math.min(n - 1, ForkJoinPool.getCommonPoolParallelism());
                for (int h = 0; h < helpers; h++) ForkJoinPool.commonPool().execute(() -> {
                    while (encodeNext()) { /* claims the next */ }
                });
                for (int sent = 0; sent < n; ) {
                    Object b = encoded.getAndSet(sent, null);
                    if (b != null) {
                        send(pending.get(sent), b);
                        sent++;
                    } else if (failed != null) {
                        throw new IllegalStateException("cannot encode an output record", failed);
                    } else if (!encodeNext()) {
                        awaitEncoded(sent);
                    }
                }
            }

            /** Waits for a helper to encode record {@code i} (or to fail). */
            private synchronized void awaitEncoded(int i) {
                while (encoded.get(i) == null && failed == null) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while encoding output records", e);
                    }
                }
            }
        }

        /**
         * Whether encoding {@code records} on several cores pays: many records, or an answer in several chunks
         * (megabytes); not for the record or two of an update or a SUMMARY answer, where handing the work to the
         * pool would cost more than it saves on the latency path.
         */
        private static boolean sideBySide(List<Outputs> outs, int records) {
            if (records >= SIDE_BY_SIDE_RECORDS) return true;
            for (Outputs out : outs) {
                for (var r : out.results()) if (r.getChunkCount() > 1) return true;
            }
            return false;
        }

        public void latency(LatencyEvent e) { encodeAndSend(new Pending(topics.getLatency(), e.getGraphId(), e, null)); }

        private void encodeAndSend(Pending p) {
            send(p, encodeOrFailure(p));
        }

        /** {@code encoded}: the record's bytes, or the RuntimeException that encoding it threw. */
        private void send(Pending p, Object encoded) {
            boolean push = p.push(), handedOver = false;
            try {
                handedOver = trySend(p, encoded);
            } finally {
                if (push && !handedOver) released(p.key());
            }
        }

        /** Whether {@code p} went to its producer (then its callback releases a push), else it was refused. */
        private boolean trySend(Pending p, Object encoded) {
            if (encoded instanceof RuntimeException e) {
                refuse(p, ErrorCode.INTERNAL_ERROR, "it cannot be encoded (" + e + ")");
                return false;
            }
            byte[] value = (byte[]) encoded;
            long size = (long) value.length + Ids.bytes(p.key()) + RECORD_OVERHEAD;
            if (size > maxRequestBytes) {
                refuse(p, ErrorCode.RESOURCE_EXHAUSTED, "the record would be " + size + " bytes, more than the producer's max.request.size of "
                        + maxRequestBytes + " bytes");
                return false;
            }
            boolean push = p.push();
            SendTimes times = !push && p.value() instanceof QueryResult ? answerTimes.computeIfAbsent(p.key(), k -> new SendTimes()) : null;
            Future<RecordMetadata> f = (push ? pushProducer : producer).send(new ProducerRecord<>(p.topic(), p.key(), value), (metadata, e) -> {
                if (e == null) {
                    acknowledgedMs = Math.max(acknowledgedMs, System.currentTimeMillis());
                    if (times != null) times.acknowledged = System.nanoTime();   // callbacks run on the producer's one thread, in order
                }
                if (push) released(p.key());
            });
            if (times != null && times.handed == 0) times.handed = System.nanoTime();
            synchronized (this) {
                sends.add(new Sent(p.light(), f));
            }
            return true;
        }

        /**
         * An output that cannot be published, for good: logged, counted, and replaced by a failed QueryResult (for an
         * answer's chunk) and an error event, sent in its place; a replacement is not replaced again, only dropped.
         */
        private void refuse(Pending p, ErrorCode code, String why) {
            refused.incrementAndGet();
            String what = p.value().getSchema().getName() + " for " + p.topic() + " (key " + Ids.echo(p.key()) + ")";
            if (p.replacement()) {
                refusedMetric(p.topic(), code, true);
                LOG.error("dropped a {}: {}; it replaced an output refused before, so nothing replaces it", what, why);
                return;
            }
            boolean toErrors = p.topic().equals(topics.getErrors());
            LOG.error("cannot publish a {}: {}; {}", what, why, toErrors ? "dropped (the errors topic itself refused it)"
                    : "replaced by " + (p.value() instanceof QueryResult ? "a failed result and " : "") + "an error event");
            refusedMetric(p.topic(), code, toErrors);
            if (p.value() instanceof QueryResult r && p.topic().equals(topics.getResults())) {
                encodeAndSend(new Pending(p.topic(), p.key(), failedChunk(r, code, why), p.at(), true));
            }
            if (!toErrors) {
                ErrorEvent e = replacementEvent(p, code, "the worker could not publish its " + p.value().getSchema().getName() + " to "
                        + p.topic() + ": " + why);
                encodeAndSend(new Pending(topics.getErrors(), e.getGraphId() != null ? e.getGraphId() : e.getKey(), e, p.at(), true));
            }
        }

        /** Whether every send so far has completed (acknowledged or failed): {@link #await()} would not block. */
        public synchronized boolean done() {
            for (Future<?> h : handed) if (!h.isDone()) return false;
            for (Sent s : sends) if (!s.future().isDone()) return false;
            return true;
        }

        /** Outputs this batch replaced or dropped because they could not be published. */
        public int refused() {
            return refused.get();
        }

        /**
         * When a query's first result chunk was handed to the producer and the broker acknowledged its last
         * ({@link System#nanoTime}; 0: not yet), by query id; {0, 0} for a query with no result in this batch.
         */
        public long[] answerTimes(String queryId) {
            SendTimes t = answerTimes.get(queryId);
            return t == null ? new long[2] : new long[] {t.handed, t.acknowledged};
        }

        /** When the last acknowledgement so far arrived (epoch ms; 0 before any). */
        public long acknowledgedMs() {
            return acknowledgedMs;
        }

        /**
         * Waits for every send. A send refused for good ({@link SendFailures#deterministic}) is replaced (see
         * {@link #refuse}) and the replacements waited for too; any other failure is thrown (the caller must then
         * not commit, and publish again).
         */
        public void await() throws ExecutionException, InterruptedException, TimeoutException {
            List<Future<?>> lane;
            synchronized (this) {
                lane = List.copyOf(handed);
            }
            for (Future<?> h : lane) h.get(60, TimeUnit.SECONDS);   // its pushes handed over; a failure there is the batch's
            while (true) {
                List<Sent> now;
                synchronized (this) {
                    if (sends.isEmpty()) return;
                    now = List.copyOf(sends);
                    sends.clear();
                }
                if (!now.stream().allMatch(s -> s.future().isDone())) {
                    producer.flush();
                    if (pushProducer != producer) pushProducer.flush();
                }
                for (int i = 0; i < now.size(); i++) {
                    Sent s = now.get(i);
                    try {
                        s.future().get(60, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        if (!SendFailures.deterministic(e.getCause())) {
                            synchronized (this) {
                                sends.addAll(now.subList(i + 1, now.size()));
                            }
                            throw e;
                        }
                        refuse(s.pending(), e.getCause() instanceof org.apache.kafka.common.errors.RecordTooLargeException
                                ? ErrorCode.RESOURCE_EXHAUSTED : ErrorCode.OUTPUT_REFUSED, "the cluster refused it: " + e.getCause());
                    }
                }
            }
        }
    }

    /**
     * The record's bytes in the write framing, or the RuntimeException that encoding it threw. With registry framing
     * the output schemas were registered when the worker started ({@code SerializationFactory}): no call here.
     */
    private Object encodeOrFailure(Pending p) {
        try {
            return serde.encode(p.topic(), p.value());
        } catch (RuntimeException e) {
            return e;
        }
    }

    /**
     * A failed chunk in place of {@code r}: the same id, version, chunk and push header, no arrays ({@code code} null:
     * the header alone, status as {@code r}'s).
     */
    private static QueryResult failedChunk(QueryResult r, ErrorCode code, String why) {
        if (code == null) {
            return QueryResult.newBuilder()
                    .setQueryId(r.getQueryId()).setGraphId(r.getGraphId()).setGraphVersion(r.getGraphVersion())
                    .setAlgorithm(r.getAlgorithm()).setVariant(r.getVariant()).setBackend(r.getBackend()).setStatus(r.getStatus())
                    .setChunkIndex(r.getChunkIndex()).setChunkCount(r.getChunkCount()).setVertexCount(r.getVertexCount())
                    .setSource(r.getSource()).setReason(r.getReason()).setSequence(r.getSequence()).build();
        }
        return QueryResult.newBuilder()
                .setQueryId(Ids.echo(r.getQueryId())).setGraphId(Ids.echo(r.getGraphId())).setGraphVersion(r.getGraphVersion())
                .setAlgorithm(r.getAlgorithm()).setVariant(r.getVariant()).setBackend(r.getBackend())
                .setStatus(code.resultStatus().orElse(ResultStatus.INTERNAL_ERROR))
                .setError(Ids.reason("this answer could not be published: " + why))
                .setChunkIndex(r.getChunkIndex()).setChunkCount(r.getChunkCount()).setVertexCount(r.getVertexCount())
                .setSource(r.getSource()).setReason(r.getReason()).setSequence(r.getSequence())
                .build();
    }

    /** The error event that tells of an output refused: located at the input record it answered, where known. */
    private ErrorEvent replacementEvent(Pending p, ErrorCode code, String reason) {
        String graphId = null, queryId = null;
        if (p.value() instanceof QueryResult r) {
            graphId = r.getGraphId();
            queryId = r.getQueryId();
        } else if (p.value() instanceof GraphStatus st) {
            graphId = st.getGraphId();
        } else if (p.value() instanceof Subscription sub) {
            graphId = sub.getGraphId();
            queryId = sub.getSubscriptionId();
        } else if (p.value() instanceof LatencyEvent l) {
            graphId = l.getGraphId();
            queryId = l.getQueryId();
        }
        Outputs.At at = p.at();
        return ErrorEvent.newBuilder()
                .setSourceTopic(at != null ? at.topic() : topics.getGraphs()).setPartition(at != null ? at.partition() : -1)
                .setOffset(at != null ? at.offset() : -1)
                .setKey(Ids.echo(p.key())).setGraphId(Ids.echo(graphId)).setQueryId(Ids.echo(queryId))
                .setCode(code.name()).setReason(Ids.reason(reason)).setTimestampMs(System.currentTimeMillis()).build();
    }
}
