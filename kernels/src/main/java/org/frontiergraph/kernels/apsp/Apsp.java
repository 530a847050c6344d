package org.frontiergraph.kernels.apsp;

import java.util.List;
import org.frontiergraph.kernels.cpu.CpuAlgorithm;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;

/**
 * All-pairs shortest paths on small graphs (the answer is n^2 distances, refused beyond {@link ApspLimits}): the
 * spec and its implementations.
 * <ul>
 *   <li>CPU: {@code default} (picks {@link CpuApsp#defaultVariant} for the graph), {@code floyd-warshall} (blocked)
 *       and {@code repeated-sssp} ({@link CpuApsp});</li>
 *   <li>GPU: {@code floyd-warshall} (default; paper 004 Algorithm 6) and {@code repeated-sssp} (004 Algorithm 7)
 *       ({@link GpuApsp}, src/main/cuda/apsp.cu).</li>
 * </ul>
 * Every implementation's answer passes {@link ApspVerifier}; {@link FloydWarshallReference} is the plain reference.
 */
public final class Apsp {
    private Apsp() {}

    public static final AlgorithmSpec<ApspLimits, ApspResult> SPEC = new AlgorithmSpec<>("APSP",
            new CpuAlgorithm<>(List.of("default", CpuApsp.FLOYD_WARSHALL, CpuApsp.REPEATED_SSSP),
                    (g, limits, v) -> CpuApsp.run(g, v.is("default") ? null : v.name(), limits)),
            GpuApsp.IMPLEMENTATION);

    /** APSP on {@code graph}'s backend within {@code limits} ({@code variant} null: the backend's default). */
    public static ApspResult run(ResidentGraph graph, String variant, ApspLimits limits) {
        return graph.run(SPEC, limits, variant);
    }
}
