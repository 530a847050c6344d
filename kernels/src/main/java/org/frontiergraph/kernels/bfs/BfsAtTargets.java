package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.engine.Timing;

/**
 * A BFS from {@code source} read at {@code targets} only: {@code hops[i]} and {@code parents[i]} are
 * {@link BfsResult}'s values at vertex {@code targets[i]}. What a TARGETS answer says; on the GPU only these values
 * are copied back.
 */
public record BfsAtTargets(int source, int[] targets, int[] hops, int[] parents, Timing timing) {
    /** The full answer {@code r} read at {@code targets}. */
    public static BfsAtTargets of(BfsResult r, int[] targets) {
        int k = targets.length;
        int[] h = new int[k], p = new int[k];
        for (int i = 0; i < k; i++) {
            h[i] = r.hops()[targets[i]];
            p[i] = r.parents()[targets[i]];
        }
        return new BfsAtTargets(r.source(), targets.clone(), h, p, r.timing());
    }
}
