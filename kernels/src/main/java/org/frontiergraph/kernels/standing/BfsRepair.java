package org.frontiergraph.kernels.standing;

import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.bfs.CpuBfs;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Incremental BFS for standing queries: repairs the previous answer after a run of graph updates instead of
 * recomputing it, with {@link TreeRepair} on unit weights (its answers' {@link BfsResult#unitWeights}: a FIFO queue
 * instead of a heap). Hop counts equal {@link BfsReference}'s; parents satisfy {@link BfsVerifier} and form a tree rooted at the source. Re-weights change
 * nothing here: a changed pair whose arc still exists neither breaks the tree nor offers a shorter path.
 *
 * <p>A repair that would cost more than recomputing gives up and returns null: see {@link #BUDGET_PER_ARC}.
 */
public final class BfsRepair {
    /**
     * A repair gives up once its work (vertices touched plus arcs scanned) passes this many times the graph's arc
     * count, plus {@link #MIN_BUDGET}: about where it stops being cheaper than {@link CpuBfs#run} from scratch.
     * Measured like {@link SsspRepair#BUDGET_PER_ARC}, removing a tree arc and adding
     * it back: on USA-road-d.NY (recompute 12.9 ms) repairs of 0.3 to 0.5 work per arc took a median 0.80 x the
     * recompute time and those of 0.5 to 1, 1.9 x; on the uniform random graph (recompute 11.1 ms; direction-optimizing
     * BFS is at its best there) those of 0.03 to 0.1 took 0.58 x and those of 0.1 to 0.2, 1.4 x. (A second run, with
     * the machine's two cores busier, put both crossovers nearer 0.5: 0.25 is on the safe side.)
     */
    public static final double BUDGET_PER_ARC = 0.25;
    /** Small graphs always repair: below this much work the repair costs next to nothing either way. */
    public static final long MIN_BUDGET = 4096;

    private BfsRepair() {}

    /**
     * Repairs {@code previous}, the exact answer from its source on the graph before {@code changes}, into the exact
     * answer on {@code graph} (the graph after them), or returns null when repairing would cost more than
     * recomputing ({@link #defaultBudget}): the caller then recomputes. In place, with the costs and counters
     * {@link TreeRepair#repair} gives.
     *
     * @throws IllegalArgumentException when previous's arrays do not have {@code changes.vertexCountBefore()}
     *         entries or the graph has fewer vertices
     */
    public static TreeRepair.Repaired<BfsResult> repair(CsrGraph graph, BfsResult previous, ChangedEdges changes) {
        return repair(graph, previous, changes, defaultBudget(graph));
    }

    /**
     * The work (vertices touched plus arcs scanned) past which {@link #repair(CsrGraph, BfsResult, ChangedEdges)}
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
        return TreeKind.BFS.budget(graph, divisor);
    }

    /**
     * As {@link #repair(CsrGraph, BfsResult, ChangedEdges)} with another budget: the most work (vertices touched plus
     * arcs scanned) the repair may do before it gives up, e.g. less than {@link #defaultBudget} where a GPU recomputes
     * faster than the CPU, or {@link Long#MAX_VALUE} never to give up.
     */
    public static TreeRepair.Repaired<BfsResult> repair(CsrGraph graph, BfsResult previous, ChangedEdges changes, long budget) {
        return TreeRepair.repair(graph, previous, changes, budget);
    }

    /**
     * Repairs many answers of one graph after the same batch (the standing answers of its subscriptions): the batch's
     * {@link Screen} first, one pass over the changed arcs shared by every tree, then {@link TreeRepair#repairAll}.
     * Entry i repairs {@code previous[i]} (in place), or is null when that repair gave up.
     */
    public static TreeRepair.Repaired<BfsResult>[] repairAll(CsrGraph graph, BfsResult[] previous, ChangedEdges changes, long budget) {
        Screen screen = Screen.of(graph, changes);
        return TreeRepair.repairAll(graph, previous, changes, budget, screen::touches);
    }
}
