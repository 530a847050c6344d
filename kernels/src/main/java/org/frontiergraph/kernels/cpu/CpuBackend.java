package org.frontiergraph.kernels.cpu;

import java.util.List;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.CpuBfs;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.mst.CpuMst;
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
            requireDefault("MST", variant);
            return CpuMst.run(graph);
        }

        @Override
        public void close() {}
    }

    static void requireDefault(String algorithm, String variant) {
        if (variant != null && !variant.isEmpty() && !variant.equals("default")) {
            throw new UnsupportedVariantException(algorithm, variant, NAME, List.of("default"));
        }
    }
}
