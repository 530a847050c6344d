package org.frontiergraph.kernels.apsp;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.SeedLauncher;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/** GPU APSP (004 Algorithms 6 and 7): floyd-warshall (V^2 threads per k) and repeated-sssp. PLACEHOLDER. */
public final class GpuApsp implements SeedLauncher {
    public static final List<String> VARIANTS = List.of("floyd-warshall", "repeated-sssp");

    public GpuApsp(CudaContext context, AtomicLong ledger, CsrGraph graph, DeviceCsr csr) {}

    public ApspResult run(Variant variant, ApspLimits limits) {
        throw new UnsupportedVariantException("APSP", variant.name(), GpuBackend.NAME, List.of());
    }

    @Override public void reweighted(CsrGraph next) {}

    @Override public void close() {}
}
