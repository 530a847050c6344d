package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.engine.Timing;

/**
 * The SUMMARY of a BFS from each of {@code sources} (same order): {@code reached[i]} vertices at a finite hop count
 * from {@code sources[i]} (the source included), {@code maxHops[i]} the largest such count. What a BFS SUMMARY
 * answer says, computed without copying the hop array back (on the GPU: reduced on the device; several sources in
 * one bit-parallel pass).
 */
public record BfsSummaries(int[] sources, long[] reached, int[] maxHops, Timing timing) {
    public int count() {
        return sources.length;
    }

    /** Reached count and largest hop count of one full answer: {@code {reached, maxHops}}. */
    public static long[] summarize(int[] hops) {
        long reached = 0;
        int max = 0;
        for (int h : hops) {
            if (h >= 0) {
                reached++;
                if (h > max) max = h;
            }
        }
        return new long[] {reached, max};
    }

    /** The summaries of full answers, one per source: the reference the batched implementations are checked against. */
    public static BfsSummaries of(BfsResult... results) {
        int k = results.length;
        int[] s = new int[k], max = new int[k];
        long[] reached = new long[k];
        long compute = 0, copy = 0;
        for (int i = 0; i < k; i++) {
            long[] r = summarize(results[i].hops());
            s[i] = results[i].source();
            reached[i] = r[0];
            max[i] = (int) r[1];
            compute += results[i].timing().computeNanos();
            copy += results[i].timing().copyNanos();
        }
        return new BfsSummaries(s, reached, max, new Timing(compute, copy));
    }
}
