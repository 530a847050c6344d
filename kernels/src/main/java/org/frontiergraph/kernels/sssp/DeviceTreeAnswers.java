package org.frontiergraph.kernels.sssp;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Standing answers of one kind ({@code R}: SSSP's or BFS's) of a graph resident on the GPU, each a tree on the device
 * ({@link DeviceTrees}) and its host copy ({@link Standing#result()}), which every repair brings up to date from the
 * DELTA alone (the vertices that changed). What differs between the kinds is the {@link Form}: how an answer's values
 * and parents read and change, how the host repairs it where the device cannot, and whether every arc counts 1. The
 * faces {@link DeviceSsspTrees} and {@code org.frontiergraph.kernels.bfs.DeviceBfsTrees} give one per graph.
 */
public final class DeviceTreeAnswers<R> {
    /** What the trees need of an answer of one kind. */
    public interface Form<R> {
        /** The answers' type. */
        Class<R> type();

        /** BFS: every arc counts 1. */
        boolean unitWeights();

        int source(R answer);

        /** Every vertex's value as the launcher takes it (distances, or hop counts as doubles; +Inf unreached). */
        double[] values(R answer);

        /** Vertex {@code v}'s value, as {@link #values}. */
        double valueAt(R answer, int v);

        int[] parents(R answer);

        /** Whether the batch the screen describes can change {@code answer} ({@link TreeRepair.Screen}). */
        boolean touches(TreeRepair.Screen screen, R answer);

        /** The host's exact repair of {@code answer} after {@code changes}, on {@code graph}: the answer and what changed. */
        HostRepaired<R> repairOnHost(CsrGraph graph, R answer, ChangedEdges changes);

        /** {@code answer} grown to {@code n} vertices (the new ones unreached): new arrays, or itself when long enough. */
        R grown(R answer, int n);

        /** Sets vertex {@code v}'s value and parent in place. */
        void set(R answer, int v, double value, int parent);

        /** The same arrays with {@code timing}. */
        R withTiming(R answer, Timing timing);
    }

    /** A host repair: the answer and the vertices that changed. */
    public record HostRepaired<R>(R result, int[] changed) {}

    /** One standing answer: the tree on the device, and the host copy it is kept equal to. */
    public static final class Standing<R> {
        private final DeviceTreeAnswers<R> owner;
        private final DeviceTrees.Tree tree;
        private R result;

        private Standing(DeviceTreeAnswers<R> owner, DeviceTrees.Tree tree, R result) {
            this.owner = owner;
            this.tree = tree;
            this.result = result;
        }

        /** The answer now (the host copy: repairs change its arrays in place, or replace it when the graph grew). */
        public R result() { return result; }

        public DeviceTrees.Tree tree() { return tree; }

        /** The trees it belongs to. */
        public DeviceTreeAnswers<R> owner() { return owner; }
    }

    /** A repaired answer, the vertices whose value or parent changed (ascending), and how it was repaired. */
    public record Repaired<R>(R result, int[] changed, DeviceTrees.How how) {}

    private final DeviceTrees trees;
    private final Form<R> form;

    public DeviceTreeAnswers(DeviceTrees trees, Form<R> form) {
        this.trees = trees;
        this.form = form;
    }

    /** The shared device side (the other kind's trees too). */
    public DeviceTrees trees() { return trees; }

    /**
     * A standing answer starting from {@code answer}, the exact answer on the graph's current version (its arrays are
     * the host copy from now on: repairs change them in place).
     */
    public Standing<R> open(R answer) {
        DeviceTrees.Tree t = trees.open(form.source(answer), form.unitWeights(), form.values(answer), form.parents(answer));
        return new Standing<>(this, t, answer);
    }

    /** Replaces {@code s}'s answer by {@code answer} (recomputed on the current version), on the device too. */
    public void reset(Standing<R> s, R answer) {
        trees.reset(s.tree, form.values(answer), form.parents(answer));
        s.result = answer;
    }

    /**
     * {@code s}'s answer is now {@code answer}, which differs from the one the device holds at {@code vertices} only
     * (a repair on the host, for instance): those entries are written to the device (O(k)). The answer must have as
     * many vertices as the tree ({@link #reset} otherwise).
     */
    public void patch(Standing<R> s, R answer, int[] vertices) {
        double[] values = new double[vertices.length];
        int[] parents = new int[vertices.length];
        int[] all = form.parents(answer);
        for (int i = 0; i < vertices.length; i++) {
            values[i] = form.valueAt(answer, vertices[i]);
            parents[i] = all[vertices[i]];
        }
        trees.patch(s.tree, vertices, values, parents);
        s.result = answer;
    }

    /** Frees {@code s}'s device memory. */
    public void close(Standing<R> s) {
        trees.close(s.tree);
    }

    /**
     * Repairs {@code standing} after {@code changes} (the changes since their last repair or open): entry i is
     * {@code standing.get(i)}'s answer, its host copy brought up to date in place (new arrays when vertices were
     * added) with the vertices that changed, as the host's repair gives them. Each result's timing is the batch's
     * wall time (shared by all) with the tree's counters ({@link DeviceTrees.Outcome}).
     */
    public List<Repaired<R>> repairAll(List<Standing<R>> standing, ChangedEdges changes) {
        long t0 = System.nanoTime();
        List<DeviceTrees.Tree> batch = new ArrayList<>(standing.size());
        Map<DeviceTrees.Tree, Standing<R>> of = new IdentityHashMap<>();
        for (Standing<R> s : standing) {
            batch.add(s.tree);
            of.put(s.tree, s);
        }
        DeviceTrees.Outcome[] outcomes = trees.repair(batch, changes,
                (screen, t) -> form.touches(screen, of.get(t).result),
                (graph, t) -> {
                    HostRepaired<R> r = form.repairOnHost(graph, of.get(t).result, changes);
                    of.get(t).result = r.result();
                    return new DeviceTrees.HostResult(form.values(r.result()), form.parents(r.result()), r.changed());
                });
        long nanos = System.nanoTime() - t0;
        @SuppressWarnings("unchecked") R[] applied = (R[]) new Object[standing.size()];
        long changed = 0;
        for (DeviceTrees.Outcome o : outcomes) changed += o.vertices().length;
        // each tree's DELTA into its own answer: on all cores when they are large (10^4 re-weights of 100 NY trees
        // change 25 M vertices)
        java.util.stream.IntStream is = java.util.stream.IntStream.range(0, standing.size());
        (changed >= PARALLEL_APPLY ? is.parallel() : is).forEach(i -> {
            Standing<R> s = standing.get(i);
            DeviceTrees.Outcome o = outcomes[i];
            applied[i] = o.how() == DeviceTrees.How.HOST ? s.result : apply(s.result, s.tree.vertexCount(), o);
        });
        List<Repaired<R>> out = new ArrayList<>(standing.size());
        for (int i = 0; i < standing.size(); i++) {
            Standing<R> s = standing.get(i);
            DeviceTrees.Outcome o = outcomes[i];
            s.result = form.withTiming(applied[i], new Timing(nanos, 0, o.counters()));
            out.add(new Repaired<>(s.result, o.vertices(), o.how()));
        }
        return out;
    }

    /** Changed vertices of a repair from which the DELTAs are applied to the answers on all cores. */
    static final long PARALLEL_APPLY = 1 << 16;

    /** {@code r} with the DELTA {@code o} applied (in place; new arrays of {@code n} entries when the graph grew). */
    private R apply(R r, int n, DeviceTrees.Outcome o) {
        R a = form.grown(r, n);
        int[] v = o.vertices(), parents = o.parents();
        double[] values = o.values();
        for (int i = 0; i < v.length; i++) form.set(a, v[i], values[i], parents[i]);
        return a;
    }

    /** {@link #reset} for a caller that holds answers of several kinds: {@code answer} must be of this one's. */
    public static void resetAny(Standing<?> s, Object answer) {
        resetTyped(s, answer);
    }

    private static <R> void resetTyped(Standing<R> s, Object answer) {
        s.owner.reset(s, s.owner.form.type().cast(answer));
    }

    /** {@link #patch} for a caller that holds answers of several kinds: {@code answer} must be of this one's. */
    public static void patchAny(Standing<?> s, Object answer, int[] vertices) {
        patchTyped(s, answer, vertices);
    }

    private static <R> void patchTyped(Standing<R> s, Object answer, int[] vertices) {
        s.owner.patch(s, s.owner.form.type().cast(answer), vertices);
    }

    /** {@link #close(Standing)} for a caller that holds answers of several kinds. */
    public static void closeAny(Standing<?> s) {
        s.owner.trees.close(s.tree);
    }

    /**
     * {@link #repairAll} for a caller that holds standing answers of several kinds (and graphs): those of one owner
     * are repaired together; entry i is {@code standing.get(i)}'s.
     */
    public static List<Repaired<?>> repairAny(List<Standing<?>> standing, ChangedEdges changes) {
        Map<DeviceTreeAnswers<?>, List<Integer>> byOwner = new java.util.LinkedHashMap<>();
        for (int i = 0; i < standing.size(); i++) byOwner.computeIfAbsent(standing.get(i).owner, k -> new ArrayList<>()).add(i);
        Repaired<?>[] out = new Repaired<?>[standing.size()];
        byOwner.forEach((owner, at) -> repairOwned(owner, standing, at, changes, out));
        return java.util.Arrays.asList(out);
    }

    @SuppressWarnings("unchecked")
    private static <R> void repairOwned(DeviceTreeAnswers<R> owner, List<Standing<?>> standing, List<Integer> at,
                                        ChangedEdges changes, Repaired<?>[] out) {
        List<Standing<R>> mine = new ArrayList<>(at.size());
        for (int i : at) mine.add((Standing<R>) standing.get(i));   // grouped by this owner above
        List<Repaired<R>> r = owner.repairAll(mine, changes);
        for (int j = 0; j < at.size(); j++) out[at.get(j)] = r.get(j);
    }
}
