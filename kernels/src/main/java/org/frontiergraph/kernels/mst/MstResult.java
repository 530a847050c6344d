package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.engine.Timing;

/**
 * The minimum spanning forest of the undirected graph underneath a graph (see
 * {@link org.frontiergraph.kernels.graph.UndirectedEdges}), unique because ties are broken by (weight, edge id).
 * {@code edgeIds} are ids into {@code graph.undirectedEdges()}, ascending; {@code totalWeight} is summed exactly
 * (integral weights as a long; others through BigDecimal) before rounding once to double;
 * {@code components} counts the trees, isolated vertices included.
 */
public record MstResult(int[] edgeIds, double totalWeight, int components, Timing timing) {
}
