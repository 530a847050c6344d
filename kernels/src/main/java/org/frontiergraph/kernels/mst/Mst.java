package org.frontiergraph.kernels.mst;

import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Minimum spanning forest of the undirected graph underneath, unique by its (weight, edge id) tie-break: the spec
 * and its implementations.
 * <ul>
 *   <li>CPU: {@code default}, Filter-Kruskal ({@link CpuMst}); {@code prim}, binary-heap Prim, paper 000's CPU
 *       baseline ({@link CpuPrim});</li>
 *   <li>GPU: {@code ecl} ({@link EclMst}, src/main/cuda/mst_ecl.cu: ECL-MST's weight-filtered Borůvka), the
 *       default on graphs with at least two undirected edges per vertex; {@code boruvka} ({@link GpuMst},
 *       src/main/cuda/mst.cu), the default on sparser (road-like) graphs, where ECL's filter does not apply and one
 *       cooperative launch wins (H200: kron22 3.6 vs 24.1 ms, uniform22 5.3 vs 52.7 ms, NY 0.29 vs 0.19 ms;
 *       docs/benchmarks.md); both upload their edge list on the first MST query of a version; {@code prim-gmr} and
 *       {@code prim-naive}, paper 000 ({@link GpuPrim}, mst_prim.cu).</li>
 * </ul>
 * Every implementation's answer passes {@link MstVerifier}; {@link KruskalReference} is the plain reference.
 */
public final class Mst {
    private Mst() {}

    public static final AlgorithmSpec<WholeGraph, MstResult> SPEC = new AlgorithmSpec<>("MST",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuMst.run(g)),
            new CpuAlgorithm<>(List.of(CpuPrim.VARIANT), (g, q, v) -> CpuPrim.run(g)),
            EclMst.IMPLEMENTATION.defaultFor(Mst::dense),
            GpuMst.IMPLEMENTATION,
            GpuPrim.IMPLEMENTATION);

    /**
     * SUMMARY answers (total weight, edge count, components) without the edge ids: CPU {@code default} (the whole
     * forest, summarized); GPU {@code default} ({@link GpuMstSummary}: the default launcher's forest, counted and
     * summed on the device where the weights are integers). The worker answers MST SUMMARY queries with it.
     */
    public static final AlgorithmSpec<WholeGraph, MstSummary> SUMMARY = new AlgorithmSpec<>("MST",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> MstSummary.of(CpuMst.run(g))),
            GpuMstSummary.IMPLEMENTATION);

    /**
     * At least two undirected edges per vertex: where ECL-MST's filter applies (EclMst's own rule). Counted on the
     * undirected edges an MST runs on: a directed road graph stores most links as two arcs, and counting arcs would
     * call it dense.
     */
    static boolean dense(CsrGraph g) {
        long m = g.directed() ? g.undirectedEdges().size() : g.edgeCount();
        return m >= 2L * g.vertexCount();
    }

    /** The minimum spanning forest of {@code graph} on its backend ({@code variant} null: the backend's default). */
    public static MstResult run(ResidentGraph graph, String variant) {
        return graph.run(SPEC, WholeGraph.QUERY, variant);
    }
}
