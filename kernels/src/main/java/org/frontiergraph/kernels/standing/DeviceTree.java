package org.frontiergraph.kernels.standing;

import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.sssp.KeyForm;

/**
 * One standing tree on the device, of {@link DeviceTrees}: a key and a parent per vertex (12 bytes a vertex), in the
 * key form of the graph's weights.
 */
public final class DeviceTree {
    final int source;
    final boolean unit;
    DeviceBuffer keys, parents;
    int n;
    /** The key form of the graph's weights when last repaired or uploaded. */
    KeyForm form;

    DeviceTree(int source, boolean unit) {
        this.source = source;
        this.unit = unit;
    }

    public int source() { return source; }

    /** BFS: every arc counts 1. */
    public boolean unitWeights() { return unit; }

    /** Vertices it holds. */
    public int vertexCount() { return n; }

    /** Device bytes it holds. */
    public long deviceBytes() { return keys == null ? 0 : keys.bytes() + parents.bytes(); }
}

