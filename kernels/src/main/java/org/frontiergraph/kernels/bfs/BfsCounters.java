package org.frontiergraph.kernels.bfs;

/**
 * Slots of the u64 counter array of src/main/cuda/bfs.cu (its {@code enum BfsCounter}; a unit test checks that the
 * two agree).
 */
final class BfsCounters {
    private BfsCounters() {}

    /** Next-frontier size of level l is in NEXT_COUNT + (l + rotation) % 3 (the host loop: rotation 0). */
    static final int NEXT_COUNT = 0;
    /** Arcs of the next frontier of level l are in NEXT_ARCS + (l + rotation) % 3. */
    static final int NEXT_ARCS = 3;
    /** Levels the search ran. */
    static final int LEVELS = 6;
    /** Vertices the search reached: the length of its queue of frontiers, which the next search clears. */
    static final int REACHED = 7;
    /** First of the six slots of block 0's hand-over to the grid (bfs_persistent; read on the device only). */
    static final int AT_LEVEL = 8;
    /** Slots the host allocates. */
    static final int COUNT = 16;
}
