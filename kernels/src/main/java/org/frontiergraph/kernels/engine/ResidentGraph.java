package org.frontiergraph.kernels.engine;

import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * One graph version held by a backend, ready for queries without copying the graph again.
 * Methods may be called from several threads; implementations serialize where their device needs it.
 * Vertex ids are 0-based and must be in range (callers validate).
 */
public interface ResidentGraph extends AutoCloseable {
    CsrGraph graph();

    /** Name of the backend holding it. */
    String backend();

    /** Bytes this graph occupies in the backend's memory (device bytes on the GPU). */
    long residentBytes();

    /**
     * Runs {@code algorithm} on this graph: the implementation of this backend that {@code variant} names (null:
     * the default).
     *
     * @throws UnsupportedVariantException when this backend has no such variant
     * @throws GraphTooLargeException when the algorithm's working memory does not fit
     */
    <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant);

    /**
     * A resident copy of {@code next}, a later version of this graph. The default loads it afresh; a backend may
     * patch in place (e.g. weight changes on the device) and return itself. After this call the caller owns
     * the returned handle and must not use this one unless it is the same object.
     */
    default ResidentGraph replace(CsrGraph next, ComputeBackend owner) {
        ResidentGraph fresh = owner.load(next);
        close();
        return fresh;
    }

    @Override
    void close();
}
