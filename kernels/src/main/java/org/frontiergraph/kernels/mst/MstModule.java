package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.CsrGraph;

/** MST's registration with the engine: {@link Mst#SPEC}, {@link KruskalReference}, {@link MstVerifier}. */
public final class MstModule implements AlgorithmModule<WholeGraph, MstResult> {
    @Override public AlgorithmSpec<WholeGraph, MstResult> spec() { return Mst.SPEC; }

    @Override public MstResult reference(CsrGraph g, WholeGraph query) { return KruskalReference.run(g); }

    @Override
    public Verification verify(CsrGraph g, WholeGraph query, MstResult result) {
        return MstVerifier.verify(g, result);
    }

    @Override public WholeGraph example(CsrGraph g) { return WholeGraph.QUERY; }
}
