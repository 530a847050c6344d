package org.frontiergraph.kernels.apsp;

import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;

/** APSP's registration with the engine: {@link Apsp#SPEC}, {@link FloydWarshallReference}, {@link ApspVerifier}. */
public final class ApspModule implements AlgorithmModule<ApspLimits, ApspResult> {
    @Override public AlgorithmSpec<ApspLimits, ApspResult> spec() { return Apsp.SPEC; }

    /** The Floyd-Warshall reference, within {@code limits}. */
    @Override
    public ApspResult reference(CsrGraph g, ApspLimits limits) {
        limits.check(g.vertexCount());
        return FloydWarshallReference.run(g);
    }

    @Override
    public Verification verify(CsrGraph g, ApspLimits limits, ApspResult result) {
        return ApspVerifier.verify(g, result);
    }

    @Override public ApspLimits example(CsrGraph g) { return ApspLimits.defaults(); }
}
