package org.frontiergraph.kernels.sssp;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.SeedLauncher;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/** Martin et al. DA2CF (003): relax_F, relax_U, relax_U plus, list and matrix forms. PLACEHOLDER. */
public final class Da2cfSssp implements SeedLauncher {
    public static final List<String> VARIANTS = List.of("da2cf-f", "da2cf-u", "da2cf-u-plus", "da2cf-f-matrix", "da2cf-u-matrix");

    public Da2cfSssp(CudaContext context, AtomicLong ledger, CsrGraph graph, DeviceCsr csr) {}

    public SsspResult run(int source, Variant variant) {
        throw new UnsupportedVariantException("SSSP", variant.name(), GpuBackend.NAME, List.of());
    }

    @Override public void reweighted(CsrGraph next) {}

    @Override public void close() {}
}
