package org.frontiergraph.kernels.mst;

/**
 * Slots of the u64 counter array of src/main/cuda/mst.cu (its {@code enum MstCounter}; a unit test checks that the
 * two agree).
 */
final class MstCounters {
    private MstCounters() {}

    /** Borůvka rounds run. */
    static final int ROUNDS = 2;
    /** Slots the host allocates. */
    static final int COUNT = 16;
}
