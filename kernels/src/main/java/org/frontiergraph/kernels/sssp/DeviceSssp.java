package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.gpu.DeviceBuffer;

/**
 * A GPU SSSP launcher that can leave its answer on the device: what {@link GpuSsspSummaries} reduces there and
 * {@link GpuSsspTargets} reads at a few vertices, instead of copying whole arrays back. Distances are sssp.cu's keys (u64: the integer distance, or the raw bits of a
 * non-negative double; {@link SeedSssp#infKey} when unreached), so their order is the distances' order.
 */
interface DeviceSssp {
    /** Computes the distances from {@code source} into {@link #distanceKeys()} (no parents pass, no copy back). */
    void solveDistances(int source, org.frontiergraph.kernels.engine.Variant variant);

    /**
     * Runs the parents pass over the distances of the last {@link #solveDistances} from {@code source} and returns
     * the parents (-1 unreached, the source itself at the source). Not on graphs with {@link #zeroWeights()}, whose
     * tight arcs may form cycles (their launchers build the tree on the host).
     */
    DeviceBuffer solveParents(int source);

    /** Whether the graph has zero-weight arcs (see {@link #solveParents}). */
    boolean zeroWeights();

    /** The keys the last {@link #solveDistances} left, one u64 per vertex. */
    DeviceBuffer distanceKeys();

    /** The launches since {@link #solveDistances} are known to have completed (the stream was synchronized). */
    default void completed() {}

    /** Whether the keys are integer distances (else the bits of doubles). */
    boolean integerKeys();
}
