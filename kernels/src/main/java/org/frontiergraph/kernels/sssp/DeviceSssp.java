package org.frontiergraph.kernels.sssp;

import jcuda.driver.CUdeviceptr;
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

    /** Where {@link #solveParents} writes, one int per vertex: -1 outside the vertices the last search reached. */
    DeviceBuffer parentsBuffer();

    /** The vertices the last {@link #solveDistances} reached, each once, {@link #reachedCount()} of them. */
    DeviceBuffer reachedList();

    /** The u64 on the device that holds the length of {@link #reachedList()}. */
    CUdeviceptr reachedCount();

    /**
     * Runs sssp.cu's parents pass over the vertices the last {@link #solveDistances} from {@code source} reached (the
     * search left -1 everywhere else) and returns the parents (-1 unreached; the source's own entry is not set). Not on
     * graphs with {@link #zeroWeights()}, whose tight arcs may form cycles (their launchers build the tree on the host).
     */
    default DeviceBuffer solveParents(int source) {
        DeviceCsr csr = deviceCsr();
        csr.context().module("sssp").kernel(csr.offsetEntry(KeyForm.weights(csr.intWeights()).entry("sssp_parents_listed"))).launch(
                listedBlocks(csr, 32L * csr.vertexCount), csr.rowOffsets, csr.columns, csr.weights(), distanceKeys(),
                parentsBuffer(), reachedList(), reachedCount(), source);
        return parentsBuffer();
    }

    /**
     * Adds the last {@link #solveDistances}' SUMMARY (vertices reached, largest key) into the two u64 at {@code out}
     * (zeroed by the caller): sssp.cu's {@code sssp_summary_listed}, over the reached vertices only.
     */
    default void summarize(CUdeviceptr out) {
        DeviceCsr csr = deviceCsr();
        csr.context().module("sssp").kernel("sssp_summary_listed").launch(listedBlocks(csr, csr.vertexCount),
                distanceKeys(), reachedList(), reachedCount(), out);
    }

    /**
     * Blocks of a pass over a reached list of up to {@code items} threads' work: enough for every one, at most a full
     * device (8 blocks of 256 threads a multiprocessor), whose threads stride over the list, whatever its length.
     */
    static long listedBlocks(DeviceCsr csr, long items) {
        return Math.max(1, Math.min(Kernel.blocksFor(items), 8L * csr.context().multiprocessors()));
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
