package org.frontiergraph.kernels.sssp;

import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * SSSP SUMMARY answers for a batch of sources on the CPU engine: {@link CpuSssp} (sequential Dijkstra) from each
 * source, the sources spread over the cores; each answer is summarized as soon as it is computed, so a batch holds
 * one distance array per core at a time.
 */
public final class CpuSsspSummaries {
    private CpuSsspSummaries() {}

    public static SsspSummaries run(CsrGraph g, int[] sources) {
        long t0 = System.nanoTime();
        int k = sources.length;
        long[] reached = new long[k];
        double[] max = new double[k];
        IntStream range = IntStream.range(0, k);
        (k > 1 ? range.parallel() : range).forEach(i -> {
            double[] s = SsspSummaries.summarize(CpuSssp.run(g, sources[i]).distances());
            reached[i] = (long) s[0];
            max[i] = s[1];
        });
        return new SsspSummaries(sources.clone(), reached, max, Timing.since(t0));
    }
}
