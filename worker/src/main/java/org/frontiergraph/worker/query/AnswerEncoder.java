package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;

/**
 * The worker's side of one algorithm: which contract symbol and engine spec it pairs, how a {@code GraphQuery}
 * becomes the engine's query (validated, in the engine's 0-based ids) and how the engine's result becomes result
 * chunks (in the user's ids).
 *
 * <p>This is the algorithm's registration with the worker: one per algorithm, a public class with a public no-argument
 * constructor named in {@code META-INF/services/org.frontiergraph.worker.query.AnswerEncoder}, found by
 * {@link java.util.ServiceLoader} ({@link AnswerEncoders} is the view by symbol). It adds the wire to the engine's
 * registration of the same name ({@link org.frontiergraph.kernels.engine.AlgorithmModule}: spec, reference,
 * verifier), which the kernels find the same way. Two registrations, not one module class in the worker, because
 * the engine's list ({@code org.frontiergraph.kernels.Algorithms}, which the GPU engine and the benchmarks read)
 * must not know Avro or the worker; and the encoder itself is the worker's, not a second class wrapping it, because
 * it already names the symbol and the spec. A standing form, where an algorithm has one, is the engine module's.
 *
 * @param <Q> the engine's query
 * @param <R> the engine's result
 */
public interface AnswerEncoder<Q, R> extends Encoding<Q, R> {
    /** The contract's symbol ({@code GraphQuery.algorithm}). */
    Algorithm algorithm();

    /** What kind of answer it sends: how readers print it without knowing the algorithm. */
    AnswerShape shape();

    /** The engine's query that a FULL answer answered, read from its head chunk (0-based ids), for the verifier. */
    Q answered(QueryResult head);

    /**
     * A FULL answer's chunks back into the engine's result (0-based ids), read with {@link Answers}' readers of its
     * shape: the reverse of {@link #encode}, for the verifiers. {@code g} is the graph it was computed on (an answer of
     * edges names them by their ids in it; others may be given null).
     */
    R decode(CsrGraph g, List<QueryResult> chunks);

    /**
     * How this algorithm answers the SUMMARY queries of a poll batch in one engine run (several sources at once),
     * or null when it answers each query alone.
     */
    default Summaries<?> summaries() {
        return null;
    }

    /**
     * How this algorithm answers a SUMMARY query without computing its whole answer (on the GPU: reduced on the
     * device, a few bytes copied back), or null when it encodes SUMMARY from the whole answer. Used for queries that
     * name no variant; algorithms with {@link #summaries} batch their SUMMARY queries instead.
     */
    default Encoding<?, ?> summaryEncoder() {
        return null;
    }

    /**
     * How this algorithm answers a TARGETS query by reading the engine's answer at the targets only (on the GPU:
     * only their values are copied back), or null when it encodes TARGETS from the full answer.
     */
    default AtTargets<?> atTargets() {
        return null;
    }

    /**
     * TARGETS answers read at the targets by the engine: the spec (its default variant) and the chunks.
     *
     * @param <T> the engine's answer at the targets
     */
    interface AtTargets<T> {
        AlgorithmSpec<Targets, T> spec();

        /** The result chunks ({@link QueryContext#vertexChunks} over the targets). */
        List<QueryResult> encode(QueryContext c, T result);

        Timing timing(T result);
    }

    /**
     * SUMMARY answers for several sources from one engine run: the batched spec (its default variant), and the
     * answer of the i-th query from the run's result.
     *
     * @param <S> the batched result
     */
    interface Summaries<S> {
        AlgorithmSpec<Sources, S> spec();

        /** The one SUMMARY chunk of query {@code i} of the batch ({@code c} its context). */
        QueryResult summary(QueryContext c, S result, int i);

        /** Where the engine spent the batch's time. */
        Timing timing(S result);
    }
}
