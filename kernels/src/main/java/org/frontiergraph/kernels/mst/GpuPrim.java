package org.frontiergraph.kernels.mst;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.SeedLauncher;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/** GPU Prim (000): with the GMR min-reduction primitive (prim-gmr) and without it (prim-naive). PLACEHOLDER. */
public final class GpuPrim implements SeedLauncher {
    public static final List<String> VARIANTS = List.of("prim-gmr", "prim-naive");

    public GpuPrim(CudaContext context, AtomicLong ledger, CsrGraph graph) {}

    public MstResult run(Variant variant) {
        throw new UnsupportedVariantException("MST", variant.name(), GpuBackend.NAME, List.of());
    }

    @Override public void reweighted(CsrGraph next) {}

    @Override public void close() {}
}
