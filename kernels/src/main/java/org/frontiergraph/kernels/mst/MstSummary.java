package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.engine.Timing;

/**
 * An MST SUMMARY: the forest's total weight (its exact sum, rounded once, as {@link MstResult#totalWeight()}), its
 * edge count and components, without the edge ids.
 */
public record MstSummary(double totalWeight, int edges, int components, Timing timing) {
    /** The summary of a whole answer. */
    public static MstSummary of(MstResult r) {
        return new MstSummary(r.totalWeight(), r.edgeIds().length, r.components(), r.timing());
    }
}
