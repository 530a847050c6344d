package org.frontiergraph.kernels.standing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.TreeAnswer;

/**
 * Standing answers of graphs that may live on the GPU: as {@link HostStandings}, and each tree answer of a graph on the
 * GPU keeps a tree in device memory ({@link DeviceTreeAnswers}): opened from the answer when it is computed, reset when
 * it is replaced (a recompute, a RESYNC), patched lazily where the host repaired the answer, repaired there (only the
 * changed vertices copied back into the answer) when the host's repair gives up, and freed when the answer goes. A
 * batch of {@link RepairPolicy#deviceFirstArcs} changed arcs or more goes to the device first, where at least two
 * touched answers keep a tree there (the host's attempt would mostly run up to its budget and give up); an answer with
 * a tree gives up on the host {@link RepairPolicy#deviceBudgetDivisor} times sooner (the device repairs the batch's
 * heavy ones together, where the host would spend up to a recompute's time on each). A graph that no longer fits the
 * device, or a device repair that fails, leaves them to the caller's recompute (not intact after a failure: the
 * answers may be half changed).
 *
 * <p>A graph held in the wide form ({@link org.frontiergraph.kernels.graph.CsrGraph#wide()}: 64-bit row offsets) keeps
 * no tree: the repair kernels read int32 offsets. Its answers stay on the host ({@link Standing.Placed#HOST}), where
 * the host's repairs give up on it at once, so the caller recomputes each answer a batch touches on the GPU (the
 * kernels built for 64-bit offsets) and compares it with the previous one; trees opened while the graph was narrow
 * are freed at its first batch in the wide form, the answers left intact (a touched one is recomputed).
 */
final class DeviceStandings extends HostStandings {
    DeviceStandings(RepairPolicy policy) {
        super(policy);
    }

    @Override
    public <A> void reset(Standing<A> s, A answer, ResidentGraph engine) {
        super.reset(s, answer, engine);
        try {
            if (engine != null && engine.graph().wide()) {   // no tree: the caller recomputes on the GPU
                close(s);
                return;
            }
            if (s.hasTreeOn(engine)) {
                s.stale = null;
                s.restale = false;
                resetTree(answers(engine), s, answer);
                s.placed = Standing.Placed.TREE_KEPT;
                return;
            }
            close(s);
            if (engine == null || !engine.backend().equals("gpu") || !(s.kind instanceof TreeKind<?>)) return;
            s.tree = DeviceTreeAnswers.on(engine, policy).map(d -> openTree(d, answer)).orElse(null);
            s.treeOn = s.tree == null ? null : engine;
            if (s.tree != null) s.placed = Standing.Placed.TREE_OPENED;
        } catch (RuntimeException e) {
            s.placed = Standing.Placed.REFUSED;
            s.refusal = e;
            try {
                close(s);
            } catch (RuntimeException ignored) {   // forgotten all the same; the refusal reported is the first failure
            }
        }
    }

    @Override
    public void close(Standing<?> s) {
        if (s.tree == null) return;
        try {
            DeviceTreeAnswers d = DeviceTreeAnswers.on(s.treeOn, policy).orElse(null);
            if (d != null && s.tree.of(d.trees())) d.close(s.tree);   // nothing when the graph's device copy is gone
        } finally {
            s.dropTree();
        }
    }

    @Override
    List<Integer> hostFirst(List<Standing<?>> answers, List<Integer> touched, Batch batch) {
        if (!policy.deviceFirst(batch.changes().size())) return touched;
        List<Integer> first = touched.stream().filter(i -> answers.get(i).hasTreeOn(batch.resident())).toList();
        if (first.size() < 2) return touched;
        return touched.stream().filter(i -> !answers.get(i).hasTreeOn(batch.resident())).toList();
    }

    @Override
    int divisor(Standing<?> s, Batch batch, int divisor) {
        return s.hasTreeOn(batch.resident()) ? Math.max(divisor, policy.deviceBudgetDivisor()) : divisor;
    }

    /** The host repaired {@code s} at {@code delta}: its tree on the device is behind there. */
    @Override
    void repairedOnHost(Standing<?> s, Delta delta) {
        int[] vertices = delta.vertices();
        if (s.tree == null || s.restale || vertices.length == 0) return;
        int n = s.tree.tree().vertexCount();
        if (s.stale == null) s.stale = new BitSet(n);
        for (int v : vertices) {
            if (v >= n) {   // a new vertex: the tree is uploaded again
                s.restale = true;
                s.stale = null;
                return;
            }
            s.stale.set(v);
        }
        if (s.stale.cardinality() > n / 8) {   // cheaper uploaded whole than scattered
            s.restale = true;
            s.stale = null;
        }
    }

    /**
     * The repairs the host gave up on (or left to the device), done on the device where the answer has a tree there
     * instead of a recompute: the trees first brought level with their answers (the vertices the host's repairs
     * changed since, or the whole answer), then repaired together, only their changed vertices copied back.
     */
    @Override
    int repairOnDevice(Step<?>[] steps, Batch batch, Screen screen) throws DeviceFailure {
        ResidentGraph resident = batch.resident();
        if (batch.graph().wide()) {   // grown into the wide form: every tree goes; the touched answers are recomputed
            for (Step<?> t : steps) closeQuietly(t.s);
            return 0;
        }
        List<Step<?>> gaveUp = new ArrayList<>();
        for (Step<?> t : steps) if (t.repaired == null && t.intact && t.s.hasTreeOn(resident)) gaveUp.add(t);
        if (gaveUp.isEmpty()) return 0;
        try {
            long t0 = System.nanoTime();
            if (batch.synced().get() != resident) {   // moved to the CPU engine: the trees went with the device copy
                for (Step<?> t : gaveUp) t.s.dropTree();
                return gaveUp.size();
            }
            long t1 = System.nanoTime();
            DeviceTreeAnswers d = answers(resident);
            List<DeviceTreeAnswers.Standing<?>> trees = new ArrayList<>(gaveUp.size());
            long[] levelled = level(d, gaveUp);
            for (Step<?> t : gaveUp) trees.add(t.s.tree);
            long t2 = System.nanoTime();
            List<DeviceTreeAnswers.Repaired<?>> r = d.repairAll(trees, batch.changes(), screen);
            for (int i = 0; i < r.size(); i++) repaired(gaveUp.get(i), r.get(i));
            if (policy.phases()) {   // the host's part around the device trees' own call (printed before this line)
                System.err.printf(java.util.Locale.ROOT, "device standings: %d trees; sync %.3f ms, level %.3f ms (%,d vertices"
                        + " patched, %d trees reset), repair and apply %.3f ms%n", gaveUp.size(), (t1 - t0) / 1e6, (t2 - t1) / 1e6,
                        levelled[0], levelled[1], (System.nanoTime() - t2) / 1e6);
            }
            return gaveUp.size();
        } catch (RuntimeException e) {
            for (Step<?> t : gaveUp) {
                closeQuietly(t.s);   // the failure reported is the repair's
                t.intact = false;
            }
            throw new DeviceFailure(gaveUp.size(), e);
        }
    }

    /** {@link #close}, forgotten all the same when freeing the tree fails. */
    private void closeQuietly(Standing<?> s) {
        try {
            close(s);
        } catch (RuntimeException ignored) {   // its tree is dropped; the device copy's close frees what is left
        }
    }

    @SuppressWarnings("unchecked")
    private static <A> void repaired(Step<A> t, DeviceTreeAnswers.Repaired<?> r) {
        A result = (A) r.result();   // the tree's answer is the standing answer itself
        t.s.answer = result;
        t.repaired = result;
        t.delta = r.how() == TreeOutcome.How.UNTOUCHED ? Delta.NONE : Delta.ofVertices(r.changed());
        t.onDevice = true;
    }

    /**
     * Brings the trees of {@code steps} on the device level with their answers: the changed entries written there, or
     * all. The patches are made on the host first, side by side when they are large (a heavy batch's trees carry the
     * host's repairs of the batches since their last device repair: 10^5 vertices and more), then written in one upload
     * (the trees written whole first, each by itself).
     * Returns the vertices patched and the trees written whole.
     */
    private static long[] level(DeviceTreeAnswers d, List<Step<?>> steps) {
        boolean[] whole = new boolean[steps.size()];
        long stale = 0, reset = 0;
        for (int i = 0; i < whole.length; i++) {
            Standing<?> s = steps.get(i).s;
            whole[i] = s.restale || ((TreeAnswer<?>) s.answer).vertexCount() != s.tree.tree().vertexCount();
            if (!whole[i] && s.stale != null) stale += s.stale.cardinality();
        }
        // a patch, empty too, for every tree not written whole: its host copy becomes the answer the host's repairs left
        DeviceTreeAnswers.Patch<?>[] patches = new DeviceTreeAnswers.Patch<?>[whole.length];
        IntStream each = IntStream.range(0, whole.length);
        (stale >= PARALLEL_PATCH && whole.length > 1 ? each.parallel() : each).forEach(i -> {
            if (!whole[i]) patches[i] = prepare(steps.get(i).s);
        });
        for (int i = 0; i < whole.length; i++) {
            Standing<?> s = steps.get(i).s;
            if (whole[i]) {
                resetTree(d, s, s.answer);
                reset++;
            }
            s.stale = null;
            s.restale = false;
        }
        d.patchAll(Arrays.stream(patches).filter(Objects::nonNull).toList());
        return new long[] {stale, reset};
    }

    /** Stale vertices of a device repair's trees from which their patches are made on all cores. */
    static final long PARALLEL_PATCH = 1 << 14;

    private DeviceTreeAnswers answers(ResidentGraph resident) {
        return DeviceTreeAnswers.on(resident, policy).orElseThrow();
    }

    // the answers of a TreeKind are tree answers, and a standing's tree holds an answer of its own type

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DeviceTreeAnswers.Standing<?> openTree(DeviceTreeAnswers d, Object answer) {
        return d.open((TreeAnswer) answer);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void resetTree(DeviceTreeAnswers d, Standing<?> s, Object answer) {
        d.reset((DeviceTreeAnswers.Standing) s.tree, (TreeAnswer) answer);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DeviceTreeAnswers.Patch<?> prepare(Standing<?> s) {
        return DeviceTreeAnswers.prepare((DeviceTreeAnswers.Standing) s.tree, (TreeAnswer) s.answer, s.stale == null ? new BitSet() : s.stale);
    }
}
