package org.frontiergraph.kernels.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Spares are reused across calls and across the common pool's tasks, never shared by two calls at once. */
class SparesTest {
    @Test
    void aGivenBackSpareIsTakenAgainAndTwoCallsNeverShareOne() {
        AtomicInteger made = new AtomicInteger();
        Spares<int[]> spares = new Spares<>(() -> new int[] {made.incrementAndGet()});
        int[] a = spares.take(), b = spares.take();
        assertNotSame(a, b);
        spares.give(a);
        assertSame(a, spares.take());
        assertEquals(2, made.get());
    }

    @Test
    void theCommonPoolsTasksReuseWhatEarlierTasksGaveBack() {
        AtomicInteger made = new AtomicInteger();
        Spares<int[]> spares = new Spares<>(() -> new int[1]);
        Set<int[]> inUse = ConcurrentHashMap.newKeySet();
        for (int round = 0; round < 50; round++) {
            IntStream.range(0, 64).parallel().forEach(i -> {
                int[] s = spares.take();
                if (s[0] == 0) {
                    s[0] = 1;
                    made.incrementAndGet();
                }
                assertTrue(inUse.add(s), "a spare taken by two tasks at once");
                inUse.remove(s);
                spares.give(s);
            });
        }
        // a thread-local scratch was made again by every task of the common pool (3,200 here); spares: at most one
        // per task running at once
        assertTrue(made.get() <= Runtime.getRuntime().availableProcessors() + 1, "made " + made.get());
    }
}
