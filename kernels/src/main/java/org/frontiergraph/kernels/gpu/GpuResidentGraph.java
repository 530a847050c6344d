package org.frontiergraph.kernels.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.GpuApsp;
import org.frontiergraph.kernels.bfs.HarishBfs;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.mst.GpuPrim;
import org.frontiergraph.kernels.sssp.Da2cfSssp;
import org.frontiergraph.kernels.sssp.HarishSssp;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.GpuBfs;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.GpuMst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.GpuSssp;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * One graph version in device memory: the CSR, the BFS and SSSP work arrays, and (after the first MST query) the
 * MST edge list. Queries run on it without copying the graph again; {@link #replace} patches weights in place
 * when the next version has the same arcs. {@link #residentBytes()} counts every device byte it holds;
 * {@link #close()} frees them. Thread-safe: device work is serialized by the backend's {@link CudaContext}.
 */
public final class GpuResidentGraph implements ResidentGraph {
    private final GpuBackend backend;
    private final CudaContext context;
    private final AtomicLong ledger = new AtomicLong();
    private CsrGraph graph;
    private final DeviceCsr csr;
    private final GpuBfs bfs;
    private final GpuSssp sssp;
    private GpuMst mst;
    /** Seed-paper launchers, allocated when a query first names them. */
    private final Map<Class<?>, SeedLauncher> seeds = new LinkedHashMap<>();
    private boolean closed;

    /** Call inside {@link CudaContext#call}. */
    GpuResidentGraph(GpuBackend backend, CsrGraph graph) {
        this.backend = backend;
        this.context = backend.context();
        this.graph = graph;
        DeviceCsr c = null;
        GpuBfs b = null;
        try {
            c = new DeviceCsr(context, ledger, graph);
            b = new GpuBfs(context, ledger, graph, c);
            this.sssp = new GpuSssp(context, ledger, graph, c);
        } catch (RuntimeException e) {
            if (b != null) b.close();
            if (c != null) c.close();
            throw e;
        }
        this.csr = c;
        this.bfs = b;
    }

    /** Device bytes taken at load (CSR plus BFS and SSSP work arrays). */
    static long bytesAtLoad(CsrGraph g) {
        return DeviceCsr.bytesFor(g) + 4L * 4 * g.vertexCount() + 4L * 10 * g.vertexCount() + 1024;
    }

    @Override
    public synchronized CsrGraph graph() { return graph; }

    @Override
    public String backend() { return GpuBackend.NAME; }

    @Override
    public long residentBytes() { return ledger.get(); }

    @Override
    public BfsResult bfs(int source, String variant) {
        return context.call(() -> {
            ensureOpen();
            String name = Variant.nameOf(variant);
            if (name != null && HarishBfs.VARIANTS.contains(name)) {
                return seed(HarishBfs.class, () -> new HarishBfs(context, ledger, graph, csr))
                        .run(source, Variant.parse("BFS", variant, name, HarishBfs.VARIANTS));
            }
            requireKnown("BFS", variant, name, GpuBfs.VARIANTS, HarishBfs.VARIANTS);
            return bfs.run(source, variant);
        });
    }

    @Override
    public SsspResult sssp(int source, String variant) {
        return context.call(() -> {
            ensureOpen();
            String name = Variant.nameOf(variant);
            if (name != null && HarishSssp.VARIANTS.contains(name)) {
                return seed(HarishSssp.class, () -> new HarishSssp(context, ledger, graph, csr))
                        .run(source, Variant.parse("SSSP", variant, name, HarishSssp.VARIANTS));
            }
            if (name != null && Da2cfSssp.VARIANTS.contains(name)) {
                return seed(Da2cfSssp.class, () -> new Da2cfSssp(context, ledger, graph, csr))
                        .run(source, Variant.parse("SSSP", variant, name, Da2cfSssp.VARIANTS));
            }
            requireKnown("SSSP", variant, name, GpuSssp.VARIANTS, HarishSssp.VARIANTS, Da2cfSssp.VARIANTS);
            return sssp.run(source, variant);
        });
    }

    @Override
    public ApspResult apsp(String variant, ApspLimits limits) {
        return context.call(() -> {
            ensureOpen();
            String name = Variant.nameOf(variant);
            requireKnown("APSP", variant, name == null ? GpuApsp.VARIANTS.get(0) : name, GpuApsp.VARIANTS);
            return seed(GpuApsp.class, () -> new GpuApsp(context, ledger, graph, csr))
                    .run(Variant.parse("APSP", variant, GpuApsp.VARIANTS.get(0), GpuApsp.VARIANTS), limits);
        });
    }

    @Override
    public MstResult mst(String variant) {
        return context.call(() -> {
            ensureOpen();
            String name = Variant.nameOf(variant);
            if (name != null && GpuPrim.VARIANTS.contains(name)) {
                return seed(GpuPrim.class, () -> new GpuPrim(context, ledger, graph))
                        .run(Variant.parse("MST", variant, name, GpuPrim.VARIANTS));
            }
            requireKnown("MST", variant, name, GpuMst.VARIANTS, GpuPrim.VARIANTS);
            if (mst == null) {
                long need = GpuMst.bytesFor(graph);
                long free = context.freeBytes();
                if (need + GpuBackend.RESERVE_BYTES > free) {
                    throw new GraphTooLargeException("MST of this graph needs " + need + " more bytes on "
                            + context.deviceName() + " but only " + free + " are free");
                }
                mst = new GpuMst(context, ledger, graph);
            }
            return mst.run(variant);
        });
    }

    private <T extends SeedLauncher> T seed(Class<T> type, Supplier<T> create) {
        return type.cast(seeds.computeIfAbsent(type, t -> create.get()));
    }

    @SafeVarargs
    private static void requireKnown(String algorithm, String text, String name, List<String>... lists) {
        if (name == null) return;
        List<String> known = new ArrayList<>();
        for (List<String> l : lists) known.addAll(l);
        if (!known.contains(name)) throw new UnsupportedVariantException(algorithm, text, GpuBackend.NAME, known);
    }

    /** Kernel statistics of the last queries (levels, iterations, rounds), for benchmarks. */
    public String lastStats() {
        return context.call(() -> "bfsLevels=" + bfs.lastLevels() + " ssspIterations=" + sssp.lastIterations()
                + " ssspFilters=" + sssp.lastFilters() + " mstRounds=" + (mst == null ? 0 : mst.lastRounds()));
    }

    /**
     * Same arcs (row offsets and columns equal): new weights are copied over the old ones on the device and this
     * handle is returned. Otherwise the next version is loaded afresh and this one closed.
     */
    @Override
    public ResidentGraph replace(CsrGraph next, ComputeBackend owner) {
        if (owner == backend && sameArcs(graph, next)) {
            boolean patched = context.call(() -> {
                ensureOpen();
                if (next.directed() != graph.directed()) return false;
                csr.uploadWeights(next);
                bfs.reweighted(next);
                sssp.reweighted(next);
                seeds.values().forEach(l -> l.reweighted(next));
                if (mst != null) {  // the edge list carries weights: rebuild on the next MST query
                    mst.close();
                    mst = null;
                }
                synchronized (this) {
                    graph = next;
                }
                return true;
            });
            if (patched) return this;
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

    @Override
    public void close() {
        context.run(() -> {
            if (closed) return;
            closed = true;
            if (mst != null) mst.close();
            seeds.values().forEach(SeedLauncher::close);
            seeds.clear();
            sssp.close();
            bfs.close();
            csr.close();
        });
    }
}
