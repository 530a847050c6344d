package org.frontiergraph.kernels.bfs;

/**
 * Slots of the u64 counter array of src/main/cuda/bfs.cu (its {@code enum BfsCounter}; a unit test checks that the
 * two agree).
 */
final class BfsCounters {
    private BfsCounters() {}

    /** Next-frontier size of level l is in NEXT_COUNT + l % 3. */
    static final int NEXT_COUNT = 0;
    /** Arcs of the next frontier of level l are in NEXT_ARCS + l % 3. */
    static final int NEXT_ARCS = 3;
    /** Levels the persistent kernel ran. */
    static final int LEVELS = 6;
    /** Slots the host allocates. */
    static final int COUNT = 16;
}
