package org.frontiergraph.worker.subscription;

import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.standing.StandingKind;
import org.frontiergraph.kernels.standing.TreeKind;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.QueryContext;

/**
 * One algorithm's side of standing queries in the worker: how its answer is computed on the graph's engine and pushed
 * (complete: the algorithm's {@link AnswerEncoder}; DELTA: what changed). Keeping it exact as the graph changes is the
 * kernels' ({@link #kind()}, through {@link org.frontiergraph.kernels.standing.Standings}).
 *
 * @param <A> the standing answer
 */
interface StandingForm<A> {
    /** The standing forms, by algorithm. */
    Map<Algorithm, StandingForm<?>> ALL = Map.of(
            Algorithm.BFS, new TreeForm<BfsResult>(Algorithm.BFS, TreeKind.BFS),
            Algorithm.SSSP, new TreeForm<SsspResult>(Algorithm.SSSP, TreeKind.SSSP),
            Algorithm.MST, new MstForm());

    Algorithm algorithm();

    /** The kernels' functions that keep the answer exact. */
    StandingKind<A> kind();

    /** The answer computed from scratch on {@code c}'s engine (the GPU where the graph lives). */
    A compute(QueryContext c);

    /** The complete answer in {@code c}'s mode, chunked as a query's (the algorithm's {@link AnswerEncoder}). */
    List<QueryResult> complete(QueryContext c, A result);

    /** Whether a subscription of this algorithm may use {@code mode}. */
    boolean supports(ResultMode mode);

    /** The DELTA push of what {@code pending} collected since the previous push, chunked like a complete answer. */
    List<QueryResult> delta(QueryContext c, A result, Pending pending);
}
