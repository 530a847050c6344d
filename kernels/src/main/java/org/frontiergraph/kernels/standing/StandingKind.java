package org.frontiergraph.kernels.standing;

import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * One algorithm's standing answers ({@code A}): the few functions that keep an answer exact as the graph changes,
 * which {@link Standings} call. {@link TreeKind} serves every {@link org.frontiergraph.kernels.engine.TreeAnswer}
 * (SSSP, BFS; their trees can also live on the device), {@link MstKind} the minimum spanning forest, {@link CcKind}
 * the connected components.
 *
 * @param <A> the standing answer
 */
public interface StandingKind<A> {
    /**
     * {@code previous} (the answer before {@code changes}) brought up to date on {@code graph} by the incremental
     * repair, or null when the change is too large to repair cheaply (the caller recomputes). {@code previous} must
     * not be used afterwards. {@code budgetDivisor}: the repair gives up that many times sooner than its default
     * budget (measured against a recompute on one host core; the per-arc part, small graphs always repair), because
     * the recompute would run on a faster engine, or the device repairs the answer's tree.
     */
    Update<A> repair(CsrGraph graph, A previous, ChangedEdges changes, int budgetDivisor);

    /**
     * Whether the batch {@code screen} describes can change {@code answer} at all (the shared first pass over a batch);
     * false guarantees that {@link #repair} would return the answer as it is with no change, so the caller skips it.
     * True when this kind cannot tell cheaply.
     */
    default boolean touchedBy(Screen screen, A answer) {
        return true;
    }

    /**
     * What differs between {@code previous} (left as it was by a repair that gave up) and {@code next}, the answer
     * recomputed after the change; null when this kind cannot tell (the push is then complete).
     */
    Delta compare(A previous, A next);

    /** Checks a repaired answer against one recomputed from scratch on the same graph. */
    Verification verify(CsrGraph graph, A repaired, A fresh);

    /**
     * Builds (and caches on the graph) what the host reads of {@code graph} while repairing answers of this kind,
     * before the repairs run side by side.
     */
    default void prepare(CsrGraph graph) {
        if (graph.directed()) graph.transpose();
    }

    /** The answer after a batch and what changed. */
    record Update<A>(A result, Delta delta) {}
}
