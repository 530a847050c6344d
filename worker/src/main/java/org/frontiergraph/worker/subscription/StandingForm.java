package org.frontiergraph.worker.subscription;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.standing.StandingKind;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.AnswerEncoders;
import org.frontiergraph.worker.query.QueryContext;

/**
 * One algorithm's side of standing queries in the worker: how its answer is computed on the graph's engine and pushed
 * (complete: the algorithm's {@link AnswerEncoder}; DELTA: what changed). Keeping it exact as the graph changes is the
 * kernels' ({@link #kind()}, through {@link org.frontiergraph.kernels.standing.Standings}).
 *
 * <p>{@link #ALL} is a view of the forms found by {@link ServiceLoader}
 * ({@code META-INF/services/org.frontiergraph.worker.subscription.StandingForm}: public classes with a public no-argument
 * constructor, one per algorithm that subscribes). Loading fails when two forms speak one symbol, or a form's
 * algorithm has no module in the engine ({@link Algorithms#named}) or no answer encoder ({@link AnswerEncoders#of}).
 *
 * @param <A> the standing answer
 */
public interface StandingForm<A> {
    /** The standing forms, by algorithm: the algorithms that subscribe. */
    Map<Algorithm, StandingForm<?>> ALL = load();

    Algorithm algorithm();

    /** The kernels' functions that keep the answer exact. */
    StandingKind<A> kind();

    /** Whether the answer is from a source (one answer per source); false: of the whole graph (the source ignored). */
    boolean fromSource();

    /** Heap the standing answer keeps per vertex of the graph, for the memory model's reservation. */
    long bytesPerVertex();

    /**
     * The answer computed from scratch on {@code c}'s engine (the GPU where the graph lives): by default the query the
     * algorithm's {@link AnswerEncoder} makes of {@code c}, run on the resident graph.
     */
    default A compute(QueryContext c) {
        return run(encoder(), c);
    }

    /** The complete answer in {@code c}'s mode, chunked as a query's (by default, the algorithm's {@link AnswerEncoder}'s). */
    default List<QueryResult> complete(QueryContext c, A result) {
        return encoder().encode(c, result);
    }

    /** Whether a subscription of this algorithm may use {@code mode}. */
    boolean supports(ResultMode mode);

    /** The DELTA push of what {@code pending} collected since the previous push, chunked like a complete answer. */
    List<QueryResult> delta(QueryContext c, A result, Pending pending);

    /** The algorithm's encoder of query answers, whose results are this form's standing answers. */
    @SuppressWarnings("unchecked")
    private AnswerEncoder<?, A> encoder() {
        return (AnswerEncoder<?, A>) AnswerEncoders.of(algorithm());
    }

    private static <Q, R> R run(AnswerEncoder<Q, R> encoder, QueryContext c) {
        return c.resident().run(encoder.spec(), encoder.query(c), null);
    }

    /** @throws IllegalStateException for two forms of one symbol, or one whose algorithm the engine or encoders lack */
    private static Map<Algorithm, StandingForm<?>> load() {
        Map<Algorithm, StandingForm<?>> forms = new EnumMap<>(Algorithm.class);
        for (StandingForm<?> f : ServiceLoader.load(StandingForm.class, StandingForm.class.getClassLoader())) {
            Algorithm a = f.algorithm();
            if (forms.containsKey(a)) {
                throw new IllegalStateException("two standing forms speak " + a + ": " + f.getClass().getName());
            }
            if (Algorithms.named(a.name()).isEmpty()) {
                throw new IllegalStateException("standing form " + f.getClass().getName() + " speaks " + a
                        + " but the engine registers no algorithm of that name");
            }
            AnswerEncoders.of(a);   // its complete answers are the encoder's
            forms.put(a, f);
        }
        return Map.copyOf(forms);
    }
}
