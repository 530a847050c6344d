package org.frontiergraph.kernels.engine;

import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * One algorithm as the engine knows it: its spec (the name and the implementations on every backend), its plain
 * reference and its verifier. Each algorithm's package has one ({@code bfs.BfsModule}, ...), named in
 * {@code META-INF/services/org.frontiergraph.kernels.engine.AlgorithmModule} and found by
 * {@link java.util.ServiceLoader}; {@code org.frontiergraph.kernels.Algorithms} is the view of them all.
 *
 * <p>Kept in the engine so that the algorithms (which implement it) stay above the engine and the registrations
 * (which load it) above the algorithms; it knows nothing of the wire. The worker pairs each module, by name, with
 * the answer encoder that speaks the contract's symbol for it ({@code worker.query.AnswerEncoder}, itself found by
 * ServiceLoader): the contract's names and Avro stay out of the kernels.
 *
 * <p>An algorithm's standing form (how a standing answer of it is kept up to date on a resident graph) belongs to its
 * module too, once the engine owns standing answers: subscriptions then find it where queries find the spec, and an
 * algorithm without one answers queries only.
 *
 * @param <Q> what a query gives the algorithm
 * @param <R> the algorithm's result
 */
public interface AlgorithmModule<Q, R> {
    /** The spec the engines run: its name is the algorithm's ("BFS", ...), the contract's symbol for it. */
    AlgorithmSpec<Q, R> spec();

    /** The answer of the plain reference (written to be obviously right, not fast) to {@code query} on {@code g}. */
    R reference(CsrGraph g, Q query);

    /** Checks {@code result}, an answer to {@code query} on {@code g}, against the reference and the problem's rules. */
    Verification verify(CsrGraph g, Q query, R result);

    /**
     * A query of this algorithm on {@code g} (a graph of at least two vertices): what the registry's tests run on every
     * registered algorithm, so a new one is checked without a line of theirs.
     */
    Q example(CsrGraph g);
}
