package org.frontiergraph.kernels.gpu;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * A structural batch as the device applies it to a {@link DeviceCsr} in slack form ({@link DeviceCsr#edited}): one
 * op per arc, {@code src -> dst} set to {@code value} (added when the device copy lacks it) or, where
 * {@code dst < 0}, the arc {@code src -> ~dst} removed. Ops are distinct per arc and idempotent (they say what the
 * arc is now, not how it changed), so the ops of a run of updates are the current state of every edge the run
 * touched, read from the host copy once: an edge added and removed again within the run is a removal the device
 * may find nothing to do for.
 *
 * <p>The arrays hold one entry per <em>edge</em>: for an undirected graph ({@link #mirrored()}) entry e stands for
 * both arcs, op {@code 2e} ({@code src -> dst}) and op {@code 2e + 1} ({@code dst -> src}); the device decodes them
 * the same way (graph.cu's {@code slack_op}), so half as many entries are built, checked and uploaded. Op-level
 * accessors ({@link #srcOf}, {@link #dstOf}, {@link #valueOf}, {@link #removes}) take the op index, below
 * {@link #size()}. What the device's checks need of the values (the largest, whether all are integral, whether one is
 * zero, how many remove) is computed once, here, on all cores for large batches.
 */
public final class DeviceEdits {
    /** Batches from this many edges on have their arrays filled and checked on all cores. */
    static final int PARALLEL_MIN = 1 << 15;

    private final int[] src, dst;
    private final double[] value;
    private final boolean mirrored;
    private final double maxWeight;
    private final boolean integral, zero;
    private final int removedEdges;

    /**
     * Ops from edge arrays ({@code dst[e] < 0}: the edge {@code src[e] -> ~dst[e]} removed, its value ignored);
     * {@code mirrored}: each entry stands for both arcs of an undirected edge.
     */
    public DeviceEdits(int[] src, int[] dst, double[] value, boolean mirrored) {
        if (src.length != dst.length || src.length != value.length) throw new IllegalArgumentException("op arrays differ in length");
        if (mirrored && src.length > Integer.MAX_VALUE / 2) throw new IllegalArgumentException("too many ops: " + src.length);
        this.src = src;
        this.dst = dst;
        this.value = value;
        this.mirrored = mirrored;
        Stats s = Stats.of(dst, value);
        this.maxWeight = s.max;
        this.integral = s.integral;
        this.zero = s.zero;
        this.removedEdges = s.removals;
    }

    /** Ops: arcs set or removed (twice the entries when mirrored). */
    public int size() { return mirrored ? 2 * src.length : src.length; }

    /** Entries of the arrays (edges when mirrored, else arcs). */
    public int entries() { return src.length; }

    /** Whether each entry stands for both arcs of an undirected edge. */
    public boolean mirrored() { return mirrored; }

    /** The entries' tails, as uploaded. */
    int[] src() { return src; }

    /** The entries' heads ({@code ~head} for a removal), as uploaded. */
    int[] dst() { return dst; }

    /** The entries' values (0 for a removal), as uploaded. */
    double[] value() { return value; }

    /** Op {@code i}'s tail. */
    public int srcOf(int i) {
        if (!mirrored) return src[i];
        int e = i >> 1;
        if ((i & 1) == 0) return src[e];
        int d = dst[e];
        return d < 0 ? ~d : d;
    }

    /** Op {@code i}'s head, or its complement when it removes the arc. */
    public int dstOf(int i) {
        if (!mirrored) return dst[i];
        int e = i >> 1;
        if ((i & 1) == 0) return dst[e];
        return dst[e] < 0 ? ~src[e] : src[e];
    }

    /** Op {@code i}'s weight (0 for a removal). */
    public double valueOf(int i) { return value[mirrored ? i >> 1 : i]; }

    /** Whether op {@code i} removes its arc. */
    public boolean removes(int i) { return dst[mirrored ? i >> 1 : i] < 0; }

    /** The largest weight an op sets (0 when none sets one). */
    public double maxWeight() { return maxWeight; }

    /** Whether every weight an op sets is integral and below {@code Integer.MAX_VALUE} (the int32 form holds it). */
    public boolean integral() { return integral; }

    /** Whether an op sets a zero weight. */
    public boolean zero() { return zero; }

    /** Ops that remove an arc. */
    public int removals() { return mirrored ? 2 * removedEdges : removedEdges; }

    /**
     * The ops that bring a device copy of the graph before {@code changed} to {@code graph}'s current version: for
     * every edge the run touched (once, however often), its current weight, or its removal; one entry per edge of an
     * undirected graph, for both its arcs.
     */
    public static DeviceEdits of(MutableGraph graph, ChangedEdges changed) {
        boolean directed = graph.directed();
        long[] keys = new long[changed.size()];
        int[] cu = changed.u(), cv = changed.v();
        IntStream fill = IntStream.range(0, keys.length);
        if (keys.length >= PARALLEL_MIN) fill = fill.parallel();
        fill.forEach(i -> {
            int u = cu[i], v = cv[i];
            if (!directed && u > v) {
                int t = u;
                u = v;
                v = t;
            }
            keys[i] = ((long) u << 32) | (v & 0xffffffffL);
        });
        Arrays.parallelSort(keys);
        int distinct = 0;
        for (int i = 0; i < keys.length; i++) if (i == 0 || keys[i] != keys[i - 1]) keys[distinct++] = keys[i];
        long[] unique = Arrays.copyOf(keys, distinct);
        double[] weights = graph.weightsOf(unique);
        int[] src = new int[distinct], dst = new int[distinct];
        IntStream ops = IntStream.range(0, distinct);
        if (distinct >= PARALLEL_MIN) ops = ops.parallel();
        ops.forEach(i -> {
            int u = (int) (unique[i] >>> 32), v = (int) unique[i];
            boolean gone = Double.isNaN(weights[i]);
            src[i] = u;
            dst[i] = gone ? ~v : v;
            if (gone) weights[i] = 0;
        });
        return new DeviceEdits(src, dst, weights, !directed);
    }

    /** The checks' summary of the values, per chunk of entries and then together. */
    private record Stats(double max, boolean integral, boolean zero, int removals) {
        static final int CHUNK = 1 << 14;

        static Stats of(int[] dst, double[] value) {
            int chunks = (dst.length + CHUNK - 1) / CHUNK;
            IntStream parts = IntStream.range(0, chunks);
            if (dst.length >= PARALLEL_MIN) parts = parts.parallel();
            return parts.mapToObj(c -> chunk(dst, value, c * CHUNK, Math.min(dst.length, (c + 1) * CHUNK)))
                    .reduce(new Stats(0, true, false, 0), Stats::and);
        }

        static Stats chunk(int[] dst, double[] value, int from, int to) {
            double max = 0;
            boolean integral = true, zero = false;
            int removals = 0;
            for (int e = from; e < to; e++) {
                if (dst[e] < 0) {
                    removals++;
                    continue;
                }
                double w = value[e];
                if (w > max) max = w;
                if (w == 0) zero = true;
                if (w != Math.rint(w) || w > Integer.MAX_VALUE - 1) integral = false;
            }
            return new Stats(max, integral, zero, removals);
        }

        Stats and(Stats o) {
            return new Stats(Math.max(max, o.max), integral && o.integral, zero || o.zero, removals + o.removals);
        }
    }
}
