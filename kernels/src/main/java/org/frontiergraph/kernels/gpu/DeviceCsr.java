package org.frontiergraph.kernels.gpu;

import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * A CSR graph in device memory: row offsets and columns (int32), and weights as int32 when every weight is an
 * integer small enough that every path length stays exact in a double (distances are then exact integers), else as
 * doubles. Weights can be replaced in place for a new version with the same arcs, all of them or a few
 * ({@link #patchWeights}); a version with other arcs is built on the device from this one ({@link #merged}).
 *
 * <p>Slack form ({@link #withSlack}, issue 8): every row has room past its live arcs, filled with pads (self-loops
 * of weight PAD that no BFS or SSSP kernel can take, graph.cu), and {@code live[u]} counts its live arcs; the row
 * offsets are then the rows' capacities and {@link #arcCount} counts slots. A structural batch is applied on the
 * device ({@link #edited}: set, add or remove arcs by endpoints, O(k) ops each scanning its row), and the rows are
 * laid out again with more room only when one overflows. The BFS and SSSP kernels run on either form unchanged;
 * launchers that size lists by row length read {@link #rowBounds()}, the offsets as on the device.
 *
 * <p>Wide form ({@link CsrGraph#wide()}, issue 29): the row offsets are int64 on the device and the kernels that read
 * them are the {@code _o64} entry points ({@link #offsetEntry}); the per-arc arrays are copied page by page into one
 * allocation each. A wide copy is always compact: structural changes reload it from the host (no slack form, no
 * merge on the device); re-weights are scattered by 64-bit arc index ({@link #patchWeights(CsrGraph, long[])}).
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
    /** Row offsets are int64 on the device (the graph is stored wide): launchers use the _o64 entry points. */
    public final boolean wide;
    /** Some vertex has at least {@link #BLOCK_EXPAND_DEGREE} arcs (else kernels skip the block-per-vertex pass). */
    public final boolean hasBigVertices;
    public final DeviceBuffer rowOffsets;
    public final DeviceBuffer columns;
    private DeviceBuffer weights;
    private boolean intWeights;
    private boolean zeroWeights;
    private double maxWeight;
    private double meanWeight;
    /** Slack form: live arcs per row (null: compact, every slot of a row is a live arc). */
    private final DeviceBuffer live;
    /** Slack form: the length of each row's sorted prefix (ascending columns; arcs added since follow it). */
    private final DeviceBuffer sorted;
    /** The row offsets as on the device (capacities in slack form). Never changed in place. Null when wide. */
    private final int[] rowBounds;
    /** The wide form's row offsets, as on the device (null when narrow). */
    private final long[] wideBounds;

    public DeviceCsr(CudaContext context, AtomicLong ledger, CsrGraph g) {
        this.context = context;
        this.ledger = ledger;
        this.vertexCount = g.vertexCount();
        this.arcCount = g.arcs();
        this.directed = g.directed();
        this.wide = g.wide();
        this.hasBigVertices = g.maxDegree() >= BLOCK_EXPAND_DEGREE;
        this.live = null;
        this.sorted = null;
        this.rowBounds = wide ? null : g.rowOffsets();
        this.wideBounds = wide ? g.rowOffsetsLong() : null;
        DeviceBuffer rows = null, cols = null;
        try {
            rows = wide ? DeviceBuffer.of(context, ledger, wideBounds) : DeviceBuffer.of(context, ledger, g.rowOffsets());
            cols = wide ? WidePages.columns(context, ledger, g.pages(), arcCount) : DeviceBuffer.of(context, ledger, g.columns());
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
        this.wide = false;
        this.hasBigVertices = hasBigVertices;
        this.rowOffsets = rows;
        this.columns = cols;
        this.live = null;
        this.sorted = null;
        this.rowBounds = g.rowOffsets();
        this.wideBounds = null;
    }

    /** A slack-form copy over the given buffers (weights set by the caller). */
    private DeviceCsr(DeviceCsr from, int n, int[] bounds, DeviceBuffer rows, DeviceBuffer cols, DeviceBuffer live,
                      DeviceBuffer sorted) {
        this.context = from.context;
        this.ledger = from.ledger;
        this.vertexCount = n;
        this.arcCount = bounds[n];
        this.directed = from.directed;
        this.wide = false;
        this.wideBounds = null;
        boolean big = false;
        for (int u = 0; u < n && !big; u++) big = bounds[u + 1] - bounds[u] >= BLOCK_EXPAND_DEGREE;
        this.hasBigVertices = big;
        this.rowOffsets = rows;
        this.columns = cols;
        this.live = live;
        this.sorted = sorted;
        this.rowBounds = bounds;
        this.intWeights = from.intWeights;
        this.zeroWeights = from.zeroWeights;
        this.maxWeight = from.maxWeight;
        this.meanWeight = from.meanWeight;
    }

    /**
     * Slots a row of {@code d} live arcs gets when laid out: an eighth more ({@link GpuSettings#slackShift()}), at
     * least {@link GpuSettings#slackMin()} (4), so that a
     * stream of random additions (a few per row at most between two layouts) rarely fills a row: a full row makes the
     * whole graph laid out again (kron22: 72-80 ms with a room of 1, most of it the copy's allocation and the host's
     * part; H200). Kernels read the pads too: kron22 BFS 1.08x, SSSP 1.07x the compact CSR's time with a room of 1.
     */
    private long room(long d) {
        GpuSettings s = context.settings();
        return d + Math.max(s.slackMin(), d >> s.slackShift());
    }

    /** Whether this copy is in slack form. */
    public boolean slack() { return live != null; }

    /** Slack form: the live arcs per row, one int each (a kernel that bounds its rows by them reads no pads). */
    public DeviceBuffer liveBuffer() {
        if (live == null) throw new IllegalStateException("a compact copy has no live counts: every slot is an arc");
        return live;
    }

    /**
     * The row offsets as on the device: row u's slots are [rowBounds[u], rowBounds[u + 1]). Do not change. Not of a
     * wide copy (its offsets are longs; the launchers that read this refuse wide graphs).
     */
    public int[] rowBounds() {
        if (wide) throw new IllegalStateException("a wide copy's row offsets are 64-bit");
        return rowBounds;
    }

    /** {@code name}, the entry point for int32 row offsets, or {@code name_o64} for this copy's int64 ones when wide. */
    public String offsetEntry(String name) {
        return wide ? name + WidePages.O64 : name;
    }

    /** Rows of at least {@code slots} slots (launchers size their lists of long rows by it). */
    public int rowsOfAtLeast(int slots) {
        if (wide) return WidePages.rowsOfAtLeast(wideBounds, vertexCount, slots);
        int count = 0;
        for (int u = 0; u < vertexCount; u++) if (rowBounds[u + 1] - rowBounds[u] >= slots) count++;
        return count;
    }

    /** Live arcs (slots less pads in slack form; downloads the counts). Inside a lane's call ({@link GpuLane#call}). */
    public long liveArcs() {
        long sum = 0;
        for (int d : liveCounts()) sum += d;
        return sum;
    }

    /**
     * This graph in slack form over {@code n >= vertexCount} rows (new rows empty), row u with room for its live arcs
     * plus {@code extra[u]} (null: none) and slack beyond: a new copy built on the device; this one stays valid (the
     * caller closes it). Fails with {@link org.frontiergraph.kernels.engine.GraphTooLargeException} when it does
     * not fit beside this one (nothing left allocated).
     */
    public DeviceCsr withSlack(int n, int[] extra) {
        if (wide) throw new IllegalStateException("a wide copy has no slack form: structural changes reload it");
        int[] liveNow = liveCounts();
        int[] bounds = new int[n + 1];
        long at = 0;
        for (int u = 0; u < n; u++) {
            bounds[u] = (int) at;
            long d = (u < vertexCount ? liveNow[u] : 0) + (extra != null && u < extra.length ? extra[u] : 0);
            at += room(d);
            if (at > Integer.MAX_VALUE - 8) {
                throw new org.frontiergraph.kernels.engine.GraphTooLargeException("a slack layout of " + at
                        + " arc slots exceeds the supported arc count");
            }
        }
        bounds[n] = (int) at;
        DeviceBuffer[] b = DeviceBuffer.allocateAll(context, ledger, 4L * (n + 1), 4L * at, (intWeights ? 4L : 8L) * at,
                4L * n, 4L * n);
        DeviceCsr next = new DeviceCsr(this, n, bounds, b[0], b[1], b[3], b[4]);
        next.weights = b[2];
        b[0].upload(bounds);
        String type = intWeights ? "i32" : "f64";
        Object oldLive = live != null ? live : new jcuda.driver.CUdeviceptr();
        Object oldSorted = sorted != null ? sorted : new jcuda.driver.CUdeviceptr();
        context.module("graph").kernel("slack_relayout_" + type).launch(Kernel.blocksFor(32L * n),
                rowOffsets, columns, weights, oldLive, oldSorted, vertexCount, b[0], b[1], b[2], b[3], b[4], n);
        context.synchronize();
        return next;
    }

    /** Live arcs per row, on the host. */
    int[] liveCounts() {
        int[] d = new int[vertexCount];
        if (live != null) {
            live.download(d);
        } else {
            for (int u = 0; u < vertexCount; u++) d[u] = rowBounds[u + 1] - rowBounds[u];
        }
        return d;
    }

    /**
     * Applies {@code edits} on the device: a copy in slack form holding them, this one (in slack form already, and
     * every added arc found room) or a new one laid out again (this one closed then). Null when the edits' weights
     * do not fit this copy's weight form (int32 weights and a fractional or too large new one): the caller reloads
     * from the host. Fails with {@link org.frontiergraph.kernels.engine.GraphTooLargeException} when a new layout
     * does not fit beside this one: this copy may then hold part of the edits, and the caller reloads.
     */
    public DeviceCsr edited(DeviceEdits edits, int n) {
        phases.setLength(0);
        phase(null);
        int k = edits.size();
        if (wide || (intWeights && !edits.integral())) return null;
        double max = Math.max(maxWeight, edits.maxWeight());
        boolean zero = zeroWeights || edits.zero();
        if (intWeights && max * Math.max(1, n - 1) >= EXACT_LIMIT) return null;
        phase("checks");
        DeviceCsr target = this;
        if (live == null || n > vertexCount) target = withSlack(n, null);
        phase("layout");
        try {
            target.apply(edits);
            phase("apply");
        } catch (RuntimeException e) {
            if (target != this) target.close();
            throw e;
        }
        target.maxWeight = max;
        target.zeroWeights = zero;
        if (target.overflow != null) {
            int[] extra = new int[n];
            for (int i : target.overflow) extra[edits.srcOf(i)]++;
            context.module("graph").kernel("slack_clamp").launch(Kernel.blocksFor(n), target.rowOffsets, target.live, n);
            DeviceCsr grown;
            try {
                grown = target.withSlack(n, extra);
            } catch (RuntimeException e) {
                if (target != this) target.close();
                throw e;
            }
            phase("relayout (" + target.overflow.length + " arcs found no room)");
            int[] over = target.overflow;
            if (target != this) target.close();
            grown.add(edits, over);
            target = grown;
            phase("add after relayout");
        }
        if (timed()) System.err.println("device edits, " + k + " ops: " + phases + (target != this ? target.phases : "in place"));
        if (target != this) close();
        return target;
    }

    /** Ops that found no room in the last {@link #apply} (indices into its edits), or null. */
    private int[] overflow;

    /** {@link GpuSettings#editPhases()}: every edit prints the time of its phases (benchmarks). */
    private boolean timed() { return context.settings().editPhases(); }
    private long phaseAt;
    private final StringBuilder phases = new StringBuilder();

    /** Marks the end of a phase when timing phases (waits for the device first). */
    private void phase(String name) {
        if (!timed()) return;
        context.synchronize();
        long now = System.nanoTime();
        if (name != null) phases.append(name).append(' ').append(String.format(java.util.Locale.ROOT, "%.2f", (now - phaseAt) / 1e6)).append(" ms; ");
        phaseAt = now;
    }

    /**
     * Device scratch of the edits, kept from batch to batch (grown, never shrunk; in the graph's ledger, freed with
     * the copy): the ops' three arrays, the missing list, the counters (missing, overflow, rows that lost arcs), and,
     * once a batch removes arcs, a mark per row (zero between batches: slack_compact clears what slack_find set) and
     * the list of marked rows.
     */
    private DeviceBuffer opSrc, opDst, opValue, opMissing, opCounters, rowMark, rowList;
    private static final int OP_COUNTERS = 4;

    /** {@code b}, or a larger buffer in its place (at least {@code bytes}; 1/4 more, for batches that grow). */
    private DeviceBuffer grown(DeviceBuffer b, long bytes) {
        if (b != null && b.bytes() >= bytes) return b;
        if (b != null) b.close();
        return DeviceBuffer.allocate(context, ledger, Math.max(1024, bytes + (bytes >> 2)));
    }

    /** Uploads the edits' entries into the op scratch. */
    private void uploadOps(DeviceEdits edits) {
        int e = edits.entries();
        opSrc = grown(opSrc, 4L * e);
        opDst = grown(opDst, 4L * e);
        opValue = grown(opValue, (intWeights ? 4L : 8L) * e);
        opCounters = grown(opCounters, 8L * OP_COUNTERS);
        opSrc.upload(edits.src());
        opDst.upload(edits.dst());
        if (intWeights) opValue.upload(toInts(edits.value()));
        else opValue.upload(edits.value());
    }

    /** slack_find, slack_compact of the rows that lost arcs (listed on the device), slack_add. Sets {@link #overflow}. */
    private void apply(DeviceEdits edits) {
        int k = edits.size();
        overflow = null;
        if (k == 0) return;
        String type = intWeights ? "i32" : "f64";
        KernelModule graph = context.module("graph");
        phase(null);
        uploadOps(edits);
        opMissing = grown(opMissing, 4L * k);
        int removals = edits.removals();
        long rowsBound = Math.min(removals, vertexCount);
        if (removals > 0) {
            if (rowMark == null) {
                rowMark = DeviceBuffer.allocate(context, ledger, 4L * vertexCount);
                rowMark.fill32(0, vertexCount, 0);
            }
            rowList = grown(rowList, 4L * rowsBound);
        }
        opCounters.fill32(0, 2 * OP_COUNTERS, 0);
        phase("uploads");
        jcuda.driver.CUdeviceptr none = new jcuda.driver.CUdeviceptr();
        int mirror = edits.mirrored() ? 1 : 0;
        graph.kernel("slack_find_" + type).launch(Kernel.blocksFor(32L * k), rowOffsets, columns, weights, live,
                sorted, opSrc, opDst, opValue, k, mirror, opMissing, opCounters, removals > 0 ? rowMark : none,
                removals > 0 ? rowList : none);
        phase("find");
        if (removals > 0) {
            graph.kernel("slack_compact_" + type).launch(Kernel.blocksFor(32L * rowsBound), rowOffsets, columns,
                    weights, live, sorted, rowList, opCounters, rowMark);
            phase("compact");
        }
        long[] c = new long[OP_COUNTERS];
        opCounters.download(c);
        if (c[0] == 0) return;
        try (DeviceBuffer over = DeviceBuffer.allocate(context, ledger, 4L * c[0])) {
            graph.kernel("slack_add_" + type).launch(Kernel.blocksFor(c[0]), rowOffsets, columns, weights, live,
                    opSrc, opDst, opValue, mirror, opMissing, (int) c[0], over, opCounters);
            opCounters.download(c);
            if (c[1] > 0) {
                overflow = new int[(int) c[1]];
                over.download(overflow);
            }
            phase("add " + c[0]);
        }
    }

    /** Adds the ops {@code which} (indices into {@code edits}, arcs absent here) after a new layout made room. */
    private void add(DeviceEdits edits, int[] which) {
        String type = intWeights ? "i32" : "f64";
        uploadOps(edits);
        try (DeviceBuffer list = DeviceBuffer.of(context, ledger, which);
             DeviceBuffer over = DeviceBuffer.allocate(context, ledger, 4L * which.length)) {
            opCounters.fill32(0, 2 * OP_COUNTERS, 0);
            context.module("graph").kernel("slack_add_" + type).launch(Kernel.blocksFor(which.length), rowOffsets,
                    columns, weights, live, opSrc, opDst, opValue, edits.mirrored() ? 1 : 0, list, which.length, over,
                    opCounters);
            long[] c = new long[OP_COUNTERS];
            opCounters.download(c);
            if (c[1] != 0) throw new IllegalStateException(c[1] + " arcs found no room after the layout made room for them");
        }
    }

    /**
     * The copy of {@code merge.after()} built from this copy of {@code merge.before()} on the device: the new row
     * offsets are uploaded (O(n)), the untouched rows move within the device, the touched rows come from one packed
     * upload (O(their arcs)); weights keep their form (else all are uploaded in the new form). This copy stays
     * valid; the caller closes it. Both live on the device during the call: check
     * {@link #bytesFor(CsrGraph)} of the new version is free first.
     */
    DeviceCsr merged(ChangeLog.Merge merge) {
        if (wide) throw new IllegalStateException("a wide copy takes structural changes by a reload from the host");
        if (live != null) throw new IllegalStateException("a slack-form copy takes structural changes as edits (edited)");
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
        java.util.stream.IntStream all = java.util.stream.IntStream.range(0, w.length);
        if (w.length >= DeviceEdits.PARALLEL_MIN) all = all.parallel();
        all.forEach(i -> iw[i] = (int) w[i]);
        return iw;
    }

    /** Bytes a graph takes on the device (CSR only; 8-byte row offsets when wide). */
    public static long bytesFor(CsrGraph g) {
        boolean ints = g.integralWeights();
        return (g.wide() ? 8L : 4L) * (g.vertexCount() + 1) + 4L * g.arcs() + (ints ? 4L : 8L) * g.arcs();
    }

    /** Replaces the weights (same arcs, new values). */
    public void uploadWeights(CsrGraph g) {
        if (wide) {
            uploadWideWeights(g);
            return;
        }
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

    /** {@link #uploadWeights} of a wide graph: the weights' pages into one buffer (int32 where they allow). */
    private void uploadWideWeights(CsrGraph g) {
        WidePages.Stats st = WidePages.Stats.of(g.pages());
        boolean ints = g.integralWeights() && st.max() * Math.max(1, vertexCount - 1) < EXACT_LIMIT;
        if (weights != null && ints != intWeights) weights.close();
        if (weights == null || ints != intWeights) weights = DeviceBuffer.allocate(context, ledger, (ints ? 4L : 8L) * arcCount);
        WidePages.uploadWeights(weights, g.pages(), ints);
        intWeights = ints;
        zeroWeights = st.zero();
        maxWeight = st.max();
        meanWeight = arcCount == 0 ? 1 : st.sum() / arcCount;
    }

    /**
     * The arcs {@code arcs} (64-bit indices) of the wide graph {@code g} were re-weighted in place: scattered on the
     * device, O(k) (graph.cu's scatter_*_o64), or all uploaded again where the weights change form.
     */
    public void patchWeights(CsrGraph g, long[] arcs) {
        if (!wide) throw new IllegalStateException("a narrow copy's re-weights come as int arc indices");
        double[] v = WidePages.weightsAt(g, arcs);
        double max = maxWeight;
        for (double x : v) max = Math.max(max, x);
        if ((g.integralWeights() && max * Math.max(1, vertexCount - 1) < EXACT_LIMIT) != intWeights) {
            uploadWideWeights(g);
            return;
        }
        if (intWeights) WidePages.scatterInts(context, ledger, weights, arcs, toInts(v));
        else WidePages.scatterDoubles(context, ledger, weights, arcs, v);
        maxWeight = max;
        for (double x : v) zeroWeights |= x == 0;
    }

    /**
     * The arcs {@code changes} lists were re-weighted in place in {@code g} (same arcs as uploaded): their new
     * weights are scattered on the device, O(k). Falls back to {@link #uploadWeights} when the change asks for all,
     * or moves the weights between int32 and float64 form. {@link #maxWeight()} stays an upper bound and
     * {@link #zeroWeights()} true once set, until the next full upload.
     */
    public void patchWeights(CsrGraph g, ChangeLog.WeightChanges changes) {
        if (live != null) throw new IllegalStateException("a slack-form copy takes re-weights as edits (edited)");
        if (changes.isEmpty()) return;
        if (changes.all()) {
            uploadWeights(g);
            return;
        }
        if (wide) {
            patchWeights(g, changes.arcsLong());
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

    @Override
    public void close() {
        for (DeviceBuffer b : new DeviceBuffer[] {opSrc, opDst, opValue, opMissing, opCounters, rowMark, rowList}) {
            if (b != null) b.close();
        }
        if (sorted != null) sorted.close();
        if (live != null) live.close();
        if (weights != null) weights.close();
        columns.close();
        rowOffsets.close();
    }
}
