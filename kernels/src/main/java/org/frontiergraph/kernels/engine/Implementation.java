package org.frontiergraph.kernels.engine;

import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * One backend's implementation of an {@link AlgorithmSpec}: the backend that runs it ("cpu", "gpu") and the variant
 * names it answers to (the first is its default name). Each backend defines the concrete form it runs
 * ({@code CpuAlgorithm}, {@code GpuAlgorithm}); the algorithm's package builds them and lists them in its spec.
 *
 * @param <Q> what a query gives the algorithm (a source vertex, limits)
 * @param <R> the algorithm's result
 */
public interface Implementation<Q, R> {
    /** The backend that runs this implementation, as {@link ComputeBackend#name()} returns it. */
    String backend();

    /** Variant names, lower case; the first is this implementation's default. */
    List<String> variants();

    /**
     * Whether this implementation answers a query that names no variant on {@code graph}: the spec takes the first
     * implementation of the backend that says yes (so a specialist listed before a general one takes the graphs it
     * is faster on, measured in docs/benchmarks.md).
     */
    default boolean isDefaultFor(CsrGraph graph) {
        return true;
    }
}
