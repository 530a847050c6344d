package org.frontiergraph.kernels.mst;

import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.WholeGraph;

/**
 * Minimum spanning forest of the undirected graph underneath, unique by its (weight, edge id) tie-break: the spec
 * and its implementations.
 * <ul>
 *   <li>CPU: {@code default}, Filter-Kruskal ({@link CpuMst}); {@code prim}, binary-heap Prim, paper 000's CPU
 *       baseline ({@link CpuPrim});</li>
 *   <li>GPU: {@code boruvka} (default; {@link GpuMst}, src/main/cuda/mst.cu), its edge list uploaded on the first
 *       MST query of a version; {@code prim-gmr} and {@code prim-naive}, paper 000 ({@link GpuPrim}, mst_prim.cu).</li>
 * </ul>
 * Every implementation's answer passes {@link MstVerifier}; {@link KruskalReference} is the plain reference.
 */
public final class Mst {
    private Mst() {}

    public static final AlgorithmSpec<WholeGraph, MstResult> SPEC = new AlgorithmSpec<>("MST",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuMst.run(g)),
            new CpuAlgorithm<>(List.of(CpuPrim.VARIANT), (g, q, v) -> CpuPrim.run(g)),
            GpuMst.IMPLEMENTATION,
            GpuPrim.IMPLEMENTATION);

    /** The minimum spanning forest of {@code graph} on its backend ({@code variant} null: the backend's default). */
    public static MstResult run(ResidentGraph graph, String variant) {
        return graph.run(SPEC, WholeGraph.QUERY, variant);
    }
}
