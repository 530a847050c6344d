package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.schema.QueryResult;

/**
 * How answers of one engine spec are computed and encoded: the spec, the engine's query, the chunks. An
 * {@link AnswerEncoder} is one (its algorithm's whole answers); a narrower spec of the same algorithm (a SUMMARY
 * reduced by the engine: {@link AnswerEncoder#summaryEncoder}) is one too.
 *
 * @param <Q> the engine's query
 * @param <R> the engine's result
 */
public interface Encoding<Q, R> {
    /** The engine's spec that runs it. */
    AlgorithmSpec<Q, R> spec();

    /** The engine's query. @throws org.frontiergraph.worker.errors.RejectedException for an invalid query */
    Q query(QueryContext c);

    /** The result chunks of {@code result} in the query's mode (the context makes headers and chunks). */
    List<QueryResult> encode(QueryContext c, R result);

    /** Where the engine spent the time of {@code result}. */
    Timing timing(R result);
}
