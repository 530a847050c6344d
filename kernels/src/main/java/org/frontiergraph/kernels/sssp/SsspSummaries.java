package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.Timing;

/**
 * The SUMMARY of an SSSP from each of {@code sources} (same order): {@code reached[i]} vertices at a finite
 * distance from {@code sources[i]} (the source included), {@code maxDistances[i]} the largest such distance. What an
 * SSSP SUMMARY answer says, computed without copying the distance array back (on the GPU: reduced on the device,
 * without the parents pass).
 */
public record SsspSummaries(int[] sources, long[] reached, double[] maxDistances, Timing timing) {
    public int count() {
        return sources.length;
    }

    /** Reached count and largest finite distance of one full answer. */
    public static double[] summarize(double[] distances) {
        long reached = 0;
        double max = 0;
        for (double d : distances) {
            if (d != Double.POSITIVE_INFINITY) {
                reached++;
                if (d > max) max = d;
            }
        }
        return new double[] {reached, max};
    }

    /** The summaries of full answers, one per source: the reference the batched implementations are checked against. */
    public static SsspSummaries of(SsspResult... results) {
        int k = results.length;
        int[] s = new int[k];
        long[] reached = new long[k];
        double[] max = new double[k];
        long compute = 0, copy = 0;
        for (int i = 0; i < k; i++) {
            double[] r = summarize(results[i].distances());
            s[i] = results[i].source();
            reached[i] = (long) r[0];
            max[i] = r[1];
            compute += results[i].timing().computeNanos();
            copy += results[i].timing().copyNanos();
        }
        return new SsspSummaries(s, reached, max, new Timing(compute, copy));
    }
}
