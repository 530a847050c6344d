package org.frontiergraph.kernels.gpu;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A resident graph whose copy lives in device memory ({@link GpuBackend}'s), seen by work that keeps data of its own
 * beside the graph between queries (standing trees, {@code org.frontiergraph.kernels.standing.DeviceTrees}): it runs on
 * the device copy brought up to date with the host copy, and its buffers are counted in the graph's resident bytes and
 * freed with it.
 */
public interface DeviceResident {
    /**
     * Runs {@code work} on the device copy brought up to date with the host copy (as a query's {@code sync}), holding
     * the device. The {@link DeviceGraph} is valid only during the call (a later version may be laid out anew).
     *
     * @throws org.frontiergraph.kernels.engine.GraphTooLargeException when the graph no longer fits the device
     */
    <T> T onDevice(Function<DeviceGraph, T> work);

    /**
     * Runs {@code work} holding the graph's device as {@link #onDevice} does (its lane: the graph's stream current on
     * this thread, one caller at a time), without bringing the copy up to date: for work on data of its own.
     */
    <T> T holding(Supplier<T> work);

    /**
     * The attachment of class {@code kind}, opened by {@code open} on the first call (on the device copy, as in
     * {@link #onDevice}; its buffers in this graph's ledger) and closed when the graph is closed. One per class.
     */
    <T extends AutoCloseable> T attachment(Class<T> kind, Function<DeviceGraph, T> open);
}
