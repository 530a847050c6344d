package org.frontiergraph.kernels.standing;

/**
 * sssp_repair.cu's {@code enum RepairCounter}: the u64 counter slots of a tree of a repair group (a test checks that
 * they agree). A tree's slots start at {@link #COUNTERS} times its place in the group.
 */
enum RepairCounter {
    /** Changed tree arcs that broke (vertices marked in step 1). */
    ROOTS(0),
    /** Vertices marked (roots and their subtrees). */
    INVALID(1),
    /** Vertices in far list 0 (read by the seeded settle as the list's size). */
    SEEDS(2),
    /** 1: more than the most invalidated allowed, recomputed from the source; 2: a cycle in the parents, the same. */
    RECOMPUTE(3),
    /** Pointer-jumping rounds. */
    ROUNDS(4),
    /** Vertices with a finite key and no candidate of smaller key (then adopted). */
    ORPHANS(5),
    /** Vertices whose key or parent changed (the DELTA's length). */
    CHANGED(6),
    /** The DELTA's first pair in the arena. */
    BASE(7),
    /** Vertices that needed a parent. */
    NEED(8),
    /** 3 slots, round % 3: vertices still jumping (prepare), adopted (finish). */
    ACTIVE(9),
    /** Orphans adopted (the rest go to the host). */
    ADOPTED(12),
    /** 3 slots, level % 3: vertices marked in that level of the subtrees' walk. */
    LEVEL(13),
    /** Warps that found a root of step 6's pass (cleared between passes). */
    SHIFT_ROOTS(16),
    /** Vertices lowered with the root of their subtree in step 6 (integer and hop keys). */
    SHIFTED(17);

    /** Slots of one tree (sssp_repair.cu's REPAIR_COUNTERS). */
    static final int COUNTERS = 20;
    /** sssp_repair.cu's GROUP_COUNTERS: the group's u64 counts. */
    static final int GROUP_COUNTERS = 16;
    /**
     * {@link #RECOMPUTE}'s value for a tree whose parents held a cycle (sssp_repair.cu's MAX_JUMP_ROUNDS: its pointer
     * jumping would never end), recomputed from its source instead. No repair or patch should leave one: it is logged.
     */
    static final long CYCLE = 2;
    /** sssp_repair.cu's struct RepairTree: device pointers a tree of a group (8 bytes each). */
    static final int TREE_WORDS = 9;

    final int slot;

    RepairCounter(int slot) {
        this.slot = slot;
    }

    /** This counter of the tree whose slots start at {@code at} in {@code c}. */
    long of(long[] c, int at) {
        return c[at + slot];
    }

    /**
     * How the device brought up to date the tree from {@code source} whose slots start at {@code at}: repaired, or
     * recomputed from its source (above the budget, or a cycle in its parents, which is logged).
     */
    static TreeOutcome.How how(long[] c, int at, int source) {
        long recompute = RECOMPUTE.of(c, at);
        if (recompute == CYCLE) {
            LOG.log(System.Logger.Level.WARNING, "the device tree from source {0} had a cycle in its parents; recomputed from its source", source);
        }
        return recompute != 0 ? TreeOutcome.How.RECOMPUTED : TreeOutcome.How.REPAIRED;
    }

    private static final System.Logger LOG = System.getLogger(DeviceTrees.class.getName());
}
