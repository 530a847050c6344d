package org.frontiergraph.worker.metrics;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The end-to-end latencies of the last {@link #capacity()} answered queries of each kind (algorithm and backend),
 * for the live page. Its percentiles are <em>exact</em> over that window (nearest rank: the smallest sample with at
 * least q of the window at or below it), and min and max are of the same window, so every percentile is a sample the
 * window holds: min &lt;= p50 &lt;= p99 &lt;= max always. (The Prometheus histogram gives only bucket bounds, which can
 * exceed the largest sample, and its max decays over two minutes while its buckets count since the start.)
 * Recording is a store into a ring under the kind's lock; a summary sorts a copy of at most the window.
 */
public final class RecentLatencies {
    /** The window per kind: enough for a stable p99 (the 11th largest of 1,024), small enough to sort every second. */
    public static final int DEFAULT_CAPACITY = 1_024;

    /**
     * A kind's window: {@code count} queries recorded in all, {@code window} of them held, and their exact statistics
     * in milliseconds.
     */
    public record Summary(long count, int window, double min, double p50, double p99, double max) {}

    private final int capacity;
    private final Map<String, Ring> rings = new ConcurrentHashMap<>();

    public RecentLatencies() {
        this(DEFAULT_CAPACITY);
    }

    public RecentLatencies(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("a window holds at least one sample: " + capacity);
        this.capacity = capacity;
    }

    public int capacity() {
        return capacity;
    }

    /** One answered query of {@code kind} that took {@code micros} microseconds end to end. */
    public void record(String kind, long micros) {
        Ring r = rings.computeIfAbsent(kind, k -> new Ring(capacity));
        synchronized (r) {
            r.samples[(int) (r.count % capacity)] = micros;
            r.count++;
        }
    }

    /** Every kind recorded, by name, with its window's statistics. */
    public Map<String, Summary> summaries() {
        Map<String, Summary> out = new TreeMap<>();
        rings.forEach((kind, r) -> {
            long[] window;
            long count;
            synchronized (r) {
                count = r.count;
                window = Arrays.copyOf(r.samples, (int) Math.min(count, capacity));
            }
            if (window.length > 0) out.put(kind, summary(window, count));
        });
        return out;
    }

    /** The statistics of {@code samples} (microseconds, any order; sorted in place), in milliseconds. */
    static Summary summary(long[] samples, long count) {
        Arrays.sort(samples);
        return new Summary(count, samples.length, ms(samples[0]), ms(nearestRank(samples, 0.50)),
                ms(nearestRank(samples, 0.99)), ms(samples[samples.length - 1]));
    }

    /** The q-th quantile of sorted samples by nearest rank: the sample at 1-based rank ceil(q * n); one of the samples. */
    static long nearestRank(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    private static final class Ring {
        final long[] samples;
        long count;

        Ring(int capacity) {
            this.samples = new long[capacity];
        }
    }
}
