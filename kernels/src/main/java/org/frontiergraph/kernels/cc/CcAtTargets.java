package org.frontiergraph.kernels.cc;

import org.frontiergraph.kernels.engine.Timing;

/**
 * Components read at a few vertices only (a TARGETS answer): {@code labels[i]} is {@link CcResult#labels()} at
 * {@code targets[i]}, the smallest vertex id of its component, so two targets are connected exactly when their labels
 * are equal. On the GPU only these labels are copied back.
 */
public record CcAtTargets(int[] targets, int[] labels, Timing timing) {
    /**
     * The query of a TARGETS answer: 0-based vertices in range (callers validate), repeats allowed; labels come back
     * in their order.
     */
    public record Query(int[] vertices) {
        public Query {
            vertices = vertices.clone();
        }
    }
}
