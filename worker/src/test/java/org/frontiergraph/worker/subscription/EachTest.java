package org.frontiergraph.worker.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link SubscriptionService#each}, which runs a flush's work per answer (recomputes, pushes) side by side: results in
 * the items' order, and at most the common pool's parallelism plus one items at once, however many there are (each
 * GPU recompute waits for its graph's lane, and every pool worker that waits makes the pool start a spare thread).
 */
class EachTest {
    @Test
    void resultsComeInOrderAndFewItemsRunAtOnce() {
        List<Integer> items = IntStream.range(0, 1_000).boxed().toList();
        AtomicInteger running = new AtomicInteger(), most = new AtomicInteger();
        List<Integer> out = SubscriptionService.each(items, i -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {   // a wait the pool compensates for, as a recompute waiting for its graph's lane (PoolAwareLock)
                long until = System.nanoTime() + 300_000;
                ForkJoinPool.managedBlock(new ForkJoinPool.ManagedBlocker() {
                    @Override public boolean block() throws InterruptedException {
                        Thread.sleep(0, 300_000);
                        return isReleasable();
                    }

                    @Override public boolean isReleasable() { return System.nanoTime() >= until; }
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return 2 * i;
        });
        assertEquals(IntStream.range(0, 1_000).map(i -> 2 * i).boxed().toList(), out);
        int bound = ForkJoinPool.getCommonPoolParallelism() + 1;
        assertTrue(most.get() <= bound, most.get() + " items ran at once, more than " + bound);
        assertTrue(most.get() >= 1);
    }

    @Test
    void nullsAndSingleItemsPassThrough() {
        List<String> items = new ArrayList<>(List.of("a", "b", "c"));
        List<String> out = SubscriptionService.each(items, s -> s.equals("b") ? null : s.toUpperCase());
        assertEquals("A", out.get(0));
        assertNull(out.get(1));
        assertEquals("C", out.get(2));
        assertEquals(List.of("X"), SubscriptionService.each(List.of("x"), String::toUpperCase));
        assertEquals(List.of(), SubscriptionService.each(List.<String>of(), String::toUpperCase));
    }
}
