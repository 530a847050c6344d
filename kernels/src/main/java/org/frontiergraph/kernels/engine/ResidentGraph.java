package org.frontiergraph.kernels.engine;

import java.util.List;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * One graph version held by a backend, ready for queries without copying the graph again.
 * Methods may be called from several threads; implementations serialize where their device needs it.
 * A {@code variant} of null selects the backend's default (fastest) implementation; an unknown name throws
 * {@link UnsupportedVariantException}. Vertex ids are 0-based and must be in range (callers validate).
 */
public interface ResidentGraph extends AutoCloseable {
    CsrGraph graph();

    /** Name of the backend holding it. */
    String backend();

    /** Bytes this graph occupies in the backend's memory (device bytes on the GPU). */
    long residentBytes();

    BfsResult bfs(int source, String variant);

    SsspResult sssp(int source, String variant);

    MstResult mst(String variant);

    /**
     * All-pairs shortest paths (small graphs only: the answer is n^2 distances).
     *
     * @throws GraphTooLargeException when the graph exceeds {@code limits}
     */
    default ApspResult apsp(String variant, ApspLimits limits) {
        throw new UnsupportedVariantException("APSP", variant == null ? "default" : variant, backend(), List.of());
    }

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
