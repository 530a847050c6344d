package org.frontiergraph.kernels.gpu;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.Changes;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * A graph in device memory: the CSR and the launchers opened on it (the at-load ones from the start, others when a
 * query first names them), following the host's {@link MutableGraph}. Updates apply to the host copy; the device
 * copy catches up in one step before the next query ({@link #sync()}), from the host's {@link ChangeLog} past this
 * graph's one cursor, by the strategy of its layout ({@link DeviceCopy}): {@link CompactCopy} scatters re-weights
 * and moves merged rows on the device; {@link SlackCopy} applies every update as device edits, with no merge on the
 * host, while the launchers in use read that form ({@link GpuAlgorithm#reads}); either reloads from the host when
 * it cannot follow. The launchers of {@link GpuAlgorithm.Layout#OWN} (MST's edge lists, Prim's adjacency) read no
 * CSR, only data of their own, which follows the host's versions beside either form ({@link #follow}); a query for
 * one that reads the compact form only (APSP, da2cf on a directed graph) makes the copy compact first.
 *
 * <p>Versions: {@link #base()} is the host's version as of the cursor (the last merge read, or the version last
 * loaded); a compact copy equals it, a slack copy is ahead of it by the edits read since, and the launchers that
 * follow the host hold it. {@link #residentBytes()} counts every device byte the CSR and the launchers hold;
 * {@link #close()} frees them. Thread-safe: the graph's device work runs on its own {@link GpuLane} (its stream, its
 * lock: one query or update of this graph at a time, while other graphs' run on theirs); a memory check and the
 * allocations it admits run under the context's {@link CudaContext#allocating}, so graphs growing or loading at once
 * never spend the same free bytes.
 */
final class GpuResidentGraph implements ResidentGraph, DeviceEditStats, DeviceResident {
    private final GpuBackend backend;
    private final CudaContext context;
    private final GpuLane lane;
    private final AtomicLong ledger = new AtomicLong();
    private final MutableGraph mutable;
    private final ChangeLog.Cursor cursor;
    private final List<GpuAlgorithm<?, ?>> atLoad;
    private final OpenLaunchers launchers = new OpenLaunchers();
    /** Data kept beside the graph across versions ({@link DeviceResident#attachment}), closed with it. */
    private final Map<Class<?>, AutoCloseable> attachments = new LinkedHashMap<>();
    /** The host's version as of the cursor. */
    private CsrGraph base;
    private DeviceCopy copy;
    private volatile boolean closed;
    /** Structural catch-ups merged on the device, reloads from the host, catch-ups applied as device edits (tests). */
    private int deviceMerges, reloads, deviceEdits;
    /** The last device edit's cost ({@link #lastDeviceEdit}). */
    private final long[] lastEdit = new long[3];

    /**
     * Call inside {@code lane}'s call and {@link CudaContext#allocating}, the memory checked. Frees what it allocated
     * when an allocation fails (the caller closes the lane).
     */
    GpuResidentGraph(GpuBackend backend, GpuLane lane, CsrGraph graph, List<GpuAlgorithm<?, ?>> atLoad) {
        this.backend = backend;
        this.context = backend.context();
        this.lane = lane;
        this.atLoad = atLoad;
        this.mutable = new MutableGraph(graph);
        this.cursor = mutable.log().cursor(ChangeLog.Detail.VERSIONS);
        this.copy = new DeviceCopy.Missing(this);
        upload(graph);
    }

    /** Uploads {@code g} as a compact copy and opens the at-load launchers; all or nothing. */
    private void upload(CsrGraph g) {
        base = g;
        copy = new CompactCopy(this, new DeviceCsr(context, ledger, g));
        openAtLoad(false);
    }

    /**
     * Opens the at-load launchers not open yet ({@code check}: their memory checked first, else the caller checked it
     * with the copy's); when that fails, frees every launcher and the copy, and rethrows (the next catch-up reloads).
     */
    void openAtLoad(boolean check) {
        try {
            long need = 0;
            for (GpuAlgorithm<?, ?> impl : atLoad) if (!launchers.has(impl) && impl.runsOn(base)) need += impl.deviceBytes(base);
            if (check) {
                backend.requireFree(need, "launchers on the graph of " + base.vertexCount() + " vertices and "
                        + base.edgeCount() + " edges");
            }
            for (GpuAlgorithm<?, ?> impl : atLoad) {
                if (!launchers.has(impl) && impl.runsOn(base)) launchers.put(impl, impl.open().apply(device()));
            }
        } catch (RuntimeException e) {
            launchers.closeAll();
            copy.close();
            copy = new DeviceCopy.Missing(this);
            throw e;
        }
    }

    /** The device copy and the host's version, as launchers see them. */
    DeviceGraph device() {
        return new DeviceGraph(context, ledger, copy.csr(), base, this::launcher);
    }

    ChangeLog.Cursor cursor() { return cursor; }

    CsrGraph base() { return base; }

    DeviceCopy copy() { return copy; }

    CudaContext context() { return context; }

    GpuSettings settings() { return context.settings(); }

    OpenLaunchers launchers() { return launchers; }

    /** The copy on the device is now {@code next}, of the host's version {@code version} (or ahead of it: slack). */
    void moveTo(DeviceCopy next, CsrGraph version) {
        copy = next;
        base = version;
    }

    void deviceMerged() { deviceMerges++; }

    /** A catch-up applied as device edits cost {@code host} and {@code device} nanoseconds for {@code ops} ops. */
    void editCost(long host, long device, long ops) {
        if (ops > 0) deviceEdits++;
        lastEdit[0] = host;
        lastEdit[1] = device;
        lastEdit[2] = ops;
    }

    /**
     * Whether the launcher of {@code impl} is handed the host's changes ({@link GpuLauncher#reweighted},
     * {@link GpuLauncher#merged}) rather than opened again: all but those of {@link GpuAlgorithm.Layout#OWN} that do
     * not follow the host.
     */
    static boolean handedChanges(GpuAlgorithm<?, ?> impl) {
        return impl.layout() != GpuAlgorithm.Layout.OWN || impl.followsHost();
    }

    /**
     * Beside a slack copy: hands the host's merges and re-weights of {@code c} to the launchers of
     * {@link GpuAlgorithm.Layout#OWN} that follow the host (each merge moves their edge-indexed data on the device,
     * {@link GpuLauncher#merged}; the re-weights patch it in place, {@link GpuLauncher#reweighted}), so an MST query
     * after edits neither makes the copy compact nor packs and uploads the edge list again; {@link #base()} moves
     * with the merges. One that cannot follow (rank keys, a directed graph's merge) is closed and opened afresh by the
     * next query that needs it, as are those that do not follow the host.
     */
    void follow(Changes c) {
        List<ChangeLog.Merge> merges = c.merges();
        ChangeLog.WeightChanges w = c.reweighted();
        if (merges.isEmpty() && w.isEmpty()) return;
        launchers.closeIf(impl -> impl.layout() == GpuAlgorithm.Layout.OWN && !impl.followsHost());
        for (ChangeLog.Merge m : merges) {
            if (m.before() != base) launchers.closeIf(impl -> impl.layout() == GpuAlgorithm.Layout.OWN);   // never expected
            base = m.after();
            launchers.merged(device(), m, impl -> impl.layout() == GpuAlgorithm.Layout.OWN);
        }
        launchers.reweighted(base, w, impl -> impl.layout() == GpuAlgorithm.Layout.OWN);
    }

    /**
     * Replaces the device copy by a compact one of the host's current version, memory checked first (the old copy and
     * every launcher freed before); past changes are read and dropped. When it does not fit, this graph has no device
     * copy left and says so ({@link org.frontiergraph.kernels.engine.GraphTooLargeException}); the caller moves it to
     * the CPU engine.
     */
    DeviceCopy reload() {
        CsrGraph now = mutable.current();
        cursor.read();
        reloads++;
        launchers.closeAll();
        copy.close();
        copy = new DeviceCopy.Missing(this);
        base = now;
        context.allocating(() -> {
            long need = DeviceCsr.bytesFor(now);
            for (GpuAlgorithm<?, ?> impl : atLoad) if (impl.runsOn(now)) need += impl.deviceBytes(now);
            backend.requireFree(need, "graph of " + now.vertexCount() + " vertices and " + now.edgeCount() + " edges after updates");
            upload(now);
        });
        return copy;
    }

    @Override
    public MutableGraph mutable() { return mutable; }

    @Override
    public <T> T onDevice(Function<DeviceGraph, T> work) {
        return lane.call(() -> {
            ensureOpen();
            catchUp();
            return work.apply(device());
        });
    }

    @Override
    public <T> T holding(Supplier<T> work) {
        return lane.call(work);
    }

    @Override
    public <T extends AutoCloseable> T attachment(Class<T> kind, Function<DeviceGraph, T> open) {
        return onDevice(d -> {
            AutoCloseable a = attachments.get(kind);
            if (a == null) {
                a = open.apply(d);
                attachments.put(kind, a);
            }
            return kind.cast(a);
        });
    }

    @Override
    public String backend() { return GpuBackend.NAME; }

    @Override
    public long residentBytes() { return ledger.get(); }

    @Override
    public void sync() {
        lane.run(() -> {
            ensureOpen();
            catchUp();
        });
    }

    /** Brings the device copy to the host's current version (see {@link DeviceCopy#catchUp}). */
    private void catchUp() {
        copy = copy.catchUp();
    }

    @Override
    public long[] lastDeviceEdit() { return lastEdit.clone(); }

    /** Catch-ups applied as edits of the slack-form copy on the device. */
    int deviceEdits() { return deviceEdits; }

    /** Whether the device copy is in slack form (tests). */
    boolean slackOnDevice() {
        return lane.call(() -> copy.slack());
    }

    /** Launchers carried through merges so far (tests). */
    int carried() { return launchers.carried(); }

    /** Structural catch-ups merged on the device so far. */
    int deviceMerges() { return deviceMerges; }

    /** Copies loaded from the host after the first (structural catch-ups the device could not merge). */
    int reloads() { return reloads; }

    /** The device's arrays, downloaded (tests). */
    CsrArrays deviceArrays() {
        return lane.call(() -> {
            catchUp();
            return CsrArrays.of(copy.csr());
        });
    }

    @Override
    @SuppressWarnings("unchecked")
    public <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant) {
        return lane.call(() -> {
            ensureOpen();
            catchUp();
            AlgorithmSpec.Choice<Q, R> choice = algorithm.choose(GpuBackend.NAME, variant, base);
            GpuAlgorithm<Q, R> impl = (GpuAlgorithm<Q, R>) choice.implementation();
            if (copy.slack() && impl.layout() == GpuAlgorithm.Layout.OWN) {
                // MST beside a slack-form copy: its data follows the host's current version (merged on the host now
                // if edits are pending, the merge read from the log), with no compact copy made
                mutable.current();
                catchUp();
                choice = algorithm.choose(GpuBackend.NAME, variant, base);   // the default may depend on the version
                impl = (GpuAlgorithm<Q, R>) choice.implementation();
            }
            if (!impl.reads(copy.slack(), base.directed())) copy = reload();   // compact, for a reader of that form only
            return launcher(impl).run(query, choice.variant());
        });
    }

    /**
     * The launcher of {@code impl} on the current version, opened when not yet (memory checked first). Refused where
     * the version is stored wide and {@code impl} reads 32-bit offsets ({@link GpuAlgorithm#requireRunsOn}).
     */
    @SuppressWarnings("unchecked")
    private <Q, R> GpuLauncher<Q, R> launcher(GpuAlgorithm<Q, R> impl) {
        GpuLauncher<Q, R> launcher = (GpuLauncher<Q, R>) launchers.get(impl);
        if (launcher == null) {
            impl.requireRunsOn(base);
            DeviceGraph on = device();
            launcher = context.allocating(() -> {
                backend.requireFree(impl.deviceBytes(on.graph()), impl.variants().get(0) + " launcher on this graph");
                return impl.open().apply(on);
            });
            launchers.put(impl, launcher);
        }
        return launcher;
    }

    /**
     * Same arcs (row offsets and columns equal): the weights that differ are applied as re-weights of the host copy
     * and scattered on the device, and this handle is returned. Otherwise the next version is loaded afresh and
     * this one closed.
     */
    @Override
    public ResidentGraph replace(CsrGraph next, ComputeBackend owner) {
        CsrGraph now = mutable.current();
        if (owner == backend && next.directed() == now.directed() && sameArcs(now, next)) {
            mutable.apply(differences(now, next), 0, Long.MAX_VALUE);
            sync();
            return this;
        }
        return ResidentGraph.super.replace(next, owner);
    }

    /** The re-weights that turn {@code a} into {@code b} (same arcs). */
    private static EdgeEdits differences(CsrGraph a, CsrGraph b) {
        int[] off = a.rowOffsets(), col = a.columns();
        double[] wa = a.weights(), wb = b.weights();
        int count = 0;
        int[] u = new int[16], v = new int[16];
        double[] w = new double[16];
        for (int x = 0; x < a.vertexCount(); x++) {
            for (int e = off[x]; e < off[x + 1]; e++) {
                if (wa[e] == wb[e] || (!a.directed() && col[e] < x)) continue;
                if (count == u.length) {
                    u = Arrays.copyOf(u, 2 * count);
                    v = Arrays.copyOf(v, 2 * count);
                    w = Arrays.copyOf(w, 2 * count);
                }
                u[count] = x;
                v[count] = col[e];
                w[count++] = wb[e];
            }
        }
        return EdgeEdits.reweight(Arrays.copyOf(u, count), Arrays.copyOf(v, count), Arrays.copyOf(w, count));
    }

    private static boolean sameArcs(CsrGraph a, CsrGraph b) {
        if (a.wide() || b.wide()) return false;   // a wide graph's next version is loaded afresh
        return a.vertexCount() == b.vertexCount() && a.arcCount() == b.arcCount()
                && (a.rowOffsets() == b.rowOffsets() || Arrays.equals(a.rowOffsets(), b.rowOffsets()))
                && (a.columns() == b.columns() || Arrays.equals(a.columns(), b.columns()));
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("resident graph already closed");
    }

    /** Frees the device copy and launchers, then the lane. Safe to call twice. */
    @Override
    public synchronized void close() {
        if (closed) return;
        try {
            lane.run(() -> {
                closed = true;
                for (AutoCloseable a : attachments.values()) {
                    try {
                        a.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("closing " + a, e);
                    }
                }
                attachments.clear();
                launchers.closeAll();
                copy.close();
                copy = new DeviceCopy.Missing(this);
                cursor.close();
            });
        } finally {
            lane.close();
        }
    }
}
