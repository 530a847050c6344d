package org.frontiergraph.worker.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link AppliedUpdates.Pins}, the window's offsets and their counts, against the {@code TreeMap} it replaced
 * (merge, dropping an offset whose count reaches 0, the smallest offset): 200,000 seeded operations over a few
 * offsets, as a window's pins move between lineages and checkpoints.
 */
class AppliedUpdatesPinsTest {
    @Test
    void sameAsASortedMapOfCounts() {
        long seed = 41;
        SplittableRandom r = new SplittableRandom(seed);
        AppliedUpdates.Pins pins = new AppliedUpdates.Pins();
        TreeMap<Long, Integer> want = new TreeMap<>();
        for (int step = 0; step < 200_000; step++) {
            if (r.nextInt(5_000) == 0) {
                pins.clear();
                want.clear();
            }
            long offset = 1_000L * r.nextInt(r.nextBoolean() ? 3 : 12);
            // a count never goes below 0: an id is forgotten only where it was pinned
            int delta = want.containsKey(offset) && r.nextBoolean() ? -1 : 1 + r.nextInt(2);
            pins.add(offset, delta);
            want.merge(offset, delta, (a, b) -> a + b == 0 ? null : a + b);
            String where = "step " + step + " seed=" + seed;
            assertEquals(want.isEmpty(), pins.isEmpty(), where);
            if (!want.isEmpty()) assertEquals(want.firstKey(), pins.firstKey(), where);
        }
    }
}
