package org.frontiergraph.kernels.gpu;

import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * The device side of one algorithm implementation on one resident graph: it owns the device buffers it sized (in
 * the graph's ledger) and the loop of {@code prepare -> launch until converged -> copy back}. Opened by
 * {@link GpuAlgorithm#open()}, closed with the graph (or when a new version invalidates it). Every method runs inside
 * {@link CudaContext#call}.
 */
public interface GpuLauncher<Q, R> extends AutoCloseable {
    R run(Q query, Variant variant);

    /**
     * The arcs {@code changes} lists were re-weighted in place in {@code graph} (same arcs; the {@link DeviceCsr}
     * already holds the new weights). Returns false when this launcher holds data derived from the old weights
     * that it does not refresh: it is then closed and opened again on the next query.
     */
    default boolean reweighted(CsrGraph graph, MutableGraph.WeightChanges changes) {
        return true;
    }

    /** Frees every device buffer; safe to call twice. */
    @Override
    void close();
}
