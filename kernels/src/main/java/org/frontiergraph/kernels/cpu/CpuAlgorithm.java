package org.frontiergraph.kernels.cpu;

import java.util.List;
import org.frontiergraph.kernels.engine.Implementation;
import org.frontiergraph.kernels.engine.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * An algorithm's implementation on the CPU engine: a function of the host graph, the query and the parsed variant.
 * Built in the algorithm's package, e.g. {@code new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuBfs.run(g,
 * q.vertex()))}.
 */
public record CpuAlgorithm<Q, R>(List<String> variants, Runner<Q, R> runner) implements Implementation<Q, R> {
    @FunctionalInterface
    public interface Runner<Q, R> {
        R run(CsrGraph graph, Q query, Variant variant);
    }

    public CpuAlgorithm {
        variants = List.copyOf(variants);
    }

    @Override
    public String backend() { return CpuBackend.NAME; }
}
