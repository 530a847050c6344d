package org.frontiergraph.kernels.gpu;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Takes a lock the way a fork-join task must wait: a worker of a {@link ForkJoinPool} that has to wait for it waits
 * through {@link ForkJoinPool#managedBlock}, so the pool starts a spare worker meanwhile.
 *
 * <p>Why. A lane's holder may itself need the common pool: a large download is drained on all cores
 * ({@link PinnedStaging}), a parallel stream in the caller's own code. When every worker of that pool is parked on
 * the same lane's lock (a parallel stream of recomputes, one per standing answer, each waiting for the graph's lane),
 * nothing runs the holder's subtasks, and the holder and the workers wait for each other for ever: a worker's flush
 * hung that way on an H200 (SubscriptionBench, 100 SSSP subscriptions on USA-road-d.NY, the INITIAL answers computed
 * side by side; the consumer thread held the lane and waited in the download's drain). A managed wait lets the pool
 * compensate, so the holder's subtasks always find a thread. The lanes' locks ({@link GpuLane#call}) and the
 * context's allocation lock ({@link CudaContext#allocating}, whose holder may upload a whole graph) are taken this way.
 * A pool at its thread limit cannot compensate; the worker then waits as any other thread does. So callers keep the
 * tasks that may wait for one lane few (the worker's {@code SubscriptionService.each} runs at most the pool's
 * parallelism of them at once), or every waiting task would take a spare thread.
 */
final class PoolAwareLock {
    private PoolAwareLock() {}

    /** Acquires {@code lock} (re-entrant, not interruptible), as a managed block on a fork-join worker. */
    static void lock(ReentrantLock lock) {
        if (lock.tryLock()) return;
        if (!(Thread.currentThread() instanceof ForkJoinWorkerThread)) {
            lock.lock();
            return;
        }
        boolean interrupted = false;
        ForkJoinPool.ManagedBlocker blocker = new ForkJoinPool.ManagedBlocker() {
            @Override
            public boolean block() {
                lock.lock();
                return true;
            }

            @Override
            public boolean isReleasable() {
                return lock.isHeldByCurrentThread() || lock.tryLock();
            }
        };
        while (!lock.isHeldByCurrentThread()) {
            try {
                ForkJoinPool.managedBlock(blocker);
            } catch (InterruptedException e) {
                interrupted = true;   // block() does not throw it: only a stale interrupt of the worker; kept for the caller
            } catch (RejectedExecutionException e) {   // the pool is at its thread limit (the common pool: 256 spares)
                lock.lock();   // wait uncompensated, as any thread outside a pool does
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
