package org.frontiergraph.kernels.cpu;

import java.util.List;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.CpuApsp;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.CpuBfs;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.CpuMst;
import org.frontiergraph.kernels.mst.CpuPrim;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.CpuSssp;
import org.frontiergraph.kernels.sssp.SsspResult;

/** The CPU engine: graphs stay in the JVM heap; algorithms use all cores where that pays. */
public final class CpuBackend implements ComputeBackend {
    public static final String NAME = "cpu";

    @Override
    public String name() { return NAME; }

    @Override
    public ResidentGraph load(CsrGraph graph) {
        return new Resident(graph);
    }

    @Override
    public void close() {}

    private static final class Resident implements ResidentGraph {
        private final CsrGraph graph;

        Resident(CsrGraph graph) { this.graph = graph; }

        @Override public CsrGraph graph() { return graph; }
        @Override public String backend() { return NAME; }
        @Override public long residentBytes() { return graph.bytes(); }

        @Override
        public BfsResult bfs(int source, String variant) {
            requireDefault("BFS", variant);
            return CpuBfs.run(graph, source);
        }

        @Override
        public SsspResult sssp(int source, String variant) {
            requireDefault("SSSP", variant);
            return CpuSssp.run(graph, source);
        }

        @Override
        public MstResult mst(String variant) {
            if (CpuPrim.VARIANT.equals(variant)) return CpuPrim.run(graph);
            requireDefault("MST", variant, List.of("default", CpuPrim.VARIANT));
            return CpuMst.run(graph);
        }

        @Override
        public ApspResult apsp(String variant, ApspLimits limits) {
            return CpuApsp.run(graph, variant == null || variant.equals("default") ? null : variant, limits);
        }

        @Override
        public void close() {}
    }

    static void requireDefault(String algorithm, String variant) {
        requireDefault(algorithm, variant, List.of("default"));
    }

    /** Seed-paper GPU variants (harish, da2cf-*, prim-gmr...) run on the GPU backend only: the CPU engine names them. */
    static void requireDefault(String algorithm, String variant, List<String> known) {
        if (variant != null && !variant.isEmpty() && !variant.equals("default")) {
            throw new UnsupportedVariantException(algorithm, variant, NAME, known);
        }
    }
}
