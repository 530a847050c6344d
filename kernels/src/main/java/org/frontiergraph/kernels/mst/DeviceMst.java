package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceBuffer;

/**
 * What {@link GpuMstSummary} needs of a GPU MST launcher ({@link GpuMst}, {@link EclMst}): its kernels run without
 * the answer's download, and where they leave the forest on the device.
 */
interface DeviceMst {
    /** Queues the forest's kernels on the stream (not timed, nothing copied back): {@link #chosen} holds the forest. */
    void solve(Variant variant);

    /** The packed edge list, (u, v, weight key, edge id) per edge. */
    DeviceBuffer edgeList();

    /** One bit per edge id, set for the edges of the forest of the last {@link #solve}. */
    DeviceBuffer chosen();

    /** Edges in {@link #edgeList}. */
    int edgeCount();

    /** Whether the weight keys are the integer weights (else ranks among the distinct weights: no sum on the device). */
    boolean integerKeys();
}
