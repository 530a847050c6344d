package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;

/** SSSP's registration with the engine: {@link Sssp#SPEC}, {@link DijkstraReference}, {@link SsspVerifier}. */
public final class SsspModule implements AlgorithmModule<Source, SsspResult> {
    @Override public AlgorithmSpec<Source, SsspResult> spec() { return Sssp.SPEC; }

    @Override public SsspResult reference(CsrGraph g, Source query) { return DijkstraReference.run(g, query.vertex()); }

    @Override
    public Verification verify(CsrGraph g, Source query, SsspResult result) {
        return SsspVerifier.verify(g, query.vertex(), result);
    }

    @Override public Source example(CsrGraph g) { return new Source(1); }
}
