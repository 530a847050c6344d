package org.frontiergraph.kernels.gpu;

import java.util.Arrays;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * A structural batch as the device applies it to a {@link DeviceCsr} in slack form ({@link DeviceCsr#edited}): one
 * op per arc, {@code src -> dst} set to {@code value} (added when the device copy lacks it) or, where
 * {@code dst < 0}, the arc {@code src -> ~dst} removed. Ops are distinct per arc and idempotent (they say what the
 * arc is now, not how it changed), so the ops of a run of updates are the current state of every edge the run
 * touched, read from the host copy once: an edge added and removed again within the run is a removal the device
 * may find nothing to do for.
 */
public record DeviceEdits(int[] src, int[] dst, double[] value) {
    public DeviceEdits {
        if (src.length != dst.length || src.length != value.length) throw new IllegalArgumentException("op arrays differ in length");
    }

    public int size() { return src.length; }

    /** Whether op {@code i} removes its arc. */
    public boolean removes(int i) { return dst[i] < 0; }

    /**
     * The ops that bring a device copy of the graph before {@code changed} to {@code graph}'s current version: for
     * every edge the run touched (once, however often), its current weight, or its removal; both arcs of an
     * undirected edge.
     */
    public static DeviceEdits of(MutableGraph graph, ChangedEdges changed) {
        boolean directed = graph.directed();
        long[] keys = new long[changed.size()];
        for (int i = 0; i < keys.length; i++) {
            int u = changed.u()[i], v = changed.v()[i];
            if (!directed && u > v) {
                int t = u;
                u = v;
                v = t;
            }
            keys[i] = ((long) u << 32) | (v & 0xffffffffL);
        }
        Arrays.parallelSort(keys);
        int distinct = 0;
        for (int i = 0; i < keys.length; i++) if (i == 0 || keys[i] != keys[i - 1]) keys[distinct++] = keys[i];
        long[] unique = Arrays.copyOf(keys, distinct);
        double[] weights = graph.weightsOf(unique);
        int per = directed ? 1 : 2;
        int[] src = new int[per * distinct], dst = new int[per * distinct];
        double[] value = new double[per * distinct];
        for (int i = 0, o = 0; i < distinct; i++) {
            int u = (int) (keys[i] >>> 32), v = (int) keys[i];
            double w = weights[i];
            boolean gone = Double.isNaN(w);
            src[o] = u;
            dst[o] = gone ? ~v : v;
            value[o++] = gone ? 0 : w;
            if (!directed) {
                src[o] = v;
                dst[o] = gone ? ~u : u;
                value[o++] = gone ? 0 : w;
            }
        }
        return new DeviceEdits(src, dst, value);
    }

    /** The distinct rows of the edits' removals, ascending (rows below {@code n}). O(k + n / 64). */
    public int[] removedRows(int n) {
        java.util.BitSet rows = new java.util.BitSet(n);
        for (int i = 0; i < size(); i++) if (removes(i)) rows.set(src[i]);
        return rows.stream().toArray();
    }
}
