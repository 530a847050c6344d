package org.frontiergraph.kernels.gpu;

import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * An extra GPU implementation of an algorithm (a seed paper's variant), allocated on a resident graph the first
 * time a query names it and freed with the graph. Its device bytes go to the graph's ledger.
 * Methods are called inside {@link CudaContext#call}.
 */
public interface SeedLauncher extends AutoCloseable {
    /** The graph's weights changed in place (same arcs): refresh any weight copies. */
    void reweighted(CsrGraph next);

    @Override
    void close();
}
