package org.frontiergraph.kernels.standing;

import java.util.Map;

/**
 * What a device repair ({@link DeviceTrees#repair}) did to one tree: how, and the vertices whose value or parent
 * changed (ascending; a vertex added by the batch counts only when reached), with their new values (distances or hop
 * counts, +Inf unreached) and parents (null for {@link How#HOST}: the host's answer holds them). {@code counters}:
 * {@code invalidated}, {@code seeds}, {@code rounds} (pointer jumping), {@code orphans} (vertices whose tight in-arcs
 * all come from vertices of the same distance), {@code adopted} (those given a parent on the device) and {@code cycles}
 * (1: the tree's parents held a cycle, so it was recomputed from its source).
 */
public record TreeOutcome(How how, int[] vertices, double[] values, int[] parents, Map<String, Long> counters) {
    static final TreeOutcome UNTOUCHED = new TreeOutcome(How.UNTOUCHED, new int[0], new double[0], new int[0], Map.of());

    /** How a tree was brought up to date. */
    public enum How {
        /** The batch cannot change it (screened out): no launch. */
        UNTOUCHED,
        /** Repaired on the device. */
        REPAIRED,
        /** Above the budget, or its parents held a cycle: recomputed on the device from the source. */
        RECOMPUTED,
        /** Repaired on the host (the device could not give an exact tree); the device copy replaced by the result. */
        HOST
    }
}
