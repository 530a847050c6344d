package org.frontiergraph.kernels.engine;

import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * A compute engine that can hold graphs and answer queries on them: the CPU engine or the GPU engine.
 * Each backend owns its resources (a CUDA context, thread pools) and releases them on {@link #close()}.
 */
public interface ComputeBackend extends AutoCloseable {
    /** "cpu" or "gpu": the name that appears in results and latency events. */
    String name();

    /**
     * Makes a graph resident (on the GPU: uploads it once). The resident graph takes {@code graph} over: updates
     * through {@link ResidentGraph#mutable()} change its weights in place, so a caller that needs the version it
     * passed keeps a copy. The caller closes the returned handle.
     *
     * @throws GraphTooLargeException when the graph does not fit in this backend's memory
     */
    ResidentGraph load(CsrGraph graph);

    @Override
    void close();
}
