package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.gpu.SummaryBuffer;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * SSSP SUMMARY answers for a batch of sources, one thread block a source (kernels in src/main/cuda/sssp_batch.cu):
 * each block claims the batch's next source, runs near-far for it with block barriers only, reduces its distances to
 * the summary and claims the next. What {@link GpuSsspSummaries} runs for large batches on sparse graphs
 * ({@link GpuSsspSummaries#way}).
 *
 * <p>Why this scheme. A road graph's near-far step holds a few hundred vertices: one block's work, not the grid's. The
 * side-by-side launches ({@link MultiSssp}) pay a grid barrier and the device's idle lanes once per step for at most
 * 32 sources; here each source pays a block barrier per step, and the device runs as many sources at once as there
 * are slots, each at its own pace, with no barrier between them (a plain launch). A source's arrays are its slot's:
 * a 16-byte record a vertex (distance key and two marks, in one sector), two near queues and two far piles,
 * {@code 32 n} bytes, kept between launches (the keys set back to unreached by the block that used them, the marks
 * tagged by a clock that only counts up), so a source costs no O(n) fill beyond its summary pass.
 *
 * <p>Slots: as many as {@link #SLOT_BYTES} holds, at most {@link #MAX_SLOTS} (two blocks a multiprocessor on an
 * H200), sized once, in the graph's ledger, when the launcher opens: 253 on USA-road-d.NY (2 GiB). Call inside a
 * lane's call ({@link org.frontiergraph.kernels.gpu.GpuLane#call}).
 */
public final class BatchSssp implements AutoCloseable {
    /** sssp_batch.cu's enum BatchSsspCounter: slots of the u64 counter array. */
    static final int NEXT = 0, STEPS = 1, FILTERS = 2, ITEMS = 3, COUNTERS = 4;
    /** Device bytes the slots may take. */
    static final long SLOT_BYTES = 2L << 30;
    /** Slots at most. */
    static final int MAX_SLOTS = 256;
    /**
     * Near-far's bucket width in mean arc weights per mean degree, as {@link GpuSssp}'s {@code df}: narrower than the
     * grid's (a block's step is cheap, so fewer relaxations a source pay more than fewer steps).
     */
    static final double DELTA_FACTOR = 32;

    private final CudaContext context;
    private final DeviceGraph device;
    private final DeviceCsr csr;
    private final CsrGraph graph;
    private final int n;
    private final int slots;
    private final DeviceBuffer state, lists, clocks, counters;
    private DeviceBuffer sourceList;

    public BatchSssp(DeviceGraph g) {
        this.device = g;
        this.context = g.context();
        this.csr = g.csr();
        this.graph = g.graph();
        this.n = graph.vertexCount();
        this.slots = slots(n);
        if (slots < 1) throw new IllegalStateException("no slot of the batched SSSP fits this graph");
        DeviceBuffer[] b = g.allocate(sizes(n, slots));
        state = b[0];
        lists = b[1];
        clocks = b[2];
        counters = b[3];
        sourceList = b[4];
        clocks.fill32(0, slots, 0);
        long records = (long) slots * n;   // every key unreached, every mark 0
        context.module("sssp_batch").kernel("sssp_batch_clear").launch(Kernel.blocksFor(2 * records), state, records);
    }

    /** Slots on a graph of {@code n} vertices: what {@link #SLOT_BYTES} holds at 32 n bytes a slot, at most {@link #MAX_SLOTS}. */
    static int slots(long n) {
        if (n == 0) return 0;
        return (int) Math.min(MAX_SLOTS, SLOT_BYTES / (32 * n + 4));
    }

    /**
     * Device bytes: keys and marks (16 bytes a vertex), lists (4 n ints), clocks, counters, the batch's source list, in
     * that order.
     */
    static long[] sizes(long n, int slots) {
        long sn = (long) slots * n;
        return new long[] {16 * sn, 16 * sn, 4L * slots, 8L * COUNTERS, 4L * SummaryBuffer.INITIAL};
    }

    /** Device bytes of the launcher on {@code g}. */
    public static long deviceBytes(CsrGraph g) {
        int s = slots(g.vertexCount());
        return s < 1 ? 0 : DeviceBuffer.total(sizes(g.vertexCount(), s));
    }

    /** Slots: sources run at once at most. */
    int slots() {
        return slots;
    }

    /**
     * Writes the summaries of {@code sources} (validated) to {@code out}'s slots in the same order, in one launch of
     * at most {@link #slots()} blocks (option {@code slots} lowers it); queued on the stream. Options of
     * {@code variant}: {@code delta}, or {@code df} ({@link #DELTA_FACTOR}), as {@link GpuSssp}'s. Returns the blocks
     * launched.
     */
    int run(int[] sources, SummaryBuffer out, Variant variant) {
        return run(sources, out, variant, KeyForm.weights(csr.intWeights()));
    }

    /**
     * As {@link #run(int[], SummaryBuffer, Variant)} with keys of {@code form}: {@link KeyForm#UNIT} counts every arc 1
     * (BFS SUMMARY: reached vertices and the deepest level), its bucket width one level unless {@code delta} says.
     */
    public int run(int[] sources, SummaryBuffer out, Variant variant, KeyForm form) {
        sourceList = device.uploadGrowing(sourceList, sources);
        counters.fill32(0, 2L * COUNTERS, 0);
        double delta = form == KeyForm.UNIT ? variant.doubleOption("delta", 1)
                : variant.doubleOption("delta",
                        variant.doubleOption("df", DELTA_FACTOR) * csr.meanWeight() / SeedSssp.meanDegree(graph));
        long deltaKey = form.integral() ? Math.max(1L, Math.round(delta))
                : Double.doubleToRawLongBits(delta > 0 && Double.isFinite(delta) ? delta : 1.0);
        int blocks = Math.max(1, Math.min(Math.min(sources.length, slots), variant.intOption("slots", slots)));
        Kernel solve = context.module("sssp_batch").kernel(form.entry("sssp_batch"));
        solve.launch(blocks, csr.rowOffsets, csr.columns, csr.weights(), n, sources.length, sourceList, state, lists,
                clocks, counters, deltaKey, out.slot(0));
        return blocks;
    }

    /** Steps, filters and expanded items of the last {@link #run}, all sources (synchronizes). */
    long[] totals() {
        long[] c = new long[COUNTERS];
        counters.download(c);
        return new long[] {c[STEPS], c[FILTERS], c[ITEMS]};
    }

    /**
     * The launcher of a graph's SUMMARY batches, opened by the first batch that runs a block a source. A device too
     * full for the slots is remembered: {@link #refused} from then on, so batches run the older ways; a batch that
     * asked for this way by name gets the failure instead.
     */
    public static final class Lazy implements AutoCloseable {
        private final DeviceGraph device;
        private BatchSssp open;
        private boolean refused;

        public Lazy(DeviceGraph device) {
            this.device = device;
        }

        /** Whether the slots did not fit the device. */
        public boolean refused() {
            return refused;
        }

        /**
         * The launcher, opened now if need be; null when the slots do not fit the device, unless {@code named}
         * (the variant asked for this way), which throws.
         */
        public BatchSssp get(boolean named) {
            if (open == null && !refused) {
                try {
                    open = new BatchSssp(device);
                } catch (GraphTooLargeException e) {
                    if (named) throw e;
                    refused = true;
                }
            }
            return open;
        }

        @Override
        public void close() {
            if (open != null) open.close();
        }
    }

    @Override
    public void close() {
        sourceList.close();
        counters.close();
        clocks.close();
        lists.close();
        state.close();
    }
}
