package org.frontiergraph.kernels.gpu;

import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * The device side of one algorithm implementation on one resident graph: it owns the device buffers it sized (in
 * the graph's ledger) and the loop of {@code prepare -> launch until converged -> copy back}. Opened by
 * {@link GpuAlgorithm#open()}, closed with the graph (or when a new version invalidates it). Every method runs inside
 * a lane's call ({@link GpuLane#call}).
 */
public interface GpuLauncher<Q, R> extends AutoCloseable {
    R run(Q query, Variant variant);

    /**
     * The arcs {@code changes} lists were re-weighted in place in {@code graph} (same arcs; the {@link DeviceCsr}
     * already holds the new weights). Returns false when this launcher holds data derived from the old weights
     * that it does not refresh: it is then closed and opened again on the next query.
     */
    default boolean reweighted(CsrGraph graph, ChangeLog.WeightChanges changes) {
        return true;
    }

    /**
     * The graph's arcs changed in a merge: {@code next} holds the device copy of {@code merge.after()}, while this
     * launcher still holds its buffers on {@code merge.before()}. Returns a launcher on the new version built from
     * this one's device data (what is cheaper to move on the device than to derive again on the host), or null when
     * there is nothing worth carrying: it is then opened afresh when needed. This launcher is closed either way.
     */
    default GpuLauncher<Q, R> merged(DeviceGraph next, ChangeLog.Merge merge) {
        return null;
    }

    /** Frees every device buffer; safe to call twice. */
    @Override
    void close();
}
