package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.LongBuffer;
import org.frontiergraph.kernels.sssp.KeyForm;
import org.junit.jupiter.api.Test;

/** The decoding of a group's DELTAs from the arena, whose bases the finish hands out in any order. */
class TreeDeltasTest {
    /** A pair for vertex v with hop count (unit key) k and parent p. */
    private static long[] pair(int v, long k, int p) {
        return new long[] {k, ((long) v << 32) | (p & 0xffffffffL)};
    }

    @Test
    void pairsReachTheirTreeWhateverTheOrderOfTheBasesAndEmptyDeltasSharingABase() {
        // arena: tree 2's two pairs at 0, tree 0's one pair at 2; trees 1 and 3 empty, with bases 2 and 0
        long[] arena = new long[6];
        System.arraycopy(pair(5, 1, 4), 0, arena, 0, 2);
        System.arraycopy(pair(9, 2, 5), 0, arena, 2, 2);
        System.arraycopy(pair(7, 3, 6), 0, arena, 4, 2);
        TreeDeltas d = new TreeDeltas(4);
        d.add(0, KeyForm.UNIT, 2, 1);
        d.add(1, KeyForm.UNIT, 2, 0);
        d.add(2, KeyForm.UNIT, 0, 2);
        d.add(3, KeyForm.UNIT, 0, 0);
        // in two runs, the second first, as the staging threads may hand them over
        d.accept(LongBuffer.wrap(arena, 4, 2).slice(), 4);
        d.accept(LongBuffer.wrap(arena, 0, 4).slice(), 0);
        assertArrayEquals(new int[] {7}, d.vertices[0]);
        assertArrayEquals(new int[] {6}, d.parents[0]);
        assertArrayEquals(new double[] {3}, d.values[0]);
        assertArrayEquals(new int[0], d.vertices[1]);
        assertArrayEquals(new int[] {5, 9}, d.vertices[2]);
        assertArrayEquals(new int[] {4, 5}, d.parents[2]);
        assertArrayEquals(new double[] {1, 2}, d.values[2]);
        assertArrayEquals(new int[0], d.vertices[3]);
    }
}
