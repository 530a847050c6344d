package org.frontiergraph.kernels.bfs;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.TreeRepair;

/**
 * Incremental BFS for standing queries: repairs the previous answer after a run of graph updates instead of
 * recomputing it, with {@link TreeRepair} on unit weights (a FIFO queue instead of a heap). Hop counts equal
 * {@link BfsReference}'s; parents satisfy {@link BfsVerifier} and form a tree rooted at the source. Re-weights change
 * nothing here: a changed pair whose arc still exists neither breaks the tree nor offers a shorter path.
 *
 * <p>A repair that would cost more than recomputing gives up and returns null: see {@link #BUDGET_PER_ARC}.
 */
public final class BfsRepair {
    /**
     * A repair gives up once its work (vertices touched plus arcs scanned) passes this many times the graph's arc
     * count, plus {@link #MIN_BUDGET}: about where it stops being cheaper than {@link CpuBfs#run} from scratch.
     * Measured like {@link org.frontiergraph.kernels.sssp.SsspRepair#BUDGET_PER_ARC}, removing a tree arc and adding
     * it back: on USA-road-d.NY (recompute 12.9 ms) repairs of 0.3 to 0.5 work per arc took a median 0.80 x the
     * recompute time and those of 0.5 to 1, 1.9 x; on the uniform random graph (recompute 11.1 ms; direction-optimizing
     * BFS is at its best there) those of 0.03 to 0.1 took 0.58 x and those of 0.1 to 0.2, 1.4 x. (A second run, with
     * the machine's two cores busier, put both crossovers nearer 0.5: 0.25 is on the safe side.)
     */
    public static final double BUDGET_PER_ARC = 0.25;
    /** Small graphs always repair: below this much work the repair costs next to nothing either way. */
    public static final long MIN_BUDGET = 4096;

    private static final ThreadLocal<Core> CORES = ThreadLocal.withInitial(Core::new);

    private BfsRepair() {}

    /**
     * A repaired answer and the vertices whose hops or parent differ from the previous answer's (ascending; a vertex
     * added by the changes counts only when it is reached, since a consumer extends its arrays with unreached
     * defaults).
     */
    public record Repaired(BfsResult result, int[] changed) {}

    /**
     * Repairs {@code previous}, the exact answer from its source on the graph before {@code changes}, into the exact
     * answer on {@code graph} (the graph after them), or returns null when repairing would cost more than
     * recomputing: the caller then recomputes.
     *
     * <p>When the vertex count is unchanged the repair works <b>in place</b>: the result shares {@code previous}'s
     * arrays, and the caller must not use {@code previous} afterwards. (On null they are left as they were.) When
     * vertices were added, the result has new arrays of {@code graph.vertexCount()} entries and {@code previous} is
     * untouched. The result's timing is the repair's compute time, with counters {@code invalidated},
     * {@code settled} and {@code work} (see {@link TreeRepair#timing}).
     *
     * <p>Cost: proportional to the affected region, plus an O(n) copy when vertices were added and, on a directed
     * graph whose tree lost an arc, the transpose's construction the first time a graph version needs it (cached on
     * the graph).
     *
     * @throws IllegalArgumentException when previous's arrays do not have {@code changes.vertexCountBefore()}
     *         entries or the graph has fewer vertices
     */
    public static Repaired repair(CsrGraph graph, BfsResult previous, ChangedEdges changes) {
        return repair(graph, previous, changes, defaultBudget(graph));
    }

    /**
     * The work (vertices touched plus arcs scanned) past which {@link #repair(CsrGraph, BfsResult, ChangedEdges)} gives
     * up on {@code graph}: {@link #MIN_BUDGET} + {@link #BUDGET_PER_ARC} * arcs.
     */
    public static long defaultBudget(CsrGraph graph) {
        return budget(graph, 1);
    }

    /**
     * {@link #defaultBudget} with its per-arc part {@code divisor} times smaller (where a recompute, or another repair,
     * is that much cheaper than the host's): {@link #MIN_BUDGET} + {@link #BUDGET_PER_ARC} * arcs / divisor, so small
     * graphs still always repair.
     */
    public static long budget(CsrGraph graph, int divisor) {
        return MIN_BUDGET + (long) (BUDGET_PER_ARC * graph.arcCount() / Math.max(1, divisor));
    }

    /**
     * As {@link #repair(CsrGraph, BfsResult, ChangedEdges)} with another budget: the most work (vertices touched plus
     * arcs scanned) the repair may do before it gives up, e.g. less than {@link #defaultBudget} where a GPU recomputes
     * faster than the CPU, or {@link Long#MAX_VALUE} never to give up.
     */
    public static Repaired repair(CsrGraph graph, BfsResult previous, ChangedEdges changes, long budget) {
        return CORES.get().run(graph, previous, changes, budget);
    }

    /**
     * Repairs many answers of one graph after the same batch (the standing answers of its subscriptions): the batch's
     * {@link TreeRepair.Screen} first, one pass over the changed arcs shared by every tree, which sets the trees the
     * batch cannot touch aside at a few array reads each (their entry: the same arrays, no changed vertex); then the
     * repairs of the others side by side on the common pool, each on its own answer with its thread's scratch. The
     * result is that of {@link #repair(CsrGraph, BfsResult, ChangedEdges, long)} on each answer in turn, whatever the
     * thread count: entry i repairs {@code previous[i]} (in place, as there), or is null when that repair gave up.
     * The answers must not share arrays (they are repaired side by side).
     */
    public static Repaired[] repairAll(CsrGraph graph, BfsResult[] previous, ChangedEdges changes, long budget) {
        TreeRepair.Screen screen = TreeRepair.Screen.of(graph, changes);
        return TreeRepair.repairAll(graph, previous, new Repaired[previous.length], p -> screen.touchesHops(p.hops(), p.parents()),
                p -> {
                    checkSizes(p, changes);
                    return new Repaired(new BfsResult(p.source(), p.hops(), p.parents(), Timing.NONE), NO_CHANGE);
                },
                p -> repair(graph, p, changes, budget));
    }

    private static final int[] NO_CHANGE = new int[0];

    /** What a repair checks first, for an answer the screen set aside (the batch added no vertex). */
    private static void checkSizes(BfsResult p, ChangedEdges changes) {
        int before = changes.vertexCountBefore();
        if (p.hops().length != before || p.parents().length != before) {
            throw new IllegalArgumentException("previous answer has " + p.hops().length + " values and "
                    + p.parents().length + " parents; the changes start from " + before + " vertices");
        }
    }

    /** The shared repair over a BfsResult's arrays; hop counts are exact as doubles. */
    private static final class Core extends TreeRepair {
        int[] hops, parents;

        Core() {
            super(true);
        }

        Repaired run(CsrGraph graph, BfsResult previous, ChangedEdges changes, long budget) {
            long t0 = System.nanoTime();
            int[] h = previous.hops(), p = previous.parents();
            checkSizes(h.length, p.length, graph, changes);
            int n = graph.vertexCount(), before = h.length;
            if (n > before) {   // new vertices start unreached
                h = Arrays.copyOf(h, n);
                p = Arrays.copyOf(p, n);
                Arrays.fill(h, before, n, BfsResult.UNREACHED);
                Arrays.fill(p, before, n, BfsResult.UNREACHED);
            }
            hops = h;
            parents = p;
            int[] changed = repair(graph, changes, budget);
            if (changed == null) return null;
            return new Repaired(new BfsResult(previous.source(), h, p, timing(t0)), changed);
        }

        @Override
        protected double distance(int v) {
            int h = hops[v];
            return h == BfsResult.UNREACHED ? Double.POSITIVE_INFINITY : h;
        }

        @Override
        protected int parent(int v) { return parents[v]; }

        @Override
        protected void set(int v, double distance, int parent) {
            hops[v] = distance == Double.POSITIVE_INFINITY ? BfsResult.UNREACHED : (int) distance;
            parents[v] = parent;
        }

        @Override
        protected void release() {
            hops = null;
            parents = null;
        }
    }
}
