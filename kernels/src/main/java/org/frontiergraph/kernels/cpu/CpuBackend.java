package org.frontiergraph.kernels.cpu;

import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * The CPU engine: graphs stay in the JVM heap; each algorithm's {@link CpuAlgorithm} runs on the host graph (using
 * all cores where that pays). Seed-paper GPU variants have no CPU implementation: asking for one names the
 * variants the CPU engine has. A graph of more arcs than an int indexes (the wide form) is refused at load.
 */
public final class CpuBackend implements ComputeBackend {
    public static final String NAME = "cpu";

    @Override
    public String name() { return NAME; }

    /**
     * {@inheritDoc} A graph held in the wide form ({@link CsrGraph#wide()}) is refused: every CPU algorithm reads
     * int-indexed arrays.
     *
     * @throws GraphTooLargeException for a wide graph, naming its arc count
     */
    @Override
    public ResidentGraph load(CsrGraph graph) {
        if (graph.wide()) throw tooLarge(graph.arcs());
        return new Resident(new MutableGraph(graph));
    }

    /** The refusal of a graph of {@code arcs} arcs held in the wide form. */
    public static GraphTooLargeException tooLarge(long arcs) {
        return new GraphTooLargeException("the CPU engine indexes arcs with int32 (at most " + CsrGraph.MAX_INT_ARCS
                + ") and this graph has " + arcs + " arcs in the wide (64-bit) form: only a GPU worker holds it");
    }

    @Override
    public void close() {}

    /** The host graph is the copy: updates apply to it in place, queries read its current version. */
    private record Resident(MutableGraph mutable) implements ResidentGraph {
        @Override public String backend() { return NAME; }
        @Override public long residentBytes() { return mutable.bytes(); }

        @Override
        public <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant) {
            CsrGraph graph = mutable.current();
            if (graph.wide()) throw tooLarge(graph.arcs());   // updates grew it past what an int indexes
            AlgorithmSpec.Choice<Q, R> choice = algorithm.choose(NAME, variant, graph);
            return ((CpuAlgorithm<Q, R>) choice.implementation()).runner().run(graph, query, choice.variant());
        }

        @Override
        public void close() {}
    }
}
