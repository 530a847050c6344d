package org.frontiergraph.kernels.gpu;

/**
 * What the last catch-up applied as device edits cost (benchmarks): the host's part (reading the current weight of
 * every touched edge, sorting them into ops) and the device's (uploads, the edit launches, a new layout when a row
 * overflowed), and the number of ops (arcs).
 */
public interface DeviceEditStats {
    /** {@code {host nanos, device nanos, ops}} of the last catch-up applied as device edits, or zeros. */
    long[] lastDeviceEdit();
}
