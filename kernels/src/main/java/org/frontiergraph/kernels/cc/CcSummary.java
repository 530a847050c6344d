package org.frontiergraph.kernels.cc;

import org.frontiergraph.kernels.engine.Timing;

/** A CC SUMMARY: the number of weakly connected components (isolated vertices included) and the largest one's size. */
public record CcSummary(int components, int largest, Timing timing) {
}
