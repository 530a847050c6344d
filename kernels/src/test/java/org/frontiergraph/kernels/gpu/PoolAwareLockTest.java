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
