package org.frontiergraph.kernels.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * A graph in device memory: the CSR and the launchers opened on it (the at-load ones from the start, others when a
 * query first names them), following the host's {@link MutableGraph}. Updates apply to the host copy; the device
 * copy catches up in one step before the next query ({@link #sync()}). On a compact copy, the arcs re-weighted since
 * the last sync are scattered (one small upload and one launch, however many updates they came from). A structural
 * change (and every later change) is applied on the device as edits of a copy in slack form
 * ({@link DeviceCsr#edited}: rows with room for more arcs, laid out once, then again only when a row fills up), with
 * no merge on the host, while the launchers in use run on that form (BFS and SSSP; {@link GpuAlgorithm#runsOnSlack});
 * MST's launchers (Boruvka's and ECL's edge lists, Prim's adjacency) read no CSR, only data of their own, which follows
 * the host's versions beside either form ({@link #followHost()}: moved on the device at each host merge or built again,
 * re-weights patched in place); a query for one that does neither (APSP, da2cf on a directed graph) makes the copy
 * compact again from the host's current version first. Where edits do not apply (new vertices, zero weights, weights the int32 form cannot hold, a batch of more
 * than a quarter of the arcs) a structural change is merged on the device from the rows it touched
 * ({@link DeviceCsr#merged}: the untouched rows move within the device, only the touched ones and the row offsets are
 * uploaded) and the launchers are opened again on the new version; the CSR is reloaded from the host only when the
 * host's merges were not kept or the old and new copies do not fit side by side. {@link #residentBytes()} counts
 * every device byte the CSR and the launchers hold; {@link #close()} frees them. Thread-safe: the graph's device work
 * runs on its own {@link GpuLane} (its stream, its lock: one query or update of this graph at a time, while other
 * graphs' run on theirs); a memory check and the allocations it admits run under the context's
 * {@link CudaContext#allocating}, so graphs growing or loading at once never spend the same free bytes.
 */
final class GpuResidentGraph implements ResidentGraph, DeviceEditStats, DeviceResident {
    private final GpuBackend backend;
    private final CudaContext context;
    private final GpuLane lane;
    private final AtomicLong ledger = new AtomicLong();
    private final MutableGraph mutable;
    private final List<GpuAlgorithm<?, ?>> atLoad;
    private final Map<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> launchers = new IdentityHashMap<>();
    /** Data kept beside the graph across versions ({@link DeviceResident#attachment}), closed with it. */
    private final Map<Class<?>, AutoCloseable> attachments = new java.util.LinkedHashMap<>();
    /** The version on the device: the host's base when last synced (a new object after a structural merge). */
    private CsrGraph graph;
    /**
     * The host version the launchers that follow the host ({@link GpuAlgorithm#followsHost}: MST's edge lists) hold:
     * {@link #graph} while the copy is compact; on a slack-form copy, the host's base as of the last
     * {@link #followHost()} (null: unknown, the host's current version is taken when one is opened).
     */
    private CsrGraph hostVersion;
    private DeviceCsr csr;
    private volatile boolean closed;
    /** Structural catch-ups done on the device, and reloads from the host (for tests and benchmarks). */
    private int deviceMerges, reloads, carried;
    /**
     * Updates are applied on the device as edits of a slack-form copy ({@link DeviceCsr#edited}) instead of through a
     * merge on the host, while the launchers in use run on that form ({@link GpuAlgorithm#runsOnSlack}). Off with
     * {@code -Dfrontier.gpu.edits-on-device=false}.
     */
    private final boolean editsOnDevice;
    /** Catch-ups applied as device edits (tests and benchmarks), and the last one's cost ({@link #lastDeviceEdit}). */
    private int deviceEdits;
    private final long[] lastEdit = new long[3];
    /** A batch larger than this fraction of the arcs is merged on the host instead (as cheap there, and compact). */
    private static final double MAX_EDIT_FRACTION = 0.25;
    private static final MutableGraph.WeightChanges ALL_WEIGHTS = new MutableGraph.WeightChanges(new int[0], true);

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
        mutable.trackWeightChanges();
        this.editsOnDevice = Boolean.parseBoolean(System.getProperty("frontier.gpu.edits-on-device", "true"));
        if (editsOnDevice) mutable.trackDeviceEdges();
        upload(graph);
    }

    /** Uploads {@code g} and opens the at-load launchers; all or nothing. */
    private void upload(CsrGraph g) {
        DeviceCsr fresh = new DeviceCsr(context, ledger, g);
        csr = fresh;
        graph = g;
        hostVersion = g;
        try {
            for (GpuAlgorithm<?, ?> impl : atLoad) launchers.put(impl, impl.open().apply(device()));
        } catch (RuntimeException e) {
            closeLaunchers();
            fresh.close();
            csr = null;
            throw e;
        }
    }

    private DeviceGraph device() {
        return new DeviceGraph(context, ledger, csr, graph, this::launcher);
    }

    @Override
    public MutableGraph mutable() { return mutable; }

    @Override
    public <T> T onDevice(java.util.function.Function<DeviceGraph, T> work) {
        return lane.call(() -> {
            ensureOpen();
            catchUp();
            if (csr == null) throw new GraphTooLargeException("the graph has no device copy");
            return work.apply(device());
        });
    }

    @Override
    public <T> T holding(java.util.function.Supplier<T> work) {
        return lane.call(work);
    }

    @Override
    public <T extends AutoCloseable> T attachment(Class<T> kind, java.util.function.Function<DeviceGraph, T> open) {
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

    /**
     * Brings the device copy to the host's current version. A structural change frees the old copy first, then
     * checks that the new one fits: when it does not, this graph has no device copy left and says so
     * ({@link org.frontiergraph.kernels.engine.GraphTooLargeException}); the caller moves it to the CPU engine.
     */
    private void catchUp() {
        ChangedEdges edges = editsOnDevice ? mutable.drainDeviceEdges() : null;
        if (edges != null && edges.size() > 0) Arrays.fill(lastEdit, 0);
        if (edges != null && csr != null && (csr.slack() || mutable.structureChangedSince(graph)) && editOnDevice(edges)) return;
        CsrGraph now = mutable.current();
        List<MutableGraph.Merge> merges = mutable.drainMerges();
        MutableGraph.WeightChanges changes = mutable.drainWeightChanges();
        if (csr != null && csr.slack()) graph = null;   // ahead of or apart from the host's arrays: reloaded below
        if (csr != null && now != graph && merges != null && !merges.isEmpty()) mergeOnDevice(merges);
        if (csr == null || now != graph) {
            reloads++;
            closeLaunchers();
            if (csr != null) csr.close();
            csr = null;
            reload(now);
            return;
        }
        if (changes.isEmpty()) return;
        csr.patchWeights(now, changes);
        List<GpuAlgorithm<?, ?>> stale = new ArrayList<>();
        launchers.forEach((impl, l) -> {
            if (!l.reweighted(now, changes)) stale.add(impl);
        });
        for (GpuAlgorithm<?, ?> impl : stale) launchers.remove(impl).close();
    }

    /**
     * The edges {@code edges} lists, applied on the device (slack form; the first time, the copy is laid out in it):
     * true when done, false when the host's path must do it (new vertices, a batch of more than a quarter of the
     * arcs, weights the device's int32 form cannot hold, zero weights, whose SSSP parents are traced on the host).
     * Launchers that do not run on the slack form are closed (a query for them reloads a compact copy first); the
     * others keep their buffers, or are opened again when the rows were laid out anew. The host's merges and
     * re-weighted arcs since the last catch-up are dropped: the edits hold them.
     */
    private boolean editOnDevice(ChangedEdges edges) {
        int n = mutable.vertexCount();
        if (edges.vertexCountBefore() != n || n != csr.vertexCount || csr.zeroWeights()) return false;
        if (edges.size() > MAX_EDIT_FRACTION * Math.max(1, csr.arcCount)) return false;
        if (edges.size() == 0) {   // nothing since the last catch-up (a slack-form copy asks every time)
            if (!csr.slack()) return false;   // a compact copy behind the host's arcs: the host's path brings it up
            followHost();
            return true;
        }
        long t0 = System.nanoTime();
        DeviceEdits ops = DeviceEdits.of(mutable, edges);
        if (ops.zero()) return false;
        long t1 = System.nanoTime();
        DeviceCsr next;
        try {
            next = csr.edited(ops, n);
            context.synchronize();
            lastEdit[0] = t1 - t0;
            lastEdit[1] = System.nanoTime() - t1;
            lastEdit[2] = ops.size();
        } catch (GraphTooLargeException e) {
            closeLaunchers();   // the copy may hold part of the edits: reloaded from the host
            csr.close();
            csr = null;
            return false;
        }
        if (next == null) return false;
        followHost();
        deviceEdits++;
        List<GpuAlgorithm<?, ?>> drop = new ArrayList<>();
        launchers.forEach((impl, l) -> {
            if (impl.followsHost()) return;   // they read no CSR and followed the host above
            if (next != csr || !impl.runsOnSlack(csr.directed) || !l.reweighted(graph, ALL_WEIGHTS)) drop.add(impl);
        });
        for (GpuAlgorithm<?, ?> impl : drop) launchers.remove(impl).close();
        csr = next;
        return true;
    }

    /**
     * Hands the host's merges and re-weights drained since the last call to the launchers that follow the host's
     * versions (MST's edge lists; the device copy takes the same changes as edits): each merge moves their
     * edge-indexed data on the device ({@link GpuLauncher#merged}), the re-weights patch it in place
     * ({@link GpuLauncher#reweighted}), so an MST query after edits neither makes the copy compact nor packs and
     * uploads the edge list again. One that cannot follow (rank keys, a directed graph's merge, merges the host did
     * not keep, a chain that does not start at its version) is closed and opened afresh by the next query that needs it.
     */
    private void followHost() {
        List<MutableGraph.Merge> merges = mutable.drainMerges();
        MutableGraph.WeightChanges changes = mutable.drainWeightChanges();
        List<GpuAlgorithm<?, ?>> following = new ArrayList<>();
        for (GpuAlgorithm<?, ?> impl : launchers.keySet()) if (impl.followsHost()) following.add(impl);
        if (merges == null) {   // the host dropped merges it could not keep: nothing to follow them with
            for (GpuAlgorithm<?, ?> impl : following) launchers.remove(impl).close();
            hostVersion = null;
            return;
        }
        for (MutableGraph.Merge m : merges) {
            if (m.before() != hostVersion) {   // not the version the launchers hold (never expected): open afresh
                for (GpuAlgorithm<?, ?> impl : following) launchers.remove(impl).close();
                following.clear();
            }
            DeviceGraph next = new DeviceGraph(context, ledger, csr, m.after(), this::launcher);
            for (java.util.Iterator<GpuAlgorithm<?, ?>> it = following.iterator(); it.hasNext(); ) {
                GpuAlgorithm<?, ?> impl = it.next();
                GpuLauncher<?, ?> l = launchers.remove(impl);
                GpuLauncher<?, ?> moved = null;
                try {
                    moved = context.allocating(() -> l.merged(next, m));   // a copy of the list beside the old one
                } catch (GraphTooLargeException e) {
                    // no room for the moved copy beside the old one: opened afresh when needed
                } finally {
                    l.close();
                }
                if (moved != null) {
                    launchers.put(impl, moved);
                    carried++;
                } else {
                    it.remove();
                }
            }
            hostVersion = m.after();
        }
        if (changes.isEmpty() || hostVersion == null) return;
        for (GpuAlgorithm<?, ?> impl : following) {
            if (!launchers.get(impl).reweighted(hostVersion, changes)) launchers.remove(impl).close();
        }
    }

    @Override
    public long[] lastDeviceEdit() { return lastEdit.clone(); }

    /** Catch-ups applied as edits of the slack-form copy on the device. */
    int deviceEdits() { return deviceEdits; }

    /** Whether the device copy is in slack form (tests). */
    boolean slackOnDevice() {
        return lane.call(() -> csr != null && csr.slack());
    }

    /**
     * Applies the host's merges to the device copy, oldest first, while each starts from the version on the device
     * and the new copy fits beside the old one; the launchers are opened again on the result. What it cannot apply
     * is left to the caller's reload.
     */
    private void mergeOnDevice(List<MutableGraph.Merge> merges) {
        context.allocating(() -> mergeOnDeviceChecked(merges));
    }

    /** {@link #mergeOnDevice}, inside {@link CudaContext#allocating}. */
    private void mergeOnDeviceChecked(List<MutableGraph.Merge> merges) {
        boolean merged = false;
        for (MutableGraph.Merge m : merges) {
            if (m.before() != graph || context.freeBytes() < DeviceCsr.bytesFor(m.after()) + GpuBackend.RESERVE_BYTES) break;
            DeviceCsr next;
            try {
                next = csr.merged(m);
            } catch (GraphTooLargeException e) {
                break;   // freed what it allocated; the reload frees the old copy first
            }
            DeviceCsr old = csr;
            csr = next;
            graph = m.after();
            hostVersion = graph;
            Map<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> kept = carry(m);
            closeLaunchers();
            launchers.putAll(kept);
            old.close();
            merged = true;
        }
        if (!merged) return;
        deviceMerges++;
        try {
            long need = 0;
            for (GpuAlgorithm<?, ?> impl : atLoad) if (!launchers.containsKey(impl)) need += impl.deviceBytes(graph);
            backend.requireFree(need, "launchers on the graph of " + graph.vertexCount() + " vertices and "
                    + graph.edgeCount() + " edges after updates");
            for (GpuAlgorithm<?, ?> impl : atLoad) if (!launchers.containsKey(impl)) launchers.put(impl, impl.open().apply(device()));
        } catch (RuntimeException e) {
            closeLaunchers();
            csr.close();
            csr = null;
            throw e;
        }
    }

    /** The launchers that carry their device data into the merged version (the old ones are closed by the caller). */
    private Map<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> carry(MutableGraph.Merge m) {
        Map<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> kept = new IdentityHashMap<>();
        try {
            for (Map.Entry<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> e : launchers.entrySet()) {
                GpuLauncher<?, ?> next = e.getValue().merged(device(), m);
                if (next != null) kept.put(e.getKey(), next);
            }
        } catch (GraphTooLargeException e) {
            kept.values().forEach(GpuLauncher::close);   // nothing carried: opened afresh when needed
            return new IdentityHashMap<>();
        }
        carried += kept.size();
        return kept;
    }

    /** Launchers carried through merges so far (tests). */
    int carried() { return carried; }

    /** Structural catch-ups merged on the device so far. */
    int deviceMerges() { return deviceMerges; }

    /** Copies loaded from the host after the first (structural catch-ups the device could not merge). */
    int reloads() { return reloads; }

    /** The device's arrays, downloaded (tests). */
    DeviceCsr.CsrArrays deviceArrays() {
        return lane.call(() -> {
            catchUp();
            return csr.download();
        });
    }

    @Override
    @SuppressWarnings("unchecked")
    public <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant) {
        return lane.call(() -> {
            ensureOpen();
            catchUp();
            AlgorithmSpec.Choice<Q, R> choice = algorithm.choose(GpuBackend.NAME, variant, graph);
            GpuAlgorithm<Q, R> impl = (GpuAlgorithm<Q, R>) choice.implementation();
            if (csr.slack() && impl.followsHost()) {
                // MST beside a slack-form copy: its edge list follows the host's current version (merged on the host
                // now if edits are pending), with no compact copy made
                CsrGraph now = mutable.current();
                followHost();
                if (hostVersion != now) {   // never expected: whatever follows the host is opened on now instead
                    for (GpuAlgorithm<?, ?> f : new ArrayList<>(launchers.keySet())) if (f.followsHost()) launchers.remove(f).close();
                    hostVersion = now;
                }
                choice = algorithm.choose(GpuBackend.NAME, variant, now);   // the default may depend on the version
                impl = (GpuAlgorithm<Q, R>) choice.implementation();
            }
            if (csr.slack() && !impl.runsOnSlack(csr.directed)) compact();
            return launcher(impl).run(query, choice.variant());
        });
    }

    /**
     * Replaces the slack-form copy by a compact one of the host's current version (an implementation that reads the
     * CSR but not in slack form, such as APSP's or Prim's, asked for it): merged on the host, uploaded.
     */
    private void compact() {
        CsrGraph now = mutable.current();
        mutable.drainMerges();
        mutable.drainWeightChanges();
        reloads++;
        closeLaunchers();
        csr.close();
        csr = null;
        reload(now);
    }

    /** Uploads {@code now} (no copy on the device) once its memory is checked, as one check-and-allocate. */
    private void reload(CsrGraph now) {
        context.allocating(() -> {
            long need = DeviceCsr.bytesFor(now);
            for (GpuAlgorithm<?, ?> impl : atLoad) need += impl.deviceBytes(now);
            backend.requireFree(need, "graph of " + now.vertexCount() + " vertices and " + now.edgeCount() + " edges after updates");
            upload(now);
        });
    }

    /** The launcher of {@code impl} on the current version, opened when not yet (memory checked first). */
    @SuppressWarnings("unchecked")
    private <Q, R> GpuLauncher<Q, R> launcher(GpuAlgorithm<Q, R> impl) {
        GpuLauncher<Q, R> launcher = (GpuLauncher<Q, R>) launchers.get(impl);
        if (launcher == null) {
            DeviceGraph device = device();
            if (impl.followsHost() && csr.slack()) {   // on the host's version, not the slack copy's stale one
                if (hostVersion == null) {
                    CsrGraph now = mutable.current();
                    followHost();
                    hostVersion = now;
                }
                device = new DeviceGraph(context, ledger, csr, hostVersion, this::launcher);
            }
            DeviceGraph on = device;
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
        return a.vertexCount() == b.vertexCount() && a.arcCount() == b.arcCount()
                && (a.rowOffsets() == b.rowOffsets() || Arrays.equals(a.rowOffsets(), b.rowOffsets()))
                && (a.columns() == b.columns() || Arrays.equals(a.columns(), b.columns()));
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("resident graph already closed");
    }

    private void closeLaunchers() {
        launchers.values().forEach(GpuLauncher::close);
        launchers.clear();
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
                closeLaunchers();
                if (csr != null) csr.close();
                csr = null;
            });
        } finally {
            lane.close();
        }
    }
}
