package org.frontiergraph.bench.repro;

import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;

/**
 * One graph on both engines, with the CPU engine's answers cached per source as verification references (the CPU
 * engine's own first answer is checked against the kernels' reference implementations).
 */
final class Pair implements AutoCloseable {
    final CsrGraph g;
    final ResidentGraph cpu;
    final ResidentGraph gpu;
    private final Map<Integer, SsspResult> ssspRef = new HashMap<>();
    private final Map<Integer, BfsResult> bfsRef = new HashMap<>();
    private boolean cpuSsspChecked, cpuBfsChecked;

    Pair(CsrGraph g, ComputeBackend cpuBackend, ComputeBackend gpuBackend) {
        this.g = g;
        this.cpu = cpuBackend.load(g);
        this.gpu = gpuBackend == null ? null : gpuBackend.load(g);
    }

    synchronized SsspResult ssspRef(int s) {
        return ssspRef.computeIfAbsent(s, x -> Sssp.run(cpu, x, null));
    }

    synchronized BfsResult bfsRef(int s) {
        return bfsRef.computeIfAbsent(s, x -> Bfs.run(cpu, x, null));
    }

    /** A checker of the CPU engine's SSSP: the first against DijkstraReference, all kept as references. */
    Repro.Checker<SsspResult> cpuSsspCheck() {
        return (s, r) -> {
            ssspRef.putIfAbsent(s, r);
            if (cpuSsspChecked) return SsspVerifier.verify(g, s, r, ssspRef(s));
            cpuSsspChecked = true;
            return SsspVerifier.verify(g, s, r);
        };
    }

    Repro.Checker<BfsResult> cpuBfsCheck() {
        return (s, r) -> {
            bfsRef.putIfAbsent(s, r);
            if (cpuBfsChecked) return BfsVerifier.verify(g, s, r, bfsRef(s));
            cpuBfsChecked = true;
            return BfsVerifier.verify(g, s, r);
        };
    }

    Repro.Checker<SsspResult> ssspCheck() {
        return (s, r) -> SsspVerifier.verify(g, s, r, ssspRef(s));
    }

    Repro.Checker<BfsResult> bfsCheck() {
        return (s, r) -> BfsVerifier.verify(g, s, r, bfsRef(s));
    }

    @Override
    public void close() {
        cpu.close();
        if (gpu != null) gpu.close();
    }
}
