package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

/**
 * Where one resident graph's device work runs: its own CUDA stream, created non-blocking (it does not synchronize
 * with the legacy default stream, and nothing of ours uses that one), so the kernels and copies of different lanes
 * overlap on the device; its own lock, so one query or update of the graph runs at a time; and, while a call runs, a
 * pair of pinned staging buffers of its own ({@link PinnedStaging}, borrowed from the context's pool on the first
 * copy and given back when the call ends, so pinned memory grows with the lanes working at once, not with the
 * graphs held). {@link #call} makes the lane current on the calling thread: {@link CudaContext#stream()},
 * {@link CudaContext#synchronize()} and the staging buffers are the current lane's, so the launchers and buffers
 * written against the context need no lane argument.
 *
 * <p>With {@link GpuSettings#lanes()} off every graph shares the context's one lane (one stream, one lock: the
 * device work of all graphs one call at a time, as before lanes), for comparison.
 */
public final class GpuLane implements AutoCloseable {
    private final CudaContext context;
    private final boolean shared;
    private final CUstream stream = new CUstream();
    /** Recorded after this lane's last cooperative launch ({@link CudaContext#launchCooperatively}). */
    private final CUevent cooperativeDone = new CUevent();
    private final ReentrantLock lock = new ReentrantLock();
    /** The staging buffers borrowed for the call in progress, or null. Guarded by {@link #lock}. */
    private PinnedStaging staging;
    private boolean closed;

    /** Created by {@link CudaContext} with the context current. */
    GpuLane(CudaContext context, boolean shared) {
        this.context = context;
        this.shared = shared;
        cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING);
        cuEventCreate(cooperativeDone, CUevent_flags.CU_EVENT_DISABLE_TIMING);
    }

    /**
     * Runs {@code body} with the context current on the calling thread and this lane current in it, one caller of
     * this lane at a time (re-entrant). Other lanes' calls run meanwhile.
     *
     * @throws IllegalStateException when this lane or its context is closed
     */
    public <T> T call(Supplier<T> body) {
        PoolAwareLock.lock(lock);   // a fork-join worker waits managed: the holder may need the pool (PoolAwareLock)
        try {
            if (closed) throw new IllegalStateException("the resident graph's GPU lane is closed");
            return context.enter(this, body);
        } finally {
            if (lock.getHoldCount() == 1 && staging != null) {   // the outermost call ends: the buffers go back
                context.giveBack(staging);
                staging = null;
            }
            lock.unlock();
        }
    }

    public void run(Runnable body) {
        call(() -> {
            body.run();
            return null;
        });
    }

    CUstream stream() { return stream; }

    CUevent cooperativeDone() { return cooperativeDone; }

    /** The pinned buffers of the call in progress (borrowed on first use). Inside {@link #call}. */
    PinnedStaging staging() {
        if (staging == null) staging = context.borrowStaging();
        return staging;
    }

    /** Waits for the work queued on this lane's stream. Inside {@link #call}. */
    void synchronize() { cuStreamSynchronize(stream); }

    /** Whether this is the context's own lane (shared by every graph when lanes are off). */
    boolean shared() { return shared; }

    /**
     * Waits for this lane's queued work and destroys its stream; later calls throw. The context's shared lane is
     * closed only with the context. Safe to call twice.
     */
    @Override
    public void close() {
        if (shared) return;
        lock.lock();
        try {
            if (closed) return;
            closed = true;
            context.retire(this);
        } finally {
            lock.unlock();
        }
    }

    /** Frees the stream and event; the context calls it, current, once the stream is drained. */
    void destroy() {
        cuStreamSynchronize(stream);
        cuEventDestroy(cooperativeDone);
        cuStreamDestroy(stream);
    }
}
