package org.frontiergraph.kernels;

import java.util.List;
import org.frontiergraph.kernels.apsp.Apsp;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.sssp.Sssp;

/**
 * The one list of algorithms the engine answers. Adding an algorithm: a package beside {@code bfs/} with its spec
 * (an {@link Algorithm} listing its CPU and GPU implementations), result, reference, verifier and launchers, its
 * kernels in {@code src/main/cuda/}, and one line here (README, "Adding an algorithm", has the whole recipe).
 */
public final class Algorithms {
    private Algorithms() {}

    public static final List<AlgorithmSpec<?, ?>> ALL = List.of(Bfs.SPEC, Sssp.SPEC, Mst.SPEC, Apsp.SPEC);
}
