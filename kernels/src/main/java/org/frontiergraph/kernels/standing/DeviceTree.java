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

    /**
     * Writes entry {@code i} of a patch of {@code k} entries into {@code packed} (4k ints: the vertices, then their keys
     * as two ints each, low first, then their parents), as {@link DeviceTrees#patchPacked} uploads it: vertex {@code v},
     * one of this tree's, at {@code value} with {@code parent}.
     */
    void pack(int[] packed, int k, int i, int v, double value, int parent) {
        if (v < 0 || v >= n) throw new IllegalArgumentException("vertex " + v + " outside the tree's " + n);
        long key = form.key(value);
        packed[i] = v;
        packed[k + 2 * i] = (int) key;
        packed[k + 2 * i + 1] = (int) (key >>> 32);
        packed[3 * k + i] = parent;
    }

    /** Vertices it holds. */
    public int vertexCount() { return n; }

    /** Device bytes it holds. */
    public long deviceBytes() { return keys == null ? 0 : keys.bytes() + parents.bytes(); }
}

