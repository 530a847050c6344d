package org.frontiergraph.kernels.cpu;

import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * The CPU engine: graphs stay in the JVM heap; each algorithm's {@link CpuAlgorithm} runs on the host graph (using
 * all cores where that pays). Seed-paper GPU variants have no CPU implementation: asking for one names the
 * variants the CPU engine has.
 */
public final class CpuBackend implements ComputeBackend {
    public static final String NAME = "cpu";

    @Override
    public String name() { return NAME; }

    @Override
    public ResidentGraph load(CsrGraph graph) {
        return new Resident(new MutableGraph(graph));
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
            AlgorithmSpec.Choice<Q, R> choice = algorithm.choose(NAME, variant, graph);
            return ((CpuAlgorithm<Q, R>) choice.implementation()).runner().run(graph, query, choice.variant());
        }

        @Override
        public void close() {}
    }
}
