package org.frontiergraph.kernels.cc;

import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.WholeGraph;

/**
 * Weakly connected components (arcs taken as undirected), labeled canonically by each component's smallest vertex
 * id: the specs and their implementations.
 * <ul>
 *   <li>CPU: {@code default}, Afforest as gapbs's cc.cc ({@link CpuCc});</li>
 *   <li>GPU: {@code ecl}, ECL-CC ({@link GpuCc}, src/main/cuda/cc.cu).</li>
 * </ul>
 * Every implementation's answer passes {@link CcVerifier}; {@link CcReference} is the plain reference, and
 * {@link CcRepair} keeps a standing answer up to date across updates.
 */
public final class Cc {
    private Cc() {}

    /** FULL answers: a label per vertex, the component count and the largest size. */
    public static final AlgorithmSpec<WholeGraph, CcResult> SPEC = new AlgorithmSpec<>("CC",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuCc.run(g)),
            GpuCc.IMPLEMENTATION);

    /**
     * SUMMARY answers (component count, largest size): CPU {@code default} (the whole answer, summarized); GPU
     * {@code ecl} (counted on the device, 16 bytes back: {@link GpuCcReads}).
     */
    public static final AlgorithmSpec<WholeGraph, CcSummary> SUMMARY = new AlgorithmSpec<>("CC",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuCc.run(g).summary()),
            GpuCcReads.SUMMARY);

    /** TARGETS answers (labels at given vertices): CPU {@code default} (the whole answer, read); GPU {@code ecl}. */
    public static final AlgorithmSpec<CcAtTargets.Query, CcAtTargets> AT_TARGETS = new AlgorithmSpec<>("CC",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuCc.run(g).at(q.vertices())),
            GpuCcReads.TARGETS);

    /** The components of {@code graph} on its backend ({@code variant} null: the backend's default). */
    public static CcResult run(ResidentGraph graph, String variant) {
        return graph.run(SPEC, WholeGraph.QUERY, variant);
    }
}
