package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The lane's lock as the worker's flush used it when it hung (an H200, SubscriptionBench's INITIAL answers): every
 * worker of the common pool waited for the lock, one recompute each, while its holder needed the pool for the drain of
 * a large download. Taken through {@link PoolAwareLock}, the pool starts a spare worker and the holder's task runs;
 * with a plain {@code lock()} the first test fails (the holder's task times out).
 */
class PoolAwareLockTest {
    @Test
    void whileEveryPoolWorkerWaitsForTheLockTheHoldersTasksStillRun() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        int workers = ForkJoinPool.getCommonPoolParallelism();
        CompletableFuture<Integer> holder = CompletableFuture.supplyAsync(() -> {
            lock.lock();
            try {
                // every worker of the pool takes a task that waits for the lock (the recomputes, one per answer)
                for (int i = 0; i < workers; i++) {
                    ForkJoinPool.commonPool().execute(() -> {
                        PoolAwareLock.lock(lock);
                        lock.unlock();
                    });
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (lock.getQueueLength() < workers && System.nanoTime() < deadline) Thread.onSpinWait();
                assertEquals(workers, lock.getQueueLength(), "every worker of the pool waits for the lock");
                // the holder needs the pool (the drain of its download): with a plain lock() no thread is left to run it
                return ForkJoinPool.commonPool().submit(() -> IntStream.range(0, 1_000).parallel().map(x -> 1).sum()).get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the holder's task did not run: " + e, e);
            } finally {
                lock.unlock();
            }
        }, r -> new Thread(r, "lane-holder").start());
        assertEquals(1_000, holder.get(60, TimeUnit.SECONDS), "the holder's task ran while the workers waited");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while ((lock.isLocked() || lock.hasQueuedThreads()) && System.nanoTime() < deadline) Thread.sleep(10);
        assertTrue(!lock.isLocked() && !lock.hasQueuedThreads(), "every waiting worker took the lock and let it go");
    }

    @Test
    void aPoolAtItsThreadLimitWaitsUncompensatedInsteadOfFailing() throws Exception {
        // one worker and no spare: compensating for a blocked worker would exceed the pool's size
        ForkJoinPool small = new ForkJoinPool(1, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, false, 1, 1, 1, null,
                30, TimeUnit.SECONDS);
        ReentrantLock lock = new ReentrantLock();
        try {
            lock.lock();
            java.util.concurrent.Future<Boolean> waiter;
            try {
                waiter = small.submit(() -> {
                    PoolAwareLock.lock(lock);
                    try {
                        return lock.isHeldByCurrentThread();
                    } finally {
                        lock.unlock();
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!lock.hasQueuedThreads() && System.nanoTime() < deadline) Thread.sleep(5);
                assertTrue(lock.hasQueuedThreads(), "the pool's only worker waits for the lock");
            } finally {
                lock.unlock();
            }
            assertTrue(waiter.get(20, TimeUnit.SECONDS), "it took the lock once it was free, and did not fail");
        } finally {
            small.shutdownNow();
        }
    }

    @Test
    void reentrantAndUncontendedTakesAreOrdinaryHolds() {
        ReentrantLock lock = new ReentrantLock();
        PoolAwareLock.lock(lock);
        PoolAwareLock.lock(lock);
        assertEquals(2, lock.getHoldCount());
        lock.unlock();
        lock.unlock();
        assertTrue(!lock.isLocked());
        ForkJoinPool.commonPool().submit(() -> {
            PoolAwareLock.lock(lock);
            assertEquals(1, lock.getHoldCount(), "a pool worker holds it once");
            lock.unlock();
        }).join();
    }
}
