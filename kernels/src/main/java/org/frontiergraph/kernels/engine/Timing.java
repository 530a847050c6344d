package org.frontiergraph.kernels.engine;

import java.util.Map;

/**
 * Where a backend spent a query's time: compute (kernels or CPU loops) and copying the answer back to the host,
 * and the kernels' own counters by name (levels, iterations, rounds, launches), for benchmarks and tests.
 */
public record Timing(long computeNanos, long copyNanos, Map<String, Long> counters) {
    public static final Timing NONE = new Timing(0, 0);

    public Timing {
        counters = Map.copyOf(counters);
    }

    public Timing(long computeNanos, long copyNanos) {
        this(computeNanos, copyNanos, Map.of());
    }

    public static Timing since(long startNanos) {
        return new Timing(System.nanoTime() - startNanos, 0);
    }

    /** A counter the kernels reported, or -1 when they did not report it. */
    public long counter(String name) {
        return counters.getOrDefault(name, -1L);
    }
}
