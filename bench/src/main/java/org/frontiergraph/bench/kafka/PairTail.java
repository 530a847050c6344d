package org.frontiergraph.bench.kafka;

import java.util.List;
import java.util.Locale;

/**
 * Where SubscriptionBench's slowest (update, subscription) pairs spent their time: the pairs at or above the p99,
 * against all of them, by the size of the push that carried them (vertices listed) and by its two parts: until the
 * worker's producer stamped the push (the record's timestamp: fetch, repair, push and send; ms resolution), and from
 * there until the bench's reader had it.
 */
final class PairTail {
    /** One pair: from handing the update to the producer to reading the push, the push's read lag, its vertices. */
    record Pair(double ms, double readLagMs, int listed) {}

    /** Pushes of this many vertices or more count as large. */
    static final int LARGE = 10_000;

    private PairTail() {}

    /** The line SubscriptionBench prints under its table; empty when no pair was timed. */
    static String describe(List<Pair> pairs) {
        if (pairs.isEmpty()) return "";
        double p99 = Report.percentile(pairs.stream().mapToDouble(Pair::ms).toArray(), 99);
        List<Pair> tail = pairs.stream().filter(x -> x.ms() >= p99).toList();
        return String.format(Locale.ROOT, "of all %d pairs: %s; of the %d at or above the p99 (%.1f ms): %s",
                pairs.size(), parts(pairs), tail.size(), p99, parts(tail));
    }

    private static String parts(List<Pair> pairs) {
        double[] worker = pairs.stream().mapToDouble(x -> x.ms() - x.readLagMs()).toArray();
        double[] lag = pairs.stream().mapToDouble(Pair::readLagMs).toArray();
        double[] listed = pairs.stream().mapToDouble(Pair::listed).toArray();
        long large = pairs.stream().filter(x -> x.listed() >= LARGE).count();
        return String.format(Locale.ROOT, "until sent p50 %.1f / p90 %.1f ms, read lag p50 %.1f / p90 %.1f ms, listed p50 %.0f"
                + " / p90 %.0f, %d%% in pushes of 10^4 vertices or more", Report.percentile(worker, 50), Report.percentile(worker, 90),
                Report.percentile(lag, 50), Report.percentile(lag, 90), Report.percentile(listed, 50), Report.percentile(listed, 90),
                Math.round(100.0 * large / pairs.size()));
    }
}
