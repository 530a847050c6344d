package org.frontiergraph.kernels.engine;

import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * One graph held by a backend, ready for queries without copying the graph again, and changed in place by updates:
 * {@link #mutable()} is the host copy that updates apply to, and the backend's own copy (device memory) follows it
 * lazily, in one step for all updates since the last query ({@link #sync()}, called by {@link #run} too).
 * Methods may be called from several threads; implementations serialize where their device needs it.
 * Vertex ids are 0-based and must be in range (callers validate).
 */
public interface ResidentGraph extends AutoCloseable {
    /** The host copy of the current version; updates apply here ({@link MutableGraph#apply}). */
    MutableGraph mutable();

    /** The current version as a compact CSR (merging pending structural changes). */
    default CsrGraph graph() {
        return mutable().current();
    }

    /**
     * Brings the backend's copy up to date with {@link #mutable()}: re-weights are scattered, structural changes
     * reload it. Cheap when nothing changed.
     *
     * @throws GraphTooLargeException when the grown graph no longer fits the backend's memory
     */
    default void sync() {}

    /** Name of the backend holding it. */
    String backend();

    /** Bytes this graph occupies in the backend's memory (device bytes on the GPU). */
    long residentBytes();

    /**
     * Runs {@code algorithm} on the current version (after {@link #sync()}): the implementation of this backend that {@code variant} names (null:
     * the default).
     *
     * @throws UnsupportedVariantException when this backend has no such variant
     * @throws GraphTooLargeException when the algorithm's working memory does not fit
     */
    <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant);

    /**
     * A resident copy of {@code next}, a later version of this graph given in full. The default loads it afresh; a
     * backend may patch in place (e.g. weight changes on the device) and return itself. After this call the caller
     * owns the returned handle and must not use this one unless it is the same object.
     */
    default ResidentGraph replace(CsrGraph next, ComputeBackend owner) {
        ResidentGraph fresh = owner.load(next);
        close();
        return fresh;
    }

    @Override
    void close();
}
