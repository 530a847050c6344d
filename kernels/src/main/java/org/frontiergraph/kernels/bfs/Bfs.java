package org.frontiergraph.kernels.bfs;

import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;

/**
 * Breadth-first search: the spec and its implementations.
 * <ul>
 *   <li>CPU: {@code default}, direction-optimizing and parallel ({@link CpuBfs});</li>
 *   <li>GPU: {@code persistent} (default) and {@code hostloop} ({@link GpuBfs}, src/main/cuda/bfs.cu), resident
 *       from load; {@code harish}, paper 004 Algorithms 1-2 ({@link HarishBfs}, bfs_harish.cu).</li>
 * </ul>
 * Every implementation's answer passes {@link BfsVerifier}; {@link BfsReference} is the plain reference.
 */
public final class Bfs {
    private Bfs() {}

    public static final AlgorithmSpec<Source, BfsResult> SPEC = new AlgorithmSpec<>("BFS",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuBfs.run(g, q.vertex())),
            GpuBfs.IMPLEMENTATION,
            HarishBfs.IMPLEMENTATION);

    /**
     * SUMMARY answers (reached count, largest hop count) for a batch of sources, in their order, without copying
     * hop arrays back: CPU {@code default} ({@link CpuBfsSummaries}: bit-parallel passes of up to 64 sources,
     * {@link CpuMultiSourceBfs}, on dense graphs; a sequential search per source otherwise); GPU {@code default} ({@link GpuBfsSummaries}:
     * one source reduced on the device, several in bit-parallel passes of up to 64, {@link MultiSourceBfs}). The worker answers the BFS SUMMARY queries of a poll batch with it.
     */
    public static final AlgorithmSpec<Sources, BfsSummaries> SUMMARIES = new AlgorithmSpec<>("BFS",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> CpuBfsSummaries.run(g, q.vertices())),
            GpuBfsSummaries.IMPLEMENTATION);

    /**
     * A BFS read at a few targets (TARGETS answers): CPU {@code default} (the full search, then read); GPU
     * {@code default} ({@link GpuBfsTargets}: only the targets' values copied back).
     */
    public static final AlgorithmSpec<Targets, BfsAtTargets> AT_TARGETS = new AlgorithmSpec<>("BFS",
            new CpuAlgorithm<>(List.of("default"), (g, q, v) -> BfsAtTargets.of(CpuBfs.run(g, q.source()), q.vertices())),
            GpuBfsTargets.IMPLEMENTATION);

    /** BFS from {@code source} on {@code graph}'s backend ({@code variant} null: the backend's default). */
    public static BfsResult run(ResidentGraph graph, int source, String variant) {
        return graph.run(SPEC, new Source(source), variant);
    }
}
