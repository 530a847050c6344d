package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Incremental SSSP for standing queries: repairs the previous answer after a run of graph updates instead of
 * recomputing it, touching only the region the changes affect (see {@link TreeRepair} for the method and why the
 * answer is exact). Distances equal {@link DijkstraReference}'s bit for bit; parents satisfy {@link SsspVerifier}
 * and form a tree rooted at the source, zero-weight cycles notwithstanding.
 *
 * <p>A repair that would cost more than recomputing gives up and returns null: see {@link #BUDGET_PER_ARC}.
 */
public final class SsspRepair {
    /**
     * A repair gives up once its work (vertices touched plus arcs scanned; a repair of the whole graph is about
     * 3 (n + m)) passes this many times the graph's arc count, plus {@link #MIN_BUDGET}: about where it stops being
     * cheaper than {@link CpuSssp#run} from scratch. Measured by {@code RepairCrossover} (kernels test sources) on the
     * 2-core development machine, 600 unbudgeted repairs per graph, each invalidating and re-settling a subtree of a
     * random size: on USA-road-d.NY (264,346 vertices, 730,100 arcs; recompute 52 ms) repairs of 0.5 to 1 work per
     * arc took a median 0.32 x the recompute time and those of 1 to 2, 1.15 x; on a uniform random graph (200,000
     * vertices, 800,000 undirected edges; recompute 104 ms) those of 0.5 to 1 took 0.95 x. Where a GPU recomputes
     * (NY in 2.4 ms on an H200, docs/benchmarks.md) the crossover is about 20 times lower: pass a budget to
     * {@link #repair(CsrGraph, SsspResult, ChangedEdges, long)}.
     */
    public static final double BUDGET_PER_ARC = 1.0;
    /** Small graphs always repair: below this much work the repair costs next to nothing either way. */
    public static final long MIN_BUDGET = 4096;

    private static final ThreadLocal<Core> CORES = ThreadLocal.withInitial(Core::new);

    private SsspRepair() {}

    /**
     * A repaired answer and the vertices whose distance or parent differs from the previous answer's (ascending;
     * a vertex added by the changes counts only when it is reachable, since a consumer extends its arrays with
     * unreachable defaults).
     */
    public record Repaired(SsspResult result, int[] changed) {}

    /**
     * Repairs {@code previous}, the exact answer from its source on the graph before {@code changes}, into the exact
     * answer on {@code graph} (the graph after them), or returns null when repairing would cost more than
     * recomputing: the caller then recomputes.
     *
     * <p>When the vertex count is unchanged the repair works <b>in place</b>: the result shares {@code previous}'s
     * arrays, and the caller must not use {@code previous} afterwards. (On null they are left as they were.) When
     * vertices were added, the result has new arrays of {@code graph.vertexCount()} entries and {@code previous} is
     * untouched. The result's timing is the repair's compute time, with counters {@code invalidated} (vertices whose
     * tree path broke), {@code settled} (vertices the repair's Dijkstra settled) and {@code work} (what the budget
     * counts).
     *
     * <p>Cost: proportional to the affected region (O((a + b) log a) for a vertices and b arcs), plus an O(n) copy
     * when vertices were added and, on a directed graph whose tree lost an arc, the transpose's construction the
     * first time a graph version needs it (cached on the graph, so shared by every query on it).
     *
     * @throws IllegalArgumentException when previous's arrays do not have {@code changes.vertexCountBefore()}
     *         entries or the graph has fewer vertices
     */
    public static Repaired repair(CsrGraph graph, SsspResult previous, ChangedEdges changes) {
        return repair(graph, previous, changes, defaultBudget(graph));
    }

    /**
     * The work (vertices touched plus arcs scanned) past which {@link #repair(CsrGraph, SsspResult, ChangedEdges)}
     * gives up on {@code graph}: {@link #MIN_BUDGET} + {@link #BUDGET_PER_ARC} * arcs.
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
     * As {@link #repair(CsrGraph, SsspResult, ChangedEdges)} with another budget: the most work (vertices touched plus
     * arcs scanned) the repair may do before it gives up, e.g. less than {@link #defaultBudget} where a GPU recomputes
     * faster than the CPU, or {@link Long#MAX_VALUE} never to give up.
     */
    public static Repaired repair(CsrGraph graph, SsspResult previous, ChangedEdges changes, long budget) {
        return CORES.get().run(graph, previous, changes, budget);
    }

    /**
     * Repairs many answers of one graph after the same batch (the standing answers of its subscriptions): the batch's
     * {@link TreeRepair.Screen} first, one pass over the changed arcs shared by every tree, which sets the trees the
     * batch cannot touch aside at a few array reads each (their entry: the same arrays, no changed vertex); then the
     * repairs of the others side by side on the common pool, each on its own answer with its thread's scratch. The
     * result is that of {@link #repair(CsrGraph, SsspResult, ChangedEdges, long)} on each answer in turn, whatever the
     * thread count: entry i repairs {@code previous[i]} (in place, as there), or is null when that repair gave up.
     * The answers must not share arrays (they are repaired side by side).
     */
    public static Repaired[] repairAll(CsrGraph graph, SsspResult[] previous, ChangedEdges changes, long budget) {
        TreeRepair.Screen screen = TreeRepair.Screen.of(graph, changes);
        return TreeRepair.repairAll(graph, previous, new Repaired[previous.length], p -> screen.touches(p.distances(), p.parents()),
                p -> {
                    checkSizes(p, changes);
                    return new Repaired(new SsspResult(p.source(), p.distances(), p.parents(), Timing.NONE), NO_CHANGE);
                },
                p -> repair(graph, p, changes, budget));
    }

    private static final int[] NO_CHANGE = new int[0];

    /** What a repair checks first, for an answer the screen set aside (the batch added no vertex). */
    private static void checkSizes(SsspResult p, ChangedEdges changes) {
        int before = changes.vertexCountBefore();
        if (p.distances().length != before || p.parents().length != before) {
            throw new IllegalArgumentException("previous answer has " + p.distances().length + " values and "
                    + p.parents().length + " parents; the changes start from " + before + " vertices");
        }
    }

    /** The shared repair over an SsspResult's arrays. */
    private static final class Core extends TreeRepair {
        double[] dist;
        int[] parents;

        Core() {
            super(false);
        }

        Repaired run(CsrGraph graph, SsspResult previous, ChangedEdges changes, long budget) {
            long t0 = System.nanoTime();
            double[] d = previous.distances();
            int[] p = previous.parents();
            checkSizes(d.length, p.length, graph, changes);
            int n = graph.vertexCount(), before = d.length;
            if (n > before) {   // new vertices start unreachable
                d = Arrays.copyOf(d, n);
                p = Arrays.copyOf(p, n);
                Arrays.fill(d, before, n, Double.POSITIVE_INFINITY);
                Arrays.fill(p, before, n, SsspResult.NO_PARENT);
            }
            dist = d;
            parents = p;
            int[] changed = repair(graph, changes, budget);
            if (changed == null) return null;
            return new Repaired(new SsspResult(previous.source(), d, p, timing(t0)), changed);
        }

        @Override
        protected double distance(int v) { return dist[v]; }

        @Override
        protected int parent(int v) { return parents[v]; }

        @Override
        protected void set(int v, double distance, int parent) {
            dist[v] = distance;
            parents[v] = parent;
        }

        @Override
        protected void release() {
            dist = null;
            parents = null;
        }
    }
}
