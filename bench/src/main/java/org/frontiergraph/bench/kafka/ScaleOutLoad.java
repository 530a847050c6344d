package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * ScaleOutBench's load generator: a closed loop of SUMMARY queries over many graphs, {@code window} in flight at all
 * times, from several producer threads (each its own Kafka producer and share of the window) whose answers are read
 * by several consumers (each a share of the output topic's partitions, no group). Query {@code i} asks graph {@code i
 * mod K}, the algorithms in turn, the seeded sources in turn. Every answer is checked (status OK, the version loaded,
 * the backend asked, reached count and max hops or max distance against {@link ScaleOutReference}); those completed
 * inside the measured window count. With {@code echo}, the queries go to a topic of their own and a query read back
 * counts as answered: the generator and the broker alone.
 */
final class ScaleOutLoad {
    /** A phase's outcome: answers in the measured window, their rate and latency, per graph; every failure. */
    record Outcome(String label, long answered, double seconds, double perSecond, double p50Ms, double p99Ms, long[] perGraph,
                   long checked, long failed, List<String> firstFailures, double generatorCpuS) {}

    private record Pending(int graph, Algorithm algorithm, int source, long sentNanos, Semaphore window) {}

    private final Properties kafka;
    private final String graphsTopic;
    private final String outputTopic;
    private final boolean echo;
    private final List<String> graphIds;
    private final long version;
    private final ScaleOutReference reference;
    private final String backend;
    private final ScaleOutOptions o;

    /**
     * {@code graphsTopic}: where the queries go; {@code outputTopic}: where their answers (with {@code echo}, the
     * queries themselves) are read.
     */
    ScaleOutLoad(Properties kafka, String graphsTopic, String outputTopic, boolean echo, List<String> graphIds, long version,
                 ScaleOutReference reference, ScaleOutOptions o) {
        this.kafka = kafka;
        this.graphsTopic = graphsTopic;
        this.outputTopic = outputTopic;
        this.echo = echo;
        this.graphIds = graphIds;
        this.version = version;
        this.reference = reference;
        this.backend = o.backend().equals("auto") ? null : o.backend();
        this.o = o;
    }

    /** Runs {@code warmupS} untimed then {@code measureS} timed, then waits for (and checks) every answer still due. */
    Outcome run(String label, String runId, double warmupS, double measureS) {
        Map<String, Pending> pending = new ConcurrentHashMap<>();
        AtomicLongArray perGraph = new AtomicLongArray(graphIds.size());
        AtomicLong checked = new AtomicLong(), failed = new AtomicLong();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        long from = start + (long) (warmupS * 1e9), to = from + (long) (measureS * 1e9);
        double cpu0 = ScaleOutBench.ownCpuSeconds();
        List<Reader> readers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            for (int r = 0; r < o.readers(); r++) readers.add(new Reader(r, pending, perGraph, checked, failed, failures, from, to));
            for (Reader r : readers) threads.add(thread("scale-out-reader-" + r.index, r::run));
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < o.producers(); p++) {
                int k = p;
                int share = o.window() / o.producers() + (k < o.window() % o.producers() ? 1 : 0);
                producers.add(thread("scale-out-producer-" + k, () -> produce(k, share, runId, pending, to, failed, failures)));
            }
            for (Thread t : producers) join(t, Duration.ofSeconds((long) (warmupS + measureS) + 120));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!pending.isEmpty() && System.nanoTime() < deadline && readers.stream().allMatch(r -> r.failure == null)) {
                ScaleOutCluster.pause(20);
            }
            if (!pending.isEmpty()) {
                failed.addAndGet(pending.size());
                failures.add(pending.size() + " queries unanswered 120 s after the load stopped");
            }
        } finally {
            for (Reader r : readers) r.stop();
            for (Thread t : threads) join(t, Duration.ofSeconds(10));
            for (Reader r : readers) r.close();
        }
        for (Reader r : readers) {
            if (r.failure != null) {
                failed.incrementAndGet();
                failures.add("a reader failed: " + r.failure);
            }
        }
        long[] latencies = readers.stream().flatMapToLong(r -> Arrays.stream(r.latencies, 0, r.count)).sorted().toArray();
        long[] graphs = new long[graphIds.size()];
        for (int g = 0; g < graphs.length; g++) graphs[g] = perGraph.get(g);
        return new Outcome(label, latencies.length, measureS, latencies.length / measureS, percentile(latencies, 50),
                percentile(latencies, 99), graphs, checked.get(), failed.get(), failures.stream().limit(10).toList(),
                ScaleOutBench.ownCpuSeconds() - cpu0);
    }

    /** Producer {@code k}: keeps {@code share} queries in flight until {@code to}. */
    private void produce(int k, int share, String runId, Map<String, Pending> pending, long to, AtomicLong failed,
                         Queue<String> failures) {
        Semaphore window = new Semaphore(share);
        int copies = graphIds.size(), algorithms = o.algorithms().size();
        try (KafkaProducer<String, byte[]> producer = producer(k)) {
            for (long i = 0; System.nanoTime() < to; i++) {
                if (!window.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    i--;
                    continue;
                }
                long q = i * o.producers() + k;
                int graph = (int) (q % copies);
                Algorithm a = o.algorithms().get((int) (q / copies % algorithms));
                int source = reference.source((int) (q / ((long) copies * algorithms) % reference.sources()));
                String id = runId + "-" + k + "-" + i;
                GraphQuery query = GraphQuery.newBuilder().setQueryId(id).setGraphId(graphIds.get(graph)).setAlgorithm(a)
                        .setResultMode(ResultMode.SUMMARY).setSource(source).setBackend(backend).build();
                pending.put(id, new Pending(graph, a, source, System.nanoTime(), window));
                producer.send(new ProducerRecord<>(graphsTopic, query.getGraphId(), FrontierCodec.encode(query)), (m, e) -> {
                    if (e != null && pending.remove(id) != null) {
                        failed.incrementAndGet();
                        failures.add("publishing query " + id + " failed: " + e);
                        window.release();
                    }
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** FrontierClient's producer settings (acks=all, idempotent, lz4), no linger: a query leaves at once. */
    private KafkaProducer<String, byte[]> producer(int k) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "scale-out-producer-" + k);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    /** One consumer of its share of the output topic's partitions, positioned at their ends before any query leaves. */
    private final class Reader {
        final int index;
        final KafkaConsumer<String, byte[]> consumer;
        final Map<String, Pending> pending;
        final AtomicLongArray perGraph;
        final AtomicLong checked, failed;
        final Queue<String> failures;
        final long from, to;
        long[] latencies = new long[1 << 16];
        int count;
        volatile boolean running = true;
        volatile Throwable failure;

        Reader(int index, Map<String, Pending> pending, AtomicLongArray perGraph, AtomicLong checked, AtomicLong failed,
               Queue<String> failures, long from, long to) {
            this.index = index;
            this.pending = pending;
            this.perGraph = perGraph;
            this.checked = checked;
            this.failed = failed;
            this.failures = failures;
            this.from = from;
            this.to = to;
            this.consumer = OutputTracker.consumer(kafka, "scale-out-reader-" + index);
            List<TopicPartition> all = OutputTracker.partitions(consumer, outputTopic, Duration.ofSeconds(60));
            List<TopicPartition> mine = new ArrayList<>();
            for (TopicPartition tp : all) if (tp.partition() % o.readers() == index) mine.add(tp);
            OutputTracker.atEnd(consumer, mine);
            running = !mine.isEmpty();   // more readers than partitions: this one has nothing to read
        }

        void run() {
            try {
                while (running) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) read(r.value(), System.nanoTime());
                }
            } catch (WakeupException e) {
                if (running) failure = e;
            } catch (Throwable t) {
                failure = t;
            }
        }

        private void read(byte[] value, long now) {
            Object m;
            try {
                m = FrontierCodec.decode(value);
            } catch (FrontierCodec.MalformedMessageException e) {
                return;   // not a Frontier message: not ours
            }
            Pending p;
            QueryResult result = null;
            if (echo) {
                if (!(m instanceof GraphQuery q) || (p = pending.remove(q.getQueryId())) == null) return;
            } else {
                if (!(m instanceof QueryResult r) || (p = pending.remove(r.getQueryId())) == null) return;
                result = r;
            }
            if (result != null) verify(p, result);
            if (now >= from && now < to) {
                perGraph.incrementAndGet(p.graph());
                if (count == latencies.length) latencies = Arrays.copyOf(latencies, count * 2);
                latencies[count++] = now - p.sentNanos();
            }
            p.window().release();
        }

        private void verify(Pending p, QueryResult r) {
            checked.incrementAndGet();
            String problem = r.getStatus() != ResultStatus.OK ? r.getStatus() + ": " + r.getError()
                    : r.getChunkCount() != 1 ? r.getChunkCount() + " chunks for a SUMMARY"
                    : r.getGraphVersion() != version ? "version " + r.getGraphVersion() + ", expected " + version
                    : backend != null && !backend.equalsIgnoreCase(String.valueOf(r.getBackend())) ? "answered by " + r.getBackend()
                    : reference.mismatch(p.algorithm(), p.source(), r);
            if (problem != null) {
                failed.incrementAndGet();
                if (failures.size() < 100) {
                    failures.add(graphIds.get(p.graph()) + " " + p.algorithm() + " from " + p.source() + ": " + problem);
                }
            }
        }

        void stop() {
            running = false;
            consumer.wakeup();
        }

        void close() {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void join(Thread t, Duration timeout) {
        try {
            t.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The {@code p}-th percentile of sorted nanoseconds, in milliseconds (NaN when empty). */
    static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) return Double.NaN;
        int i = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100 * sorted.length) - 1));
        return sorted[i] / 1e6;
    }
}
