package org.frontiergraph.worker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The live page's latency percentiles are exact over the window and consistent: min <= p50 <= p99 <= max on samples
 * chosen to break bucket-based estimates (just above a bucket bound, one outlier, all equal, one or two samples, a heavy
 * tail), each percentile equal to the nearest-rank sample of a plain sort of the same window.
 */
class RecentLatenciesTest {
    static final long SEED = 20261128L;

    static void assertConsistent(long[] micros, RecentLatencies.Summary s, String what) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        assertEquals(n, s.window(), what);
        assertEquals(sorted[0] / 1000.0, s.min(), what + ": min");
        assertEquals(sorted[n - 1] / 1000.0, s.max(), what + ": max");
        assertEquals(sorted[(int) Math.ceil(0.50 * n) - 1] / 1000.0, s.p50(), what + ": p50 is the nearest-rank sample");
        assertEquals(sorted[(int) Math.ceil(0.99 * n) - 1] / 1000.0, s.p99(), what + ": p99 is the nearest-rank sample");
        assertTrue(s.min() <= s.p50() && s.p50() <= s.p99() && s.p99() <= s.max(),
                what + ": min <= p50 <= p99 <= max, got " + s);
    }

    static RecentLatencies.Summary recordAll(RecentLatencies r, String kind, long[] micros) {
        for (long m : micros) r.record(kind, m);
        return r.summaries().get(kind);
    }

    @Test
    void percentilesNeverExceedTheMaxOnAdversarialSamples() {
        Random random = new Random(SEED);
        Map<String, long[]> cases = new java.util.LinkedHashMap<>();
        // Prometheus' default buckets are ~1.0, 1.048, 1.398 ... ms: every sample just above a bound
        cases.put("just above a bucket bound", IntStream.range(0, 1000).mapToLong(i -> 1_049).toArray());
        cases.put("one sample", new long[] {7_777});
        cases.put("two samples", new long[] {5, 9_000_000});
        cases.put("all equal", IntStream.range(0, 1024).mapToLong(i -> 250).toArray());
        long[] outlier = IntStream.range(0, 999).mapToLong(i -> 1_000).toArray();
        outlier = Arrays.copyOf(outlier, 1000);
        outlier[500] = 60_000_000;
        cases.put("one outlier in a thousand", outlier);
        cases.put("heavy tail", IntStream.range(0, 1024).mapToLong(i -> (long) (100 / Math.pow(random.nextDouble() + 1e-9, 1.5))).toArray());
        cases.put("descending", IntStream.range(0, 700).mapToLong(i -> 700 - i).toArray());
        cases.put("zeros and one", IntStream.range(0, 100).mapToLong(i -> i == 99 ? 1 : 0).toArray());
        cases.forEach((what, micros) -> assertConsistent(micros, recordAll(new RecentLatencies(1024), "sssp cpu", micros),
                what + " (seed " + SEED + ")"));
    }

    @Test
    void theWindowHoldsTheLastSamplesAndCountsAll() {
        RecentLatencies r = new RecentLatencies(100);
        for (long i = 1; i <= 250; i++) r.record("bfs gpu", i == 10 ? 1_000_000_000 : i);   // the outlier leaves the window
        RecentLatencies.Summary s = r.summaries().get("bfs gpu");
        assertEquals(250, s.count());
        assertEquals(100, s.window());
        assertEquals(151 / 1000.0, s.min());
        assertEquals(250 / 1000.0, s.max(), "max is the window's: the old outlier is gone, as it is from p99");
        assertEquals(249 / 1000.0, s.p99());
        assertConsistent(IntStream.rangeClosed(151, 250).mapToLong(i -> i).toArray(), s, "the last 100");
    }

    @Test
    void kindsAreKeptApartAndRecordingIsSafeFromManyThreads() {
        RecentLatencies r = new RecentLatencies(64);
        List<CompletableFuture<Void>> writers = IntStream.range(0, 4).mapToObj(t -> CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 10_000; i++) r.record(t % 2 == 0 ? "sssp cpu" : "mst gpu", 1 + (i * 7919L + t) % 5000);
        })).toList();
        for (int i = 0; i < 200; i++) {
            r.summaries().values().forEach(s -> assertTrue(s.min() <= s.p50() && s.p50() <= s.p99() && s.p99() <= s.max(), s.toString()));
        }
        writers.forEach(CompletableFuture::join);
        assertEquals(List.of("mst gpu", "sssp cpu"), List.copyOf(r.summaries().keySet()));
        assertEquals(20_000, r.summaries().get("sssp cpu").count());
    }
}
