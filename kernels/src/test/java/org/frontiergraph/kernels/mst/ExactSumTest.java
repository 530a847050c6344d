package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The exact sums and chosen-edge ids the MST launchers compute in pieces on several cores equal the plain
 * sequential computations: integer weights, fractional ones, sums past 2^63, bit sets over many pieces.
 */
class ExactSumTest {
    private static double reference(double[] values, int[] indices) {
        BigDecimal s = BigDecimal.ZERO;
        for (int i : indices) s = s.add(new BigDecimal(values[i]));
        return s.doubleValue();
    }

    private static int[] ascendingPicks(int n, int count, long seed) {
        return new SplittableRandom(seed).ints(count, 0, n).sorted().toArray();
    }

    @Test
    void integerWeightsInManyPieces() {
        double[] w = new SplittableRandom(1).ints(3_000_000, 0, 1_000_000).asDoubleStream().toArray();
        int[] ids = ascendingPicks(w.length, 700_000, 2);
        assertEquals(reference(w, ids), ExactSum.of(w, ids), 0.0);
    }

    @Test
    void fractionalWeightsInManyPieces() {
        double[] w = new SplittableRandom(3).doubles(1_000_000).map(x -> x * 1e6 + 0.1).toArray();
        int[] ids = ascendingPicks(w.length, 400_000, 4);
        assertEquals(reference(w, ids), ExactSum.of(w, ids), 0.0);
    }

    @Test
    void sumsBeyondALong() {
        double[] w = new double[300_000];
        java.util.Arrays.fill(w, 0x1p51);   // integral, below 2^52: each a long term; 300,000 of them pass 2^63
        int[] ids = IntStream.range(0, w.length).toArray();
        assertEquals(reference(w, ids), ExactSum.of(w, ids), 0.0);
    }

    @Test
    void chosenIdsOverManyPieces() {
        SplittableRandom r = new SplittableRandom(5);
        int[] bits = new int[50_000];
        for (int i = 0; i < bits.length; i++) bits[i] = i % 7 == 0 ? 0 : r.nextInt();
        int[] want = IntStream.range(0, 32 * bits.length).filter(e -> (bits[e >>> 5] & (1 << (e & 31))) != 0).toArray();
        assertArrayEquals(want, ChosenEdges.ids(bits));
        assertArrayEquals(new int[0], ChosenEdges.ids(new int[0]));
        assertArrayEquals(new int[] {0, 31, 63}, ChosenEdges.ids(new int[] {0x80000001, 0x80000000}));
    }
}
