package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MutableGraph's overlay map against {@code HashMap<Long, Double>} on random put / remove / get / clear streams over
 * a small key range (long probe chains, removals inside them, wrap-around at the table's end, growth and clears).
 */
class LongDoubleMapTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void randomOperationsAgreeWithAHashMap(int seed) {
        Random rnd = new Random(seed);
        LongDoubleMap map = new LongDoubleMap();
        Map<Long, Double> reference = new HashMap<>();
        int range = 50 + rnd.nextInt(2_000);
        for (int op = 0; op < 200_000; op++) {
            // edge-like keys u << 32 | v over few rows, as the overlay holds them
            long key = ((long) rnd.nextInt(range / 8 + 1) << 32) | rnd.nextInt(8);
            switch (rnd.nextInt(10)) {
                case 0, 1, 2, 3 -> {
                    double w = rnd.nextInt(4) == 0 ? Double.NaN : rnd.nextInt(100);
                    map.put(key, w);
                    reference.put(key, w);
                }
                case 4, 5, 6 -> assertEquals(reference.remove(key) != null, map.remove(key), "remove " + key + ", seed " + seed);
                case 7, 8 -> {
                    Double want = reference.get(key);
                    assertEquals(want == null ? -1.0 : want, map.get(key, -1.0), "get " + key + ", seed " + seed);
                    assertEquals(want != null, map.containsKey(key));
                }
                default -> {
                    if (rnd.nextInt(2_000) == 0) {
                        map.clear();
                        reference.clear();
                    }
                }
            }
            assertEquals(reference.size(), map.size(), "size, seed " + seed);
        }
        long[] keys = map.keys();
        Arrays.sort(keys);
        assertArrayEquals(reference.keySet().stream().mapToLong(Long::longValue).sorted().toArray(), keys);
        int seen = 0;
        for (int s = 0; s < map.capacity(); s++) {
            if (!map.usedAt(s)) continue;
            seen++;
            assertEquals(reference.get(map.keyAt(s)), map.valueAt(s));
        }
        assertEquals(reference.size(), seen);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 5_000, 100_000})
    void aClearedBigTableShrinksAndRefills(int entries) {
        LongDoubleMap map = new LongDoubleMap();
        for (int i = 0; i < entries; i++) map.put((long) i << 32 | (i * 7), i);
        assertEquals(entries, map.size());
        assertTrue(map.capacity() >= 2 * entries, "at most half full");
        map.clear();
        assertTrue(map.isEmpty());
        assertTrue(map.capacity() <= 1024, "slot-wise iteration after a big batch stays cheap");
        map.put(5, 1.5);
        assertEquals(1.5, map.get(5, -1));
        assertEquals(-1, map.get(6, -1));
    }
}
