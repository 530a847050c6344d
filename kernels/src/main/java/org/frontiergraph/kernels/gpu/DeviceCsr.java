package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * A CSR graph in device memory: row offsets and columns (int32), and weights as int32 when every weight is an
 * integer small enough that every path length stays exact in a double (distances are then exact integers), else as
 * doubles. Weights can be replaced in place for a new version with the same arcs, all of them or a few
 * ({@link #patchWeights}); a version with other arcs is built on the device from this one ({@link #merged}).
 */
public final class DeviceCsr implements AutoCloseable {
    /** Largest distance for which integer arithmetic is used: converting to double is then exact. */
    static final double EXACT_LIMIT = 0x1p53;

    /** Degree from which a kernel expands a vertex with a whole block (BLOCK_EXPAND_DEGREE in frontier.cuh). */
    public static final int BLOCK_EXPAND_DEGREE = 1024;

    private final CudaContext context;
    private final AtomicLong ledger;
    public final int vertexCount;
    public final long arcCount;
    public final boolean directed;
    /** Some vertex has at least {@link #BLOCK_EXPAND_DEGREE} arcs (else kernels skip the block-per-vertex pass). */
    public final boolean hasBigVertices;
    public final DeviceBuffer rowOffsets;
    public final DeviceBuffer columns;
    private DeviceBuffer weights;
    private boolean intWeights;
    private boolean zeroWeights;
    private double maxWeight;
    private double meanWeight;

    public DeviceCsr(CudaContext context, AtomicLong ledger, CsrGraph g) {
        this.context = context;
        this.ledger = ledger;
        this.vertexCount = g.vertexCount();
        this.arcCount = g.arcCount();
        this.directed = g.directed();
        this.hasBigVertices = g.maxDegree() >= BLOCK_EXPAND_DEGREE;
        DeviceBuffer rows = null, cols = null;
        try {
            rows = DeviceBuffer.of(context, ledger, g.rowOffsets());
            cols = DeviceBuffer.of(context, ledger, g.columns());
            this.rowOffsets = rows;
            this.columns = cols;
            uploadWeights(g);
        } catch (RuntimeException e) {
            if (cols != null) cols.close();
            if (rows != null) rows.close();
            throw e;
        }
    }

    private DeviceCsr(CudaContext context, AtomicLong ledger, CsrGraph g, boolean hasBigVertices, DeviceBuffer rows,
                      DeviceBuffer cols) {
        this.context = context;
        this.ledger = ledger;
        this.vertexCount = g.vertexCount();
        this.arcCount = g.arcCount();
        this.directed = g.directed();
        this.hasBigVertices = hasBigVertices;
        this.rowOffsets = rows;
        this.columns = cols;
    }

    /**
     * The copy of {@code merge.after()} built from this copy of {@code merge.before()} on the device: the new row
     * offsets are uploaded (O(n)), the untouched rows move within the device, the touched rows come from one packed
     * upload (O(their arcs)); weights keep their form (else all are uploaded in the new form). This copy stays
     * valid; the caller closes it. Both live on the device during the call: check
     * {@link #bytesFor(CsrGraph)} of the new version is free first.
     */
    DeviceCsr merged(MutableGraph.Merge merge) {
        CsrGraph after = merge.after();
        MergePlan plan = MergePlan.of(merge);
        double max = maxWeight;
        boolean zero = zeroWeights, big = hasBigVertices;
        for (double w : plan.packedWeights) {
            max = Math.max(max, w);
            zero |= w == 0;
        }
        int[] ao = after.rowOffsets();
        for (int r : merge.touchedRows()) big |= ao[r + 1] - ao[r] >= BLOCK_EXPAND_DEGREE;
        boolean ints = after.integralWeights() && max * Math.max(1, after.vertexCount() - 1) < EXACT_LIMIT;
        DeviceBuffer rows = null, cols = null;
        DeviceCsr next = null;
        try {
            rows = DeviceBuffer.of(context, ledger, ao);
            cols = DeviceBuffer.allocate(context, ledger, 4L * after.arcCount());
            next = new DeviceCsr(context, ledger, after, big, rows, cols);
            try (DeviceBuffer kept = DeviceBuffer.of(context, ledger, plan.kept);
                 DeviceBuffer written = DeviceBuffer.of(context, ledger, plan.written);
                 DeviceBuffer packedColumns = DeviceBuffer.of(context, ledger, plan.packedColumns)) {
                copyPieces("u32", columns, cols, kept, plan.keptPieces());
                copyPieces("u32", packedColumns, cols, written, plan.writtenPieces());
                if (ints != intWeights) {
                    next.uploadWeights(after);
                } else {
                    next.weights = DeviceBuffer.allocate(context, ledger, (ints ? 4L : 8L) * after.arcCount());
                    next.intWeights = ints;
                    next.zeroWeights = zero;
                    next.maxWeight = max;
                    next.meanWeight = after.arcCount() == 0 ? 1 : after.weightSum() / after.arcCount();
                    String type = ints ? "u32" : "u64";
                    try (DeviceBuffer packedWeights = ints ? DeviceBuffer.of(context, ledger, toInts(plan.packedWeights))
                            : DeviceBuffer.of(context, ledger, plan.packedWeights)) {
                        copyPieces(type, weights, next.weights, kept, plan.keptPieces());
                        copyPieces(type, packedWeights, next.weights, written, plan.writtenPieces());
                        context.synchronize();
                    }
                }
                context.synchronize();
            }
            return next;
        } catch (RuntimeException e) {
            if (next != null) next.close();
            else {
                if (cols != null) cols.close();
                if (rows != null) rows.close();
            }
            throw e;
        }
    }

    /** Queues copy_pieces_{type}: {@code count} pieces (from, to, length) of src into dst. */
    private void copyPieces(String type, DeviceBuffer src, DeviceBuffer dst, DeviceBuffer pieces, int count) {
        if (count > 0) context.module("graph").kernel("copy_pieces_" + type).launch(Math.min(count, 1 << 20), src, dst, pieces, count);
    }

    private static int[] toInts(double[] w) {
        int[] iw = new int[w.length];
        for (int i = 0; i < w.length; i++) iw[i] = (int) w[i];
        return iw;
    }

    /** Bytes a graph takes on the device (CSR only). */
    public static long bytesFor(CsrGraph g) {
        boolean ints = g.integralWeights();
        return 4L * (g.vertexCount() + 1) + 4L * g.arcCount() + (ints ? 4L : 8L) * g.arcCount();
    }

    /** Replaces the weights (same arcs, new values). */
    public void uploadWeights(CsrGraph g) {
        double[] w = g.weights();
        double max = 0;
        boolean zero = false;
        for (double x : w) {
            if (x > max) max = x;
            if (x == 0) zero = true;
        }
        boolean ints = g.integralWeights() && max * Math.max(1, vertexCount - 1) < EXACT_LIMIT;
        DeviceBuffer old = weights;
        if (old != null && (ints != intWeights)) {
            old.close();
            old = null;
            weights = null;
        }
        if (ints) {
            int[] iw = toInts(w);
            if (old == null) weights = DeviceBuffer.of(context, ledger, iw);
            else old.upload(iw);
        } else {
            if (old == null) weights = DeviceBuffer.of(context, ledger, w);
            else old.upload(w);
        }
        intWeights = ints;
        zeroWeights = zero;
        maxWeight = max;
        meanWeight = w.length == 0 ? 1 : g.weightSum() / w.length;
    }

    /**
     * The arcs {@code changes} lists were re-weighted in place in {@code g} (same arcs as uploaded): their new
     * weights are scattered on the device, O(k). Falls back to {@link #uploadWeights} when the change asks for all,
     * or moves the weights between int32 and float64 form. {@link #maxWeight()} stays an upper bound and
     * {@link #zeroWeights()} true once set, until the next full upload.
     */
    public void patchWeights(CsrGraph g, MutableGraph.WeightChanges changes) {
        if (changes.isEmpty()) return;
        if (changes.all()) {
            uploadWeights(g);
            return;
        }
        double[] w = g.weights();
        int[] arcs = changes.arcs();
        double max = maxWeight;
        boolean zero = zeroWeights;
        for (int a : arcs) {
            max = Math.max(max, w[a]);
            zero |= w[a] == 0;
        }
        boolean ints = g.integralWeights() && max * Math.max(1, vertexCount - 1) < EXACT_LIMIT;
        if (ints != intWeights) {
            uploadWeights(g);
            return;
        }
        if (ints) {
            int[] v = new int[arcs.length];
            for (int i = 0; i < arcs.length; i++) v[i] = (int) w[arcs[i]];
            Scatter.ints(context, ledger, weights, arcs, v);
        } else {
            double[] v = new double[arcs.length];
            for (int i = 0; i < arcs.length; i++) v[i] = w[arcs[i]];
            Scatter.doubles(context, ledger, weights, arcs, v);
        }
        maxWeight = max;
        zeroWeights = zero;
        meanWeight = w.length == 0 ? 1 : g.weightSum() / w.length;
    }

    public DeviceBuffer weights() { return weights; }

    /** The context the graph lives in. */
    public CudaContext context() { return context; }

    /** True when weights are int32 on the device and distances exact int64 keys; false for double keys. */
    public boolean intWeights() { return intWeights; }

    /** True when some arc has weight 0 (shortest-path parents then need a tree pass). */
    public boolean zeroWeights() { return zeroWeights; }

    public double maxWeight() { return maxWeight; }

    /** The mean arc weight (1 without arcs): delta-stepping launchers size their buckets from it. */
    public double meanWeight() { return meanWeight; }

    /** Downloads the arrays (for tests): row offsets, columns and the weights as doubles. */
    CsrArrays download() {
        int[] rows = new int[vertexCount + 1], cols = new int[(int) arcCount];
        rowOffsets.download(rows);
        columns.download(cols);
        double[] w = new double[(int) arcCount];
        if (intWeights) {
            int[] iw = new int[w.length];
            weights.download(iw);
            for (int i = 0; i < w.length; i++) w[i] = iw[i];
        } else {
            long[] bits = new long[w.length];
            weights.download(bits);
            for (int i = 0; i < w.length; i++) w[i] = Double.longBitsToDouble(bits[i]);
        }
        return new CsrArrays(rows, cols, w);
    }

    /** A device copy's arrays on the host. */
    record CsrArrays(int[] rowOffsets, int[] columns, double[] weights) {}

    @Override
    public void close() {
        if (weights != null) weights.close();
        columns.close();
        rowOffsets.close();
    }
}
