package org.frontiergraph.kernels.sssp;

/**
 * Slots of the u64 counter array of src/main/cuda/sssp.cu (its {@code enum SsspCounter}; a unit test checks that
 * the two agree).
 */
final class SsspCounters {
    private SsspCounters() {}

    /** Iterations run (near-queue expansions and far-pile splits). */
    static final int ITERATIONS = 9;
    /** Far-pile splits (filters) run. */
    static final int FILTERS = 10;
    /** Vertices the search reached: the length of its reached list (sssp_parents_listed, sssp_summary_listed). */
    static final int REACHED = 13;
    /** Slots the host allocates. */
    static final int COUNT = 16;
}
