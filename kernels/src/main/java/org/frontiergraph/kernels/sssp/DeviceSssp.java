package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.gpu.DeviceBuffer;

/**
 * A GPU SSSP launcher that can leave its distances on the device: what {@link GpuSsspSummaries} reduces there
 * instead of copying them back. Distances are sssp.cu's keys (u64: the integer distance, or the raw bits of a
 * non-negative double; {@link SeedSssp#infKey} when unreached), so their order is the distances' order.
 */
interface DeviceSssp {
    /** Computes the distances from {@code source} into {@link #distanceKeys()} (no parents pass, no copy back). */
    void solveDistances(int source, org.frontiergraph.kernels.engine.Variant variant);

    /** The keys the last {@link #solveDistances} left, one u64 per vertex. */
    DeviceBuffer distanceKeys();

    /** The launches since {@link #solveDistances} are known to have completed (the stream was synchronized). */
    default void completed() {}

    /** Whether the keys are integer distances (else the bits of doubles). */
    boolean integerKeys();
}
