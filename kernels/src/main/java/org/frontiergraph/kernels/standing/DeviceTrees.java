package org.frontiergraph.kernels.standing;

import static org.frontiergraph.kernels.standing.RepairCounter.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import jcuda.driver.CUdeviceptr;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.DeviceGraph;
import org.frontiergraph.kernels.gpu.DeviceResident;
import org.frontiergraph.kernels.gpu.Kernel;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.WideGraphException;
import org.frontiergraph.kernels.sssp.KeyForm;
import org.frontiergraph.kernels.sssp.TreeSettles;

/**
 * Standing shortest-path and BFS trees kept in device memory beside a graph resident on the GPU, and repaired there
 * after each batch of updates (kernels in src/main/cuda/sssp_repair.cu; the method, KickStarter's trimming and a
 * relaxation from the affected region, and why it is exact, in that file and in {@link TreeRepair}). One instance per
 * resident graph ({@link #on}), holding every tree opened on it, of every kind (SSSP, and BFS with unit weights);
 * its standing answers ({@link DeviceTreeAnswers}) keep a host copy of each tree's answer.
 *
 * <p>A tree is a key and a parent per vertex on the device (12 bytes a vertex), in the graph's ledger (its resident
 * bytes) until {@link #close(DeviceTree)} or the graph's close. A repair of a batch ({@link #repair}) brings the device copy
 * up to date (the graph's {@code sync}), screens every tree on the host against the batch's changed arcs
 * (the batch's {@link Screen}, on the caller's host copy of each answer: a tree the batch cannot touch costs no launch),
 * uploads the changed arcs once, and repairs the touched trees in groups of one key form, in three launches a group:
 * one {@code repair_prepare} for all its trees (invalidate, pull, seed; each tree in its own slice of the grid, read
 * from a table of its arrays, so a group pays the grid barriers of its deepest tree once), one settle
 * ({@link TreeSettles.SideBySide}: near-far relaxing every tree's slice from its seeds side by side,
 * {@link RepairPolicy#sideBySide})
 * and one {@code repair_finish} (parents, and the DELTA compacted on the device). A group of one tree, or with
 * side by side off, runs the three launches tree by tree, with each tree's own {@code sssp_async_seeded}
 * ({@link TreeSettles.Alone}: the asynchronous SSSP's kernel, the same relax loop the queries use). A group shares an
 * arena for its DELTAs (about {@link #ARENA_BYTES}), so it costs two copies back (the counters, then the DELTAs: only
 * the changed vertices cross PCIe, decoded into each tree's arrays on all cores, {@link TreeDeltas}), whatever its
 * size.
 *
 * <p>Where the device cannot give an exact tree, the host repairs it and the device copy is replaced by the host's
 * answer ({@link TreeOutcome.How#HOST}, through the caller's {@link HostRepair}): a vertex left without a parent.
 * (Vertices whose tight in-arcs all come from vertices of their own distance, by zero weights or sums that round, are
 * adopted on the device in rounds, which always completes by the method's argument: the fallback is a safety net.) A
 * batch that invalidates more than {@link #maxInvalidFraction} of the vertices is recomputed on the device from the
 * source instead ({@link TreeOutcome.How#RECOMPUTED}), through the same settle and DELTA. Device memory that runs out
 * fails the call with {@link org.frontiergraph.kernels.engine.GraphTooLargeException} (the caller recomputes).
 *
 * <p>Thread-safe: every device call holds the graph's device ({@link DeviceResident#onDevice}).
 */
public final class DeviceTrees implements AutoCloseable {
    /** By default a batch that invalidates more than this fraction of the vertices is recomputed (on the device). */
    public static final double MAX_INVALID_FRACTION = 0.5;
    /** Bytes of the DELTA arena: a group of trees holds its DELTAs (16 bytes a changed vertex, n at most a tree). */
    static final long ARENA_BYTES = 128L << 20;
    /** Entries of the per-block counts of {@code repair_finish} (at least its grid). */
    static final int BLOCK_COUNTS = 1 << 14;
    private static final Variant SIDE_BY_SIDE_VARIANT = new Variant("side-by-side", Map.of());

    /** The host's repair of one tree, for {@link TreeOutcome.How#HOST}: its new values and parents and the changed vertices. */
    @FunctionalInterface
    public interface HostRepair {
        /** Repairs the caller's host copy of {@code tree} on {@code graph} (the current version, after the batch). */
        HostResult repair(CsrGraph graph, DeviceTree tree);
    }

    /** A host repair's answer: values (+Inf unreached) and parents of every vertex, and the changed vertices. */
    public record HostResult(double[] values, int[] parents, int[] changed) {}

    private final DeviceResident resident;
    private final MutableGraph mutable;
    private final CudaContext context;
    private final RepairPolicy policy;
    private final Variant settleVariant;
    private final DeviceGraph allocator;
    private final Set<DeviceTree> trees = Collections.newSetFromMap(new IdentityHashMap<>());
    /**
     * Scratch of {@code capacity} vertices for a tree repaired alone: the keys it works on (settled by its own
     * {@code sssp_async_seeded}), marks, ancestors or parent candidates, the invalid list.
     */
    private int capacity;
    private DeviceBuffer workKeys, mark, anc, list;
    /**
     * Side by side: each tree of a group keeps its own marks, ancestors and list from prepare to finish (slices of
     * capacity); the keys it works on are its slice of the settle's.
     */
    private DeviceBuffer sideMarks, sideAnc, sideList;
    private int sideTrees;
    private DeviceBuffer blockCounts, cursor, busy, counters, arena;
    /** The group's RepairTree table (TREE_WORDS pointers a tree) and sources. */
    private DeviceBuffer table, sources;
    /** A patch's vertices, keys (two halves each) and parents ({@link #patch}). */
    private DeviceBuffer patchInts;
    private int counterTrees;
    private long arenaPairs;
    /** The batch's changed arcs. */
    private final ChangedArcs arcs;
    private double maxInvalidFraction = MAX_INVALID_FRACTION;
    private boolean closed;

    private DeviceTrees(DeviceResident resident, MutableGraph mutable, DeviceGraph device, RepairPolicy policy) {
        this.resident = resident;
        this.mutable = mutable;
        this.context = device.context();
        this.allocator = device;
        this.policy = policy;
        this.settleVariant = policy.settleVariant();
        this.arcs = new ChangedArcs(device);
    }

    /**
     * The standing trees of {@code graph}, when it lives on the GPU (empty on the CPU engine: repair on the host): one
     * instance per resident graph, repairing with the policy of the first call.
     */
    public static Optional<DeviceTrees> on(ResidentGraph graph, RepairPolicy policy) {
        if (!(graph instanceof DeviceResident d)) return Optional.empty();
        return Optional.of(d.attachment(DeviceTrees.class, dev -> new DeviceTrees(d, graph.mutable(), dev, policy)));
    }

    /**
     * Above this fraction of the vertices invalidated by a batch, a tree is recomputed on the device from its source
     * instead of repaired (default {@link #MAX_INVALID_FRACTION}; 0: always recompute a tree a batch invalidates a
     * vertex of, 1: never).
     */
    public void maxInvalidFraction(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) throw new IllegalArgumentException("fraction " + fraction + " not in [0, 1]");
        maxInvalidFraction = fraction;
    }

    /**
     * A standing tree holding {@code values} (distances, or hop counts as doubles; +Inf unreached) and {@code parents}
     * (the source for itself, -1 unreached): the exact answer from {@code source} on the graph's current version (or on
     * the version a batch still to be repaired starts from: the next {@link #repair} takes it on from there, its
     * changes from that version's vertex count). Uploaded (12 bytes a vertex).
     *
     * @throws IllegalArgumentException when the arrays differ in length or have more entries than the graph vertices
     */
    public DeviceTree open(int source, boolean unitWeights, double[] values, int[] parents) {
        return resident.onDevice(dev -> {
            ensureOpen();
            DeviceTree t = new DeviceTree(source, unitWeights);
            upload(t, dev, values, parents);
            trees.add(t);
            return t;
        });
    }

    /** Replaces {@code tree}'s values by {@code values} and {@code parents} (an answer as {@link #open} takes one). */
    public void reset(DeviceTree tree, double[] values, int[] parents) {
        resident.onDevice(dev -> {
            ensureOpen();
            checkOwn(tree);
            upload(tree, dev, values, parents);
            return null;
        });
    }

    /**
     * Writes {@code values} and {@code parents} at {@code vertices} into {@code tree}: the caller's answer changed
     * there (a repair on the host), and the tree holds it again. O(k); vertices must be below
     * {@link DeviceTree#vertexCount()} (a grown answer: {@link #reset}).
     */
    public void patch(DeviceTree tree, int[] vertices, double[] values, int[] parents) {
        if (vertices.length != values.length || vertices.length != parents.length) throw new IllegalArgumentException("lengths differ");
        int k = vertices.length;
        int[] packed = new int[4 * k];
        for (int i = 0; i < k; i++) tree.pack(packed, k, i, vertices[i], values[i], parents[i]);
        patchPacked(List.of(tree), List.of(packed));
    }

    /**
     * As {@link #patch} for each of {@code ts}, patch j packed by {@link DeviceTree#pack} (on any thread beforehand): all
     * in one upload (a heavy batch patches tens of trees; an upload of each waited for the last), a launch per tree.
     */
    void patchPacked(List<DeviceTree> ts, List<int[]> packed) {
        int ints = 0;
        for (int[] p : packed) ints = Math.addExact(ints, p.length);
        if (ints == 0) return;
        int[] all = new int[ints];
        for (int j = 0, at = 0; j < packed.size(); at += packed.get(j).length, j++) System.arraycopy(packed.get(j), 0, all, at, packed.get(j).length);
        long bytes = 4L * ints;
        resident.holding(() -> {
            ensureOpen();
            for (DeviceTree t : ts) checkOwn(t);
            patchInts = grow(patchInts, bytes);   // kept for the purpose: no allocation, no wait
            patchInts.upload(all);
            for (int j = 0, at = 0; j < ts.size(); at += packed.get(j).length, j++) {
                int k = packed.get(j).length / 4;
                CUdeviceptr p = patchInts.pointer().withByteOffset(4L * at);   // vertices, keys in halves, parents
                if (k > 0) context.module("sssp_repair").kernel("repair_patch").launch(Kernel.blocksFor(k), ts.get(j).keys,
                        ts.get(j).parents, p, p.withByteOffset(4L * k), p.withByteOffset(12L * k), k);
            }
            return null;
        });
    }

    /** Frees {@code tree}'s device memory; it must not be used again. Safe to call twice, and after {@link #close()}. */
    public void close(DeviceTree tree) {
        resident.holding(() -> {
            if (trees.remove(tree)) free(tree);
            return null;
        });
    }

    /** Trees open. */
    public int size() {
        return resident.holding(trees::size);
    }

    /** Device bytes of the trees and the scratch (all in the graph's resident bytes). */
    public long deviceBytes() {
        return resident.holding(() -> {
            long sum = 0;
            for (DeviceTree t : trees) sum += t.deviceBytes();
            for (DeviceBuffer b : scratch()) if (b != null) sum += b.bytes();
            return sum;
        });
    }

    /**
     * Brings {@code batch}'s trees up to date with the graph's current version after {@code changes} (the changes
     * since their last repair or open: each tree must hold the exact answer on the version before them, with
     * {@code changes.vertexCountBefore()} vertices). {@code touched} screens each tree ({@code screen}, the batch's
     * {@link Screen} on the current version, on the caller's host copy of the answer): false skips it
     * ({@link TreeOutcome.How#UNTOUCHED}: it must be unchanged by the batch). {@code host} repairs a tree on the host
     * where the device cannot ({@link TreeOutcome.How#HOST}). Entry i of the result is {@code batch.get(i)}'s outcome.
     *
     * @throws org.frontiergraph.kernels.engine.GraphTooLargeException when device memory runs out (the trees that
     *         were not repaired then hold unknown values: reset or close them)
     * @throws WideGraphException on a graph held in the wide form (the kernels read int32 row offsets): recompute
     */
    public TreeOutcome[] repair(List<DeviceTree> batch, ChangedEdges changes, Screen screen, BiPredicate<Screen, DeviceTree> touched,
                            HostRepair host) {
        return resident.onDevice(dev -> {
            ensureOpen();
            if (dev.csr().wide) throw new WideGraphException("DeviceTrees.repair", dev.csr().arcCount, "recompute its trees");
            for (DeviceTree t : batch) {
                checkOwn(t);
                if (t.n != changes.vertexCountBefore()) {
                    throw new IllegalArgumentException("tree from " + t.source + " holds " + t.n
                            + " vertices; the changes start from " + changes.vertexCountBefore());
                }
            }
            return repairOnDevice(dev, batch, changes, screen, touched, host);
        });
    }

    private TreeOutcome[] repairOnDevice(DeviceGraph dev, List<DeviceTree> batch, ChangedEdges changes, Screen screen,
                                     BiPredicate<Screen, DeviceTree> touched, HostRepair host) {
        TreeOutcome[] out = new TreeOutcome[batch.size()];
        RepairPhases phases = policy.phases() ? new RepairPhases(context) : null;
        List<Integer> work = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            if (touched.test(screen, batch.get(i))) work.add(i);
            else out[i] = TreeOutcome.UNTOUCHED;
        }
        if (phases != null) phases.lapHost(RepairPhases.SCREEN);
        if (work.isEmpty()) {
            if (phases != null) phases.close();
            return out;
        }
        DeviceCsr csr = dev.csr();
        int n = csr.vertexCount;
        TreeSettles.Alone settle = TreeSettles.alone(dev);
        if (settle.vertexCount() != n) throw new IllegalStateException("the settle launcher holds " + settle.vertexCount() + " vertices, the graph " + n);
        ensureScratch(n);
        arcs.upload(screen, csr.intWeights(), work.stream().anyMatch(i -> batch.get(i).unit),
                work.stream().anyMatch(i -> !batch.get(i).unit));
        for (int i : work) follow(batch.get(i), dev);
        TreeSettles.SideBySide multi = work.size() >= 2 && policy.sideBySide() ? TreeSettles.sideBySide(dev) : null;
        int group = (int) Math.max(1, Math.min(work.size(), ARENA_BYTES / (16L * Math.max(1, n))));
        if (multi != null) group = Math.min(group, multi.capacity());
        group = Math.min(group, context.multiprocessors());   // a block at least for each tree of a launch
        ensureGroup(group, (long) group * n);
        long maxInvalid = (long) Math.floor(maxInvalidFraction * n);
        CsrGraph[] hostGraph = new CsrGraph[1];
        if (phases != null) phases.lapHost(RepairPhases.SETUP);
        // trees of one key form next to each other (a side-by-side settle runs one form), in the batch's order otherwise
        List<Integer> order = new ArrayList<>(work);
        order.sort(java.util.Comparator.comparing(i -> batch.get(i).form.suffix()));
        for (int from = 0; from < order.size(); ) {
            KeyForm form = batch.get(order.get(from)).form;
            int to = from;
            while (to < order.size() && to - from < group && batch.get(order.get(to)).form == form) to++;
            List<Integer> part = order.subList(from, to);
            from = to;
            cursor.fill32(0, 2, 0);
            List<DeviceTree> ts = new ArrayList<>();
            for (int k : part) ts.add(batch.get(k));
            if (multi != null && ts.size() >= 2) launchSideBySide(ts, csr, multi, maxInvalid, screen.arcs(), phases);
            else launchOneByOne(ts, csr, settle, maxInvalid, screen.arcs(), phases);
            if (phases != null) phases.lapHost(RepairPhases.LAUNCH);
            long[] c = new long[COUNTERS * part.size()];
            counters.download(c);
            if (phases != null) for (int j = 0; j < part.size(); j++) phases.add(c, COUNTERS * j);
            long total = 0;
            for (int j = 0; j < part.size(); j++) total += CHANGED.of(c, COUNTERS * j);
            TreeDeltas d = new TreeDeltas(part.size());
            for (int j = 0; j < part.size(); j++) {
                int i = part.get(j);
                DeviceTree t = batch.get(i);
                int at = COUNTERS * j;
                if (ORPHANS.of(c, at) > ADOPTED.of(c, at)) {   // a vertex left without a parent: the host repairs the tree
                    if (hostGraph[0] == null) hostGraph[0] = mutable.current();
                    HostResult r = host.repair(hostGraph[0], t);
                    upload(t, dev, r.values(), r.parents());
                    out[i] = new TreeOutcome(TreeOutcome.How.HOST, r.changed(), null, null, stats(c, at));
                    continue;
                }
                d.add(j, t.form, BASE.of(c, at), (int) CHANGED.of(c, at));
            }
            // the DELTAs straight from the pinned staging buffers into each tree's arrays, run by run (on all cores
            // for a large copy): a batch of 10^4 re-weights changes about 10^5 vertices of each of 100 NY trees
            if (total > 0) arena.stream(0, 2 * total, 2, d::accept);
            for (int j = 0; j < part.size(); j++) {
                if (d.vertices[j] == null) continue;
                int at = COUNTERS * j;
                TreeOutcome.How how = RepairCounter.how(c, at, batch.get(part.get(j)).source);
                out[part.get(j)] = new TreeOutcome(how, d.vertices[j], d.values[j], d.parents[j], stats(c, at));
            }
            if (phases != null) phases.lapHost(RepairPhases.DECODE);
        }
        if (phases != null) phases.print(work.size(), batch.size(), n);
        return out;
    }

    /**
     * Queues the repair of {@code ts} (trees of one key form; counters slots 0, 1, ...) tree by tree: its prepare, its
     * own asynchronous settle ({@link TreeSettles.Alone}) and its finish, sharing the scratch.
     */
    private void launchOneByOne(List<DeviceTree> ts, DeviceCsr csr, TreeSettles.Alone settle, long maxInvalid, int arcs,
                                RepairPhases phases) {
        CUdeviceptr[] table = new CUdeviceptr[TREE_WORDS * ts.size()];
        for (int j = 0; j < ts.size(); j++) {
            DeviceTree t = ts.get(j);
            row(table, j, t, workKeys.pointer(), mark.pointer(), anc.pointer(), list.pointer(), settle.seedList(),
                    settle.seedMarks());
        }
        uploadTable(ts, table);
        for (int j = 0; j < ts.size(); j++) {
            DeviceTree t = ts.get(j);
            if (phases != null) phases.start(0);
            launchPrepare(t.form, csr, j, 1, maxInvalid, arcs);
            if (phases != null) phases.next(0);
            settle.settle(workKeys, counterSlot(j).withByteOffset(8L * SEEDS.slot), t.form, settleVariant);
            if (phases != null) phases.next(1);
            launchFinish(t.form, csr, j, 1);
            if (phases != null) {
                phases.stop(2);
                phases.lap();
            }
        }
    }

    /**
     * Queues the repair of {@code ts} (2 or more trees of one key form, at most the side-by-side capacity; counters
     * slots 0, 1, ...) in three launches: one prepare for all (each tree in its slice of the grid, working on its
     * slice of the settle's keys), one settle ({@link TreeSettles.SideBySide#settle}), one finish (parents, the DELTAs, and the
     * changed keys and parents written into the trees). Each tree has its own scratch from prepare to finish (the side scratch).
     */
    private void launchSideBySide(List<DeviceTree> ts, DeviceCsr csr, TreeSettles.SideBySide multi, long maxInvalid, int arcs,
                                  RepairPhases phases) {
        int k = ts.size();
        KeyForm form = ts.get(0).form;
        ensureSide(k);
        CUdeviceptr[] table = new CUdeviceptr[TREE_WORDS * k];
        for (int j = 0; j < k; j++) {
            row(table, j, ts.get(j), multi.keys(j), side(sideMarks, 4, j), side(sideAnc, 4, j), side(sideList, 4, j),
                    multi.seedList(j), multi.seedMarks(j));
        }
        uploadTable(ts, table);
        if (phases != null) phases.start(0);
        launchPrepare(form, csr, 0, k, maxInvalid, arcs);
        if (phases != null) phases.next(0);
        multi.settle(k, counterSlot(0).withByteOffset(8L * SEEDS.slot), COUNTERS, form, SIDE_BY_SIDE_VARIANT);
        if (phases != null) phases.next(1);
        launchFinish(form, csr, 0, k);
        if (phases != null) {
            phases.stop(2);
            phases.lap();
        }
    }

    /** Entry {@code j} of a RepairTree table (sssp_repair.cu's field order): tree {@code t} and its scratch. */
    private void row(CUdeviceptr[] table, int j, DeviceTree t, CUdeviceptr workKeys, CUdeviceptr marks, CUdeviceptr ancestors,
                     CUdeviceptr listed, CUdeviceptr far, CUdeviceptr farMarks) {
        CUdeviceptr[] r = {t.keys.pointer(), workKeys, t.parents.pointer(), marks, ancestors, listed, far, farMarks,
                counterSlot(j)};
        System.arraycopy(r, 0, table, TREE_WORDS * j, TREE_WORDS);
    }

    /** Uploads a group's RepairTree table and its trees' sources. */
    private void uploadTable(List<DeviceTree> ts, CUdeviceptr[] rows) {
        table = grow(table, 8L * rows.length);
        table.uploadPointers(0, rows);
        int[] s = new int[ts.size()];
        for (int j = 0; j < s.length; j++) s[j] = ts.get(j).source;
        sources = grow(sources, 4L * s.length);
        sources.upload(s);
    }

    /** Queues {@code repair_prepare} for {@code trees} trees from entry {@code first} of the table. */
    private void launchPrepare(KeyForm form, DeviceCsr csr, int first, int trees, long maxInvalid, int arcCount) {
        boolean unit = form == KeyForm.UNIT;
        context.module("sssp_repair").kernel(form.entry("repair_prepare")).launchCooperative(policy.blocksPerSm(),
                csr.rowOffsets, csr.columns, unit ? csr.columns : csr.weights(), csr.vertexCount, csr.directed ? 1 : 0,
                tableAt(first), sourcesAt(first), trees, arcs.tails(), arcs.heads(), arcs.weights(form), arcCount, maxInvalid, busy,
                policy.shiftPasses());
    }

    /** Queues {@code repair_finish} for {@code trees} trees from entry {@code first} of the table. */
    private void launchFinish(KeyForm form, DeviceCsr csr, int first, int trees) {
        boolean unit = form == KeyForm.UNIT;   // unit: the weights are never read (the kernels' UnitWeights)
        context.module("sssp_repair").kernel(form.entry("repair_finish")).launchCooperative(policy.blocksPerSm(),
                csr.rowOffsets, csr.columns, unit ? csr.columns : csr.weights(), csr.vertexCount, csr.directed ? 1 : 0,
                tableAt(first), sourcesAt(first), trees, cursor, busy, blockCounts, arena);
    }

    private CUdeviceptr tableAt(int j) {
        return table.pointer().withByteOffset(8L * TREE_WORDS * j);
    }

    private CUdeviceptr sourcesAt(int j) {
        return sources.pointer().withByteOffset(4L * j);
    }

    /** Counters of slot {@code j} of the group. */
    private CUdeviceptr counterSlot(int j) {
        return counters.pointer().withByteOffset(8L * COUNTERS * j);
    }

    /** DeviceTree j's slice of a side buffer of {@code width}-byte entries. */
    private CUdeviceptr side(DeviceBuffer b, int width, int j) {
        return b.pointer().withByteOffset((long) width * j * capacity);
    }

    /** Side scratch for {@code trees} trees of {@link #capacity} vertices. */
    private void ensureSide(int trees) {
        if (sideTrees >= trees && sideMarks != null) return;
        freeSide();
        long slots = (long) trees * capacity;
        DeviceBuffer[] b = allocator.allocate(4L * slots, 4L * slots, 4L * slots);
        sideMarks = b[0];
        sideAnc = b[1];
        sideList = b[2];
        sideTrees = trees;
    }

    private void freeSide() {
        for (DeviceBuffer b : new DeviceBuffer[] {sideMarks, sideAnc, sideList}) if (b != null) b.close();
        sideMarks = sideAnc = sideList = null;
        sideTrees = 0;
    }

    /** The counters of the tree whose slots start at {@code at}, as an outcome reports them. */
    private static Map<String, Long> stats(long[] c, int at) {
        return Map.of("invalidated", INVALID.of(c, at), "seeds", SEEDS.of(c, at), "rounds", ROUNDS.of(c, at),
                "orphans", ORPHANS.of(c, at), "adopted", ADOPTED.of(c, at), "shifted", SHIFTED.of(c, at),
                "cycles", RECOMPUTE.of(c, at) == RepairCounter.CYCLE ? 1L : 0L);
    }

    /** The tree follows the graph: new vertices (unreached), and the key form of the graph's weights now. */
    private void follow(DeviceTree t, DeviceGraph dev) {
        DeviceCsr csr = dev.csr();
        int n = csr.vertexCount;
        KeyForm form = KeyForm.of(t.unit, csr.intWeights());
        if (form != t.form) {
            context.module("sssp_repair").kernel("repair_convert").launch(Kernel.blocksFor(t.n), t.keys, t.n,
                    form == KeyForm.F64 ? 1 : 0);
            t.form = form;
        }
        if (n > t.n) {
            DeviceBuffer[] b = dev.allocate(8L * n, 4L * n);
            context.module("sssp_repair").kernel("repair_grow").launch(Kernel.blocksFor(n), t.keys, t.parents, t.n,
                    b[0], b[1], n, form.infinity());
            free(t);
            t.keys = b[0];
            t.parents = b[1];
            t.n = n;
        }
    }

    /**
     * Writes values and parents into the tree (allocated to their length: the graph's vertices, or fewer for an answer
     * on a version before vertices were added, which the next repair grows), in the graph's form.
     */
    private void upload(DeviceTree t, DeviceGraph dev, double[] values, int[] parents) {
        int n = values.length;
        if (parents.length != n || n > dev.csr().vertexCount) {
            throw new IllegalArgumentException("an answer of " + values.length + " values and " + parents.length
                    + " parents for a graph of " + dev.csr().vertexCount + " vertices");
        }
        if (t.keys == null || t.n != n) {
            DeviceBuffer[] b = dev.allocate(8L * n, 4L * n);
            free(t);
            t.keys = b[0];
            t.parents = b[1];
            t.n = n;
        }
        t.form = KeyForm.of(t.unit, dev.csr().intWeights());
        int[] words = new int[2 * n];   // little-endian halves: raw key bits, exactly
        for (int v = 0; v < n; v++) {
            long k = t.form.key(values[v]);
            words[2 * v] = (int) k;
            words[2 * v + 1] = (int) (k >>> 32);
        }
        t.keys.upload(words);
        t.parents.upload(parents);
    }

    /** {@code b}, or a larger buffer (at least {@code bytes}, growing geometrically) in place of it. */
    private DeviceBuffer grow(DeviceBuffer b, long bytes) {
        return ChangedArcs.grow(allocator, b, bytes);
    }

    /** Scratch for graphs of {@code n} vertices. */
    private void ensureScratch(int n) {
        if (capacity >= n && workKeys != null) return;
        for (DeviceBuffer b : new DeviceBuffer[] {workKeys, mark, anc, list}) if (b != null) b.close();
        workKeys = mark = anc = list = null;
        freeSide();   // sliced by the capacity: allocated again at the next use
        int size = n + (n >> 4);   // head room: graphs grow a few vertices at a time
        DeviceBuffer[] b = allocator.allocate(8L * size, 4L * size, 4L * size, 4L * size);
        workKeys = b[0];
        mark = b[1];
        anc = b[2];
        list = b[3];
        capacity = size;
        if (blockCounts == null) {
            DeviceBuffer[] c = allocator.allocate(4L * BLOCK_COUNTS, 16, 8L * GROUP_COUNTERS);
            blockCounts = c[0];
            cursor = c[1];
            busy = c[2];
        }
    }

    /** Counters for {@code trees} trees and an arena of {@code pairs} pairs. */
    private void ensureGroup(int trees, long pairs) {
        if (counterTrees < trees) {
            if (counters != null) counters.close();
            counters = null;
            counters = allocator.allocate(8L * COUNTERS * trees)[0];
            counterTrees = trees;
        }
        if (arenaPairs < pairs) {
            if (arena != null) arena.close();
            arena = null;
            arena = allocator.allocate(16L * pairs)[0];
            arenaPairs = pairs;
        }
    }

    private List<DeviceBuffer> scratch() {
        List<DeviceBuffer> all = new ArrayList<>(Arrays.asList(workKeys, mark, anc, list, blockCounts, cursor, busy, counters,
                arena, sideMarks, sideAnc, sideList, patchInts, table, sources));
        all.addAll(arcs.buffers());
        return all;
    }

    private void free(DeviceTree t) {
        if (t.keys != null) t.keys.close();
        if (t.parents != null) t.parents.close();
        t.keys = null;
        t.parents = null;
    }

    private void checkOwn(DeviceTree t) {
        if (!trees.contains(t)) throw new IllegalArgumentException("tree from " + t.source + " is closed or not of this graph");
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("the standing trees of this graph are closed");
    }

    /** Frees every tree and the scratch (with the graph). */
    @Override
    public void close() {
        resident.holding(() -> {
            if (closed) return null;
            closed = true;
            for (DeviceTree t : trees) free(t);
            trees.clear();
            for (DeviceBuffer b : scratch()) if (b != null) b.close();
            return null;
        });
    }
}
