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

/** Harish and Narayanan's two-kernel SSSP (004 Algorithms 3-5) with the atomicMin fix. PLACEHOLDER. */
public final class HarishSssp implements SeedLauncher {
    public static final List<String> VARIANTS = List.of("harish");

    public HarishSssp(CudaContext context, AtomicLong ledger, CsrGraph graph, DeviceCsr csr) {}

    public SsspResult run(int source, Variant variant) {
        throw new UnsupportedVariantException("SSSP", variant.name(), GpuBackend.NAME, List.of());
    }

    @Override public void reweighted(CsrGraph next) {}

    @Override public void close() {}
}
