package org.frontiergraph.kernels.engine;

import java.util.List;

/**
 * One backend's implementation of an {@link Algorithm}: the backend that runs it ("cpu", "gpu") and the variant
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
}
