package org.frontiergraph.kernels.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * One graph version in device memory: the CSR and the launchers opened on it (the at-load ones from the start,
 * others when a query first names them). Queries run without copying the graph again; {@link #replace} patches
 * weights in place when the next version has the same arcs. {@link #residentBytes()} counts every device byte the
 * CSR and the launchers hold; {@link #close()} frees them. Thread-safe: device work is serialized by the backend's
 * {@link CudaContext}.
 */
final class GpuResidentGraph implements ResidentGraph {
    private final GpuBackend backend;
    private final CudaContext context;
    private final AtomicLong ledger = new AtomicLong();
    private final DeviceCsr csr;
    private final Map<GpuAlgorithm<?, ?>, GpuLauncher<?, ?>> launchers = new IdentityHashMap<>();
    private volatile CsrGraph graph;
    private boolean closed;

    /** Call inside {@link CudaContext#call}. Frees what it allocated when an allocation fails. */
    GpuResidentGraph(GpuBackend backend, CsrGraph graph, List<GpuAlgorithm<?, ?>> atLoad) {
        this.backend = backend;
        this.context = backend.context();
        this.graph = graph;
        this.csr = new DeviceCsr(context, ledger, graph);
        try {
            for (GpuAlgorithm<?, ?> impl : atLoad) launchers.put(impl, impl.open().apply(device()));
        } catch (RuntimeException e) {
            closeLaunchers();
            csr.close();
            throw e;
        }
    }

    private DeviceGraph device() {
        return new DeviceGraph(context, ledger, csr, graph);
    }

    @Override
    public CsrGraph graph() { return graph; }

    @Override
    public String backend() { return GpuBackend.NAME; }

    @Override
    public long residentBytes() { return ledger.get(); }

    @Override
    @SuppressWarnings("unchecked")
    public <Q, R> R run(AlgorithmSpec<Q, R> algorithm, Q query, String variant) {
        AlgorithmSpec.Choice<Q, R> choice = algorithm.choose(GpuBackend.NAME, variant, graph);
        GpuAlgorithm<Q, R> impl = (GpuAlgorithm<Q, R>) choice.implementation();
        return context.call(() -> {
            ensureOpen();
            GpuLauncher<Q, R> launcher = (GpuLauncher<Q, R>) launchers.get(impl);
            if (launcher == null) {
                backend.requireFree(impl.deviceBytes(graph), algorithm.name() + " " + choice.variant().name() + " on this graph");
                launcher = impl.open().apply(device());
                launchers.put(impl, launcher);
            }
            return launcher.run(query, choice.variant());
        });
    }

    /**
     * Same arcs (row offsets and columns equal): new weights are copied over the old ones on the device, launchers
     * refresh or drop what they derived from the weights, and this handle is returned. Otherwise the next version is
     * loaded afresh and this one closed.
     */
    @Override
    public ResidentGraph replace(CsrGraph next, ComputeBackend owner) {
        if (owner == backend && next.directed() == graph.directed() && sameArcs(graph, next)) {
            context.run(() -> {
                ensureOpen();
                csr.uploadWeights(next);
                List<GpuAlgorithm<?, ?>> stale = new ArrayList<>();
                launchers.forEach((impl, l) -> {
                    if (!l.reweighted(next)) stale.add(impl);
                });
                for (GpuAlgorithm<?, ?> impl : stale) launchers.remove(impl).close();
                graph = next;
            });
            return this;
        }
        return ResidentGraph.super.replace(next, owner);
    }

    private static boolean sameArcs(CsrGraph a, CsrGraph b) {
        return a.vertexCount() == b.vertexCount() && a.arcCount() == b.arcCount()
                && (a.rowOffsets() == b.rowOffsets() || Arrays.equals(a.rowOffsets(), b.rowOffsets()))
                && (a.columns() == b.columns() || Arrays.equals(a.columns(), b.columns()));
    }

    private void ensureOpen() {
        if (closed) throw new IllegalStateException("resident graph already closed");
    }

    private void closeLaunchers() {
        launchers.values().forEach(GpuLauncher::close);
        launchers.clear();
    }

    @Override
    public void close() {
        context.run(() -> {
            if (closed) return;
            closed = true;
            closeLaunchers();
            csr.close();
        });
    }
}
