package org.frontiergraph.kernels.engine;

/** Where a backend spent a query's time: compute (kernels or CPU loops) and copying the answer back to the host. */
public record Timing(long computeNanos, long copyNanos) {
    public static final Timing NONE = new Timing(0, 0);

    public static Timing since(long startNanos) {
        return new Timing(System.nanoTime() - startNanos, 0);
    }
}
