package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.Timing;

/**
 * An SSSP from {@code source} read at {@code targets} only: {@code distances[i]} and {@code parents[i]} are
 * {@link SsspResult}'s values at vertex {@code targets[i]}. What a TARGETS answer says; on the GPU only these
 * values are copied back.
 */
public record SsspAtTargets(int source, int[] targets, double[] distances, int[] parents, Timing timing) {
    /** The full answer {@code r} read at {@code targets}. */
    public static SsspAtTargets of(SsspResult r, int[] targets) {
        int k = targets.length;
        double[] d = new double[k];
        int[] p = new int[k];
        for (int i = 0; i < k; i++) {
            d[i] = r.distances()[targets[i]];
            p[i] = r.parents()[targets[i]];
        }
        return new SsspAtTargets(r.source(), targets.clone(), d, p, r.timing());
    }
}
