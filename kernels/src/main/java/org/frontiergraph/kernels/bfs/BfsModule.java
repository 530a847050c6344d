package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;

/** BFS's registration with the engine: {@link Bfs#SPEC}, {@link BfsReference}, {@link BfsVerifier}. */
public final class BfsModule implements AlgorithmModule<Source, BfsResult> {
    @Override public AlgorithmSpec<Source, BfsResult> spec() { return Bfs.SPEC; }

    @Override public BfsResult reference(CsrGraph g, Source query) { return BfsReference.run(g, query.vertex()); }

    @Override
    public Verification verify(CsrGraph g, Source query, BfsResult result) {
        return BfsVerifier.verify(g, query.vertex(), result);
    }

    @Override public Source example(CsrGraph g) { return new Source(1); }
}
