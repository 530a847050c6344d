package org.frontiergraph.worker.subscription;

import java.util.List;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.TreeRepair;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.QueryContext;
import org.frontiergraph.schema.QueryResult;

/**
 * One algorithm's side of standing queries: how its answer is kept up to date after a run of updates (the kernels'
 * incremental repair, or a recompute and a comparison) and how what changed becomes a DELTA push. The complete
 * answers (INITIAL, RESYNC, and every push of the other modes) are the algorithm's {@link AnswerEncoder}'s.
 *
 * @param <R> the engine's result
 */
interface Standing<R> {
    Algorithm algorithm();

    /** The answer computed from scratch on {@code c}'s engine (the GPU where the graph lives). */
    R compute(QueryContext c);

    /** The complete answer in {@code c}'s mode, chunked as a query's (the algorithm's {@link AnswerEncoder}). */
    List<QueryResult> complete(QueryContext c, R result);

    /** Whether a subscription of this algorithm may use {@code mode}. */
    boolean supports(ResultMode mode);

    /**
     * {@code previous} (the answer before {@code changes}) brought up to date on {@code graph} by the incremental
     * repair, or null when the change is too large to repair cheaply (the caller recomputes). {@code previous} must
     * not be used afterwards. {@code budgetDivisor}: the repair gives up that many times sooner than its default
     * budget (measured against a recompute on one host core; the per-arc part, small graphs always repair), because
     * the recompute would run on a faster engine, or the device repairs the answer's tree.
     */
    Updated<R> repair(CsrGraph graph, R previous, ChangedEdges changes, int budgetDivisor);

    /**
     * Whether the batch {@code screen} describes can change {@code answer} at all (the shared first pass over a batch,
     * {@link TreeRepair.Screen}); false guarantees that {@link #repair} would return the answer as it is with no
     * change, so the caller skips it. True when this algorithm cannot tell cheaply.
     */
    default boolean touchedBy(TreeRepair.Screen screen, R answer) {
        return true;
    }

    /**
     * What differs between {@code previous} (left as it was by a repair that gave up) and {@code next}, the answer
     * recomputed after the change; null when this algorithm cannot tell (the push is then complete).
     */
    Pending.Changes compare(R previous, R next);

    /** Checks a repaired answer against one recomputed from scratch on the same graph. */
    Verification verify(CsrGraph graph, R repaired, R fresh);

    /** The DELTA push of what {@code pending} collected since the previous push, chunked like a complete answer. */
    List<QueryResult> delta(QueryContext c, R result, Pending pending);

    /** The answer after an update and what changed: vertices (BFS, SSSP) or forest edges (MST). */
    record Updated<R>(R result, Pending.Changes changes) {}
}
