package org.frontiergraph.kernels.bfs;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.SeedLauncher;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;

/** Harish and Narayanan's BFS (004 Algorithms 1-2). PLACEHOLDER: not implemented yet. */
public final class HarishBfs implements SeedLauncher {
    public static final List<String> VARIANTS = List.of("harish");

    public HarishBfs(CudaContext context, AtomicLong ledger, CsrGraph graph, DeviceCsr csr) {}

    public BfsResult run(int source, Variant variant) {
        throw new UnsupportedVariantException("BFS", variant.name(), GpuBackend.NAME, List.of());
    }

    @Override public void reweighted(CsrGraph next) {}

    @Override public void close() {}
}
