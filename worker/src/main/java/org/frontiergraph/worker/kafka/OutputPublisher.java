package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.annotation.KafkaClient;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
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
import org.frontiergraph.schema.LatencyEvent;
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

    /** Records of one call from which {@link Batch#addAll} encodes them on several cores. */
    static final int SIDE_BY_SIDE_RECORDS = 16;

    /** A record to publish, before encoding. */
    private record Pending(String topic, String key, SpecificRecord value) {}

    /** Sends in flight that must all succeed before offsets are committed. */
    public final class Batch {
        private final List<Future<RecordMetadata>> sends = new ArrayList<>();
        /** When the broker acknowledged the latest of the sends so far (the producer's callback), epoch ms. */
        private volatile long acknowledgedMs;

        /** The results, error events and graph status a record produced. */
        public void add(Outputs out) {
            addAll(List.of(out));
        }

        /**
         * The outputs of several records, sent in their order. The records are Avro-encoded first, on the host's cores
         * side by side when there are several (a FULL answer's chunks are megabytes of packed arrays each, a burst's
         * answers hundreds of records), then handed to the producer one by one in order.
         */
        public void addAll(List<Outputs> outs) {
            List<Pending> pending = new ArrayList<>();
            for (Outputs out : outs) {
                out.results().forEach(r -> pending.add(new Pending(topics.getResults(), r.getQueryId(), r)));
                out.errors().forEach(e -> pending.add(new Pending(topics.getErrors(),
                        e.getGraphId() != null ? e.getGraphId() : e.getKey(), e)));
                out.statuses().forEach(st -> pending.add(new Pending(topics.getStatus(), st.getGraphId(), st)));
                out.ended().forEach(sub -> pending.add(new Pending(topics.getGraphs(), sub.getGraphId(), sub)));
            }
            int n = pending.size();
            if (!sideBySide(outs, n)) {
                for (Pending p : pending) send(p.topic(), p.key(), FrontierCodec.encode(p.value()));
                return;
            }
            if (n >= SIDE_BY_SIDE_RECORDS) {   // many small records: encode them all on the cores, then send
                byte[][] encoded = new byte[n][];
                IntStream.range(0, n).parallel().forEach(i -> encoded[i] = FrontierCodec.encode(pending.get(i).value()));
                for (int i = 0; i < n; i++) send(pending.get(i).topic(), pending.get(i).key(), encoded[i]);
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
            private final AtomicReferenceArray<byte[]> encoded;
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
                    encoded.set(i, FrontierCodec.encode(pending.get(i).value()));
                } catch (Throwable e) {
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
                    byte[] b = encoded.getAndSet(sent, null);
                    if (b != null) {
                        send(pending.get(sent).topic(), pending.get(sent).key(), b);
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

        public void latency(LatencyEvent e) { send(topics.getLatency(), e.getGraphId(), FrontierCodec.encode(e)); }

        private void send(String topic, String key, byte[] value) {
            sends.add(producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> {
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
