package org.frontiergraph.bench.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.schema.codec.SubscriptionView;

/**
 * The subscribers' side of the results topic for SubscriptionBench: consumers (no group) on every partition, from the
 * end at start-up, each with its own thread and its own share of the partitions (at most {@code readers}; a
 * subscription's pushes are keyed by its id, so all of them reach one thread, in order), that apply each push of a
 * registered subscription to its {@link SubscriptionView} as it is read (one reader decoding every push fell behind
 * the worker at 100 subscriptions on the GPU: docs/benchmarks.md, "Standing queries"), recording for each whole push when its last chunk was read, its graph
 * version, its encoded size and which vertices it changed in the view (the listed vertices whose distance or parent
 * differs after applying it; every vertex for a complete push after the first); a push in compact arrays is expanded
 * first, its size the compact record's. Pushes of other keys are passed over undecoded.
 */
final class PushTracker implements AutoCloseable {
    /**
     * A whole push as the subscriber saw it. {@code changed}: dense vertex ids, ascending (empty for INITIAL);
     * {@code readLagMs}: from the record's timestamp (the worker's producer stamps it when it sends) to reading its last
     * chunk, by the wall clock (whole milliseconds).
     */
    record Push(long sequence, long version, PushReason reason, boolean delta, long nanos, long bytes, int chunks,
                int listed, int[] changed, long readLagMs) {}

    /** One subscription: its view and the pushes applied to it, guarded by the object's lock. */
    static final class Sub {
        final String id;
        final int source;
        final SubscriptionView view = new SubscriptionView();
        final List<Push> pushes = new ArrayList<>();
        final CompletableFuture<Push> initial = new CompletableFuture<>();
        final CompletableFuture<QueryResult> end = new CompletableFuture<>();
        // the push being assembled
        private long sequence = -1;
        private int chunks;
        private long bytes;
        private int listed;
        private QueryResult head;
        private BitSet changed;
        private double[] beforeDistances;
        private int[] beforeParents;

        Sub(String id, int source) {
            this.id = id;
            this.source = source;
        }

        /** The pushes so far (a copy). */
        synchronized List<Push> pushes() { return new ArrayList<>(pushes); }
    }

    private final List<KafkaConsumer<String, byte[]>> consumers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Map<String, Sub> subs = new ConcurrentHashMap<>();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile long lastPushNanos = System.nanoTime();

    /** @param readers at most this many consumers and threads, one per share of the topic's partitions */
    PushTracker(Properties kafka, String resultsTopic, Duration timeout, int readers) {
        List<TopicPartition> all;
        try (KafkaConsumer<String, byte[]> probe = OutputTracker.consumer(kafka, "subscription-bench-probe")) {
            all = OutputTracker.partitions(probe, resultsTopic, timeout);
        }
        int k = Math.max(1, Math.min(readers, all.size()));
        try {
            for (int r = 0; r < k; r++) {
                List<TopicPartition> share = new ArrayList<>();
                for (int i = r; i < all.size(); i += k) share.add(all.get(i));
                KafkaConsumer<String, byte[]> c = OutputTracker.consumer(kafka, "subscription-bench-pushes-" + r);
                OutputTracker.atEnd(c, share);   // closes c when it fails
                consumers.add(c);
            }
        } catch (RuntimeException e) {
            consumers.forEach(KafkaConsumer::close);
            throw e;
        }
        for (int r = 0; r < k; r++) {
            KafkaConsumer<String, byte[]> c = consumers.get(r);
            Thread t = new Thread(() -> run(c), "subscription-bench-pushes-" + r);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    /** How many consumers (and threads) read the pushes. */
    int readers() { return consumers.size(); }

    /** Registers a subscription before it is published. */
    Sub register(String subscriptionId, int source) {
        Sub s = new Sub(subscriptionId, source);
        if (subs.putIfAbsent(subscriptionId, s) != null) throw new IllegalStateException("subscription id " + subscriptionId + " used twice");
        return s;
    }

    /** What went wrong with pushes (a gap, a failed status, a refused chunk), in the order seen. */
    List<String> failures() {
        synchronized (failures) {
            return new ArrayList<>(failures);
        }
    }

    /** Why the reading thread stopped, if it did. */
    Throwable failure() { return failure; }

    /** When the last push of a registered subscription was read (System.nanoTime). */
    long lastPushNanos() { return lastPushNanos; }

    private void run(KafkaConsumer<String, byte[]> consumer) {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    Sub s = r.key() == null ? null : subs.get(r.key());
                    if (s == null) continue;
                    long now = System.nanoTime();
                    long lagMs = System.currentTimeMillis() - r.timestamp();
                    QueryResult q;
                    try {
                        q = CompactArrays.expand(FrontierCodec.decode(r.value(), QueryResult.class));
                    } catch (FrontierCodec.MalformedMessageException | PackedArrays.MalformedArrayException e) {
                        failures.add(s.id + ": an undecodable record on the results topic: " + e.getMessage());
                        continue;
                    }
                    synchronized (s) {
                        apply(s, q, r.value().length, now, lagMs);
                    }
                    lastPushNanos = now;
                }
            }
        } catch (WakeupException e) {
            if (running) failure = e;
        } catch (Throwable t) {
            failure = t;
            for (Sub s : subs.values()) {
                s.initial.completeExceptionally(t);
                s.end.completeExceptionally(t);
            }
        }
    }

    private void apply(Sub s, QueryResult q, int bytes, long now, long lagMs) {
        SubscriptionView v = s.view;
        if (q.getReason() == PushReason.END) {
            v.apply(q);
            if (q.getStatus() != ResultStatus.OK) failures.add(s.id + " ended: " + q.getStatus() + " - " + q.getError());
            s.end.complete(q);
            return;
        }
        if (q.getStatus() != ResultStatus.OK) failures.add(s.id + " push #" + q.getSequence() + ": " + q.getStatus() + " - " + q.getError());
        long seq = q.getSequence() == null ? 0 : q.getSequence();
        boolean complete = !q.getDelta();
        if (q.getChunkIndex() == 0) {
            if (s.head != null) failures.add(s.id + ": push #" + s.sequence + " was left incomplete (" + s.chunks + " chunks) by push #" + seq);
            s.sequence = seq;
            s.chunks = 0;
            s.bytes = 0;
            s.listed = 0;
            s.head = q;
            if (s.changed == null) s.changed = new BitSet();   // kept: a new one grew to the largest id every push
            else s.changed.clear();
            boolean first = q.getReason() == PushReason.INITIAL;
            s.beforeDistances = complete && !first ? v.distances().clone() : null;
            s.beforeParents = complete && !first ? v.parents().clone() : null;
        } else if (s.head == null || seq != s.sequence || q.getChunkIndex() != s.chunks) {
            return;   // a redelivered chunk of a push already whole
        }
        int[] at = null;
        double[] d0 = null;
        int[] p0 = null;
        if (q.getDelta() && q.getVertices() != null) {
            at = PackedArrays.toIntArray(q.getVertices());
            d0 = new double[at.length];
            p0 = new int[at.length];
            int first = q.getFirstVertexId();
            for (int i = 0; i < at.length; i++) {
                at[i] -= first;
                boolean held = at[i] < v.vertexCount();
                d0[i] = held ? v.distances()[at[i]] : Double.POSITIVE_INFINITY;
                p0[i] = held ? v.parents()[at[i]] : -1;
            }
        }
        if (!v.apply(q)) {
            if (q.getChunkIndex() == 0) s.head = null;
            if (v.stale()) failures.add(s.id + ": push #" + seq + " follows #" + v.sequence() + ": a gap; the view is stale");
            return;   // else a redelivery (at-least-once), skipped as the contract says
        }
        s.chunks++;
        s.bytes += bytes;
        if (at != null) {
            s.listed += at.length;
            for (int i = 0; i < at.length; i++) {
                if (Double.compare(v.distances()[at[i]], d0[i]) != 0 || v.parents()[at[i]] != p0[i]) s.changed.set(at[i]);
            }
        }
        if (s.chunks < q.getChunkCount()) return;
        QueryResult head = s.head;
        if (s.beforeDistances != null) {   // a complete push after the first: what differs from what was held
            double[] d = v.distances();
            int[] p = v.parents();
            for (int i = 0; i < d.length; i++) {
                boolean held = i < s.beforeDistances.length;
                double bd = held ? s.beforeDistances[i] : Double.POSITIVE_INFINITY;
                int bp = held ? s.beforeParents[i] : -1;
                if (Double.compare(d[i], bd) != 0 || p[i] != bp) s.changed.set(i);
            }
        }
        Push push = new Push(s.sequence, head.getGraphVersion(), head.getReason(), head.getDelta(), now, s.bytes, s.chunks,
                s.listed, s.changed.stream().toArray(), lagMs);
        s.pushes.add(push);
        s.head = null;
        s.beforeDistances = null;
        s.beforeParents = null;
        if (push.reason() == PushReason.INITIAL) s.initial.complete(push);
    }

    @Override
    public void close() {
        running = false;
        consumers.forEach(KafkaConsumer::wakeup);
        try {
            for (Thread t : threads) t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumers.forEach(c -> c.close(Duration.ofSeconds(5)));
    }
}
