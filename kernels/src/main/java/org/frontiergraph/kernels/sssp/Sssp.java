package org.frontiergraph.kernels.sssp;

import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;

/**
 * Single-source shortest paths (non-negative weights): the spec and its implementations.
 * <ul>
 *   <li>CPU: {@code default}, Dijkstra with a radix heap (integer weights) or a 4-ary heap ({@link CpuSssp});</li>
 *   <li>GPU: {@code nearfar} (default on other graphs; near-far delta-stepping in
 *       one persistent kernel, {@link GpuSssp}, src/main/cuda/sssp.cu), resident from load; {@code async}
 *       (asynchronous bucketed delta-stepping without a barrier per step, {@link AsyncSssp},
 *       src/main/cuda/sssp_async.cu; the default on sparse graphs, mean degree below 8, and on dense graphs of 2^26
 *       arcs or more with a vertex of 1,024 arcs or more: {@code SeedSssp.asyncByDefault}, with the measurements);
 *       {@code harish} (paper 004
 *       Algorithms 3-5 with the atomicMin fix, {@link HarishSssp}); {@code da2cf-*} (paper 003, {@link Da2cfSssp}).</li>
 * </ul>
 * Every implementation's answer passes {@link SsspVerifier}; {@link DijkstraReference} is the plain reference.
 */
public final class Sssp {
    private Sssp() {}

    public static final AlgorithmSpec<Source, SsspResult> SPEC = new AlgorithmSpec<>("SSSP",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuSssp.run(g, q.vertex())),
            AsyncSssp.IMPLEMENTATION.defaultFor(SeedSssp::asyncByDefault),
            GpuSssp.IMPLEMENTATION,
            HarishSssp.IMPLEMENTATION,
            Da2cfSssp.IMPLEMENTATION);

    /**
     * SUMMARY answers (reached count, largest distance) for a batch of sources, in their order, without copying
     * distance arrays back: CPU {@code default} ({@link CpuSsspSummaries}); GPU {@code default}
     * ({@link GpuSsspSummaries}: one source on the default variant, its distances reduced on the device; several in
     * passes of up to 32 sources per launch, {@link MultiSssp}). The worker answers the SSSP
     * SUMMARY queries of a poll batch with it.
     */
    public static final AlgorithmSpec<Sources, SsspSummaries> SUMMARIES = new AlgorithmSpec<>("SSSP",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuSsspSummaries.run(g, q.vertices())),
            GpuSsspSummaries.IMPLEMENTATION);

    /**
     * An SSSP read at a few targets (TARGETS answers): CPU {@code default} (the full Dijkstra, then read); GPU
     * {@code default} ({@link GpuSsspTargets}: the default variant, only the targets' values copied back).
     */
    public static final AlgorithmSpec<Targets, SsspAtTargets> AT_TARGETS = new AlgorithmSpec<>("SSSP",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> SsspAtTargets.of(CpuSssp.run(g, q.source()), q.vertices())),
            GpuSsspTargets.IMPLEMENTATION);

    /** SSSP from {@code source} on {@code graph}'s backend ({@code variant} null: the backend's default). */
    public static SsspResult run(ResidentGraph graph, int source, String variant) {
        return graph.run(SPEC, new Source(source), variant);
    }
}
