package org.frontiergraph.kernels.mst;

import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Prim's algorithm with a binary heap: the CPU baseline of paper 000 (it compares with Boost's Prim), selectable
 * as MST variant {@code prim} on the CPU engine. Minimum spanning forest (restarts in every component), same
 * (weight, edge id) tie-break as every other MST here, so the edge set is the unique one.
 * PLACEHOLDER until implemented: delegates to Kruskal.
 */
public final class CpuPrim {
    public static final String VARIANT = "prim";

    private CpuPrim() {}

    public static MstResult run(CsrGraph g) {
        return KruskalReference.run(g);
    }
}
