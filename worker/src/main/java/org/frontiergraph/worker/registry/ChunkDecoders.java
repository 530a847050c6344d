package org.frontiergraph.worker.registry;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that decode snapshot chunks and count their arcs ({@code frontier.ingest-threads}), off the consumer
 * thread: a chunk handed over while {@link #inFlightLimit} others wait or run blocks its caller until one is done, so
 * the records held for decoding stay few (their bytes are outside the pending snapshots' accounting) and the consumer
 * slows to the decoders' pace rather than buffering ahead. With one thread, chunks are decoded by the caller. Idle
 * threads end after {@link #IDLE_SECONDS} (snapshots come seldom).
 */
public final class ChunkDecoders implements Executor, AutoCloseable {
    static final long IDLE_SECONDS = 30;

    private final ThreadPoolExecutor pool;
    private final Semaphore slots;
    private final int threads;

    /** {@code threads} decoders; 0: the cores, at most 16. */
    public ChunkDecoders(int threads) {
        this.threads = threads > 0 ? threads : Math.max(1, Math.min(16, Runtime.getRuntime().availableProcessors()));
        this.slots = new Semaphore(inFlightLimit());
        if (this.threads == 1) {
            this.pool = null;
            return;
        }
        AtomicInteger number = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(this.threads, this.threads, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "frontier-chunk-decoder-" + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
    }

    public int threads() { return threads; }

    /** Chunks handed over and not yet decoded, at most: four a thread. */
    public int inFlightLimit() { return 4 * threads; }

    @Override
    public void execute(Runnable task) {
        if (pool == null) {
            task.run();
            return;
        }
        slots.acquireUninterruptibly();
        try {
            pool.execute(() -> {
                try {
                    task.run();
                } finally {
                    slots.release();
                }
            });
        } catch (RuntimeException e) {   // the pool was shut down
            slots.release();
            throw e;
        }
    }

    @Override
    public void close() {
        if (pool != null) pool.shutdown();
    }
}
