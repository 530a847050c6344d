package org.frontiergraph.kernels.standing;

import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.CpuSssp;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;

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

    private SsspRepair() {}

    /**
     * Repairs {@code previous}, the exact answer from its source on the graph before {@code changes}, into the exact
     * answer on {@code graph} (the graph after them), or returns null when repairing would cost more than
     * recomputing ({@link #defaultBudget}): the caller then recomputes. In place, with the costs and counters
     * {@link TreeRepair#repair} gives.
     *
     * @throws IllegalArgumentException when previous's arrays do not have {@code changes.vertexCountBefore()}
     *         entries or the graph has fewer vertices
     */
    public static TreeRepair.Repaired<SsspResult> repair(CsrGraph graph, SsspResult previous, ChangedEdges changes) {
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
        return TreeKind.SSSP.budget(graph, divisor);
    }

    /**
     * As {@link #repair(CsrGraph, SsspResult, ChangedEdges)} with another budget: the most work (vertices touched plus
     * arcs scanned) the repair may do before it gives up, e.g. less than {@link #defaultBudget} where a GPU recomputes
     * faster than the CPU, or {@link Long#MAX_VALUE} never to give up.
     */
    public static TreeRepair.Repaired<SsspResult> repair(CsrGraph graph, SsspResult previous, ChangedEdges changes, long budget) {
        return TreeRepair.repair(graph, previous, changes, budget);
    }

    /**
     * Repairs many answers of one graph after the same batch (the standing answers of its subscriptions): the batch's
     * {@link Screen} first, one pass over the changed arcs shared by every tree, then {@link TreeRepair#repairAll}.
     * Entry i repairs {@code previous[i]} (in place), or is null when that repair gave up.
     */
    public static TreeRepair.Repaired<SsspResult>[] repairAll(CsrGraph graph, SsspResult[] previous, ChangedEdges changes, long budget) {
        Screen screen = Screen.of(graph, changes);
        return TreeRepair.repairAll(graph, previous, changes, budget, screen::touches);
    }
}
