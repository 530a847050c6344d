package org.frontiergraph.kernels.cc;

import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * CC's registration with the engine: {@link Cc#SPEC}, {@link CcReference}, {@link CcVerifier} (against the graph and
 * the reference). Its SUMMARY and TARGETS specs ({@link Cc#SUMMARY}, {@link Cc#AT_TARGETS}) are the worker encoder's
 * to choose.
 */
public final class CcModule implements AlgorithmModule<WholeGraph, CcResult> {
    @Override public AlgorithmSpec<WholeGraph, CcResult> spec() { return Cc.SPEC; }

    @Override public CcResult reference(CsrGraph g, WholeGraph query) { return CcReference.run(g); }

    @Override
    public Verification verify(CsrGraph g, WholeGraph query, CcResult result) {
        return CcVerifier.verify(g, result, CcReference.run(g));
    }

    @Override public WholeGraph example(CsrGraph g) { return WholeGraph.QUERY; }
}
