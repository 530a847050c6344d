package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.Kernel;

/**
 * A GPU SSSP launcher that can leave its answer on the device: what {@link GpuSsspSummaries} reduces there and
 * {@link GpuSsspTargets} reads at a few vertices, instead of copying whole arrays back. Distances are sssp.cu's keys (u64: the integer distance, or the raw bits of a
 * non-negative double; {@link SeedSssp#infKey} when unreached), so their order is the distances' order.
 */
interface DeviceSssp {
    /** Computes the distances from {@code source} into {@link #distanceKeys()} (no parents pass, no copy back). */
    void solveDistances(int source, Variant variant);

    /** The launches since {@link #solveDistances} are known to have completed (the stream was synchronized). */
    default void completed() {}

    /** The graph on the device. */
    DeviceCsr deviceCsr();

    /** The keys the last {@link #solveDistances} left, one u64 per vertex. */
    DeviceBuffer distanceKeys();

    /** Where {@link #solveParents} writes, one int per vertex. */
    DeviceBuffer parentsBuffer();

    /**
     * Runs sssp.cu's parents pass over the distances of the last {@link #solveDistances} from {@code source} and
     * returns the parents (-1 unreached; the source's own entry is not set). Not on graphs with
     * {@link #zeroWeights()}, whose tight arcs may form cycles (their launchers build the tree on the host).
     */
    default DeviceBuffer solveParents(int source) {
        DeviceCsr csr = deviceCsr();
        int n = csr.vertexCount;
        DeviceBuffer parents = parentsBuffer();
        parents.fill32(0, n, -1);
        csr.context().module("sssp").kernel(KeyForm.weights(csr.intWeights()).entry("sssp_parents")).launch(
                Kernel.blocksFor(32L * n), csr.rowOffsets, csr.columns, csr.weights(), n, distanceKeys(), parents, source);
        return parents;
    }

    /** Whether the graph has zero-weight arcs (see {@link #solveParents}). */
    default boolean zeroWeights() {
        return deviceCsr().zeroWeights();
    }

    /** Whether the keys are integer distances (else the bits of doubles). */
    default boolean integerKeys() {
        return deviceCsr().intWeights();
    }
}
