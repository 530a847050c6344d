package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;

/**
 * Copies between Java arrays and the device through two pinned (page-locked) host buffers: the driver copies from
 * and into pinned memory at PCIe speed (a copy of a Java array goes through pageable memory, several times slower),
 * and while it moves one buffer the host fills or drains the other, so the two copies overlap. Every copy of
 * {@link DeviceBuffer} goes through them, small ones too: the copies are queued on the current lane's stream
 * ({@code cuMemcpy*Async}), never on the legacy default stream, whose synchronous copies would wait for every lane.
 * The context keeps a pool of them; a {@link GpuLane} borrows one pair for a call and gives it back when the call
 * ends. Uploads are queued on the lane's stream (the kernels after them see the data) and may still run after the
 * call: a buffer is refilled, or a download queued into it, only once its last upload is done, on whichever lane
 * uses it next. Downloads are complete when they return. Call inside the lane's call.
 */
final class PinnedStaging implements AutoCloseable {
    /** Bytes of each of the two buffers (a multiple of 8). */
    static final int STAGE_BYTES = 8 << 20;

    private final CudaContext context;
    private final Pointer[] host = {new Pointer(), new Pointer()};
    private final ByteBuffer[] view = new ByteBuffer[2];
    private final CUevent[] filled = {new CUevent(), new CUevent()};
    /** The end of the last upload from each buffer, and whether one was queued since the buffer was last waited for. */
    private final CUevent[] sent = {new CUevent(), new CUevent()};
    private final boolean[] sending = new boolean[2];
    /** The buffer the next upload starts in: uploads alternate, so one is filled while the last one's copy runs. */
    private int nextUpload;
    private boolean closed;

    PinnedStaging(CudaContext context) {
        this.context = context;
        for (int i = 0; i < 2; i++) {
            cuMemAllocHost(host[i], STAGE_BYTES);
            view[i] = host[i].getByteBuffer(0, STAGE_BYTES).order(ByteOrder.nativeOrder());
            cuEventCreate(filled[i], CUevent_flags.CU_EVENT_DISABLE_TIMING);
            cuEventCreate(sent[i], CUevent_flags.CU_EVENT_DISABLE_TIMING);
        }
    }

    /** Queues the copy of {@code from} to {@code dst}. */
    void upload(int[] from, CUdeviceptr dst) {
        send(dst, 4L * from.length, (buffer, offset, bytes) ->
                buffer.asIntBuffer().put(from, (int) (offset / 4), (int) (bytes / 4)));
    }

    /** Queues the copy of {@code from} to {@code dst}. */
    void upload(double[] from, CUdeviceptr dst) {
        send(dst, 8L * from.length, (buffer, offset, bytes) ->
                buffer.asDoubleBuffer().put(from, (int) (offset / 8), (int) (bytes / 8)));
    }

    /** Queues the copy of {@code from} to {@code dst}. */
    void upload(long[] from, CUdeviceptr dst) {
        send(dst, 8L * from.length, (buffer, offset, bytes) ->
                buffer.asLongBuffer().put(from, (int) (offset / 8), (int) (bytes / 8)));
    }

    private void send(CUdeviceptr dst, long total, Drain fill) {
        int pieces = (int) ((total + STAGE_BYTES - 1) / STAGE_BYTES);
        for (int i = 0; i < pieces; i++) {
            int b = nextUpload;
            nextUpload ^= 1;
            if (sending[b]) cuEventSynchronize(sent[b]);   // the driver has read this buffer's last piece
            long offset = (long) i * STAGE_BYTES, bytes = Math.min(STAGE_BYTES, total - offset);
            drainAll(view[b], offset, bytes, fill);
            cuMemcpyHtoDAsync(dst.withByteOffset(offset), host[b], bytes, context.stream());
            cuEventRecord(sent[b], context.stream());
            sending[b] = true;
        }
    }

    /** Copies {@code into.length} ints from {@code src}, after the work queued on the lane's stream. */
    void download(CUdeviceptr src, int[] into) {
        copy(src, 4L * into.length, (buffer, offset, bytes) ->
                buffer.asIntBuffer().get(into, (int) (offset / 4), (int) (bytes / 4)));
    }

    /** Copies {@code into.length} longs from {@code src}, after the work queued on the lane's stream. */
    void download(CUdeviceptr src, long[] into) {
        copy(src, 8L * into.length, (buffer, offset, bytes) ->
                buffer.asLongBuffer().get(into, (int) (offset / 8), (int) (bytes / 8)));
    }

    /**
     * Copies {@code into.length} 64-bit values from {@code src} and stores each as {@code convert} maps it (e.g.
     * SSSP's distance keys to distances): no long[] of the whole answer is allocated.
     */
    void download(CUdeviceptr src, double[] into, java.util.function.LongToDoubleFunction convert) {
        copy(src, 8L * into.length, (buffer, offset, bytes) -> {
            java.nio.LongBuffer longs = buffer.asLongBuffer();
            int first = (int) (offset / 8), count = (int) (bytes / 8);
            for (int i = 0; i < count; i++) into[first + i] = convert.applyAsDouble(longs.get(i));
        });
    }

    /** Hands {@code count} longs from {@code src} to {@code sink} run by run (DeviceBuffer.stream). */
    void stream(CUdeviceptr src, long count, int align, DeviceBuffer.LongRun sink) {
        if (STAGE_BYTES % (8L * align) != 0 || CHUNK_BYTES % (8L * align) != 0) {
            throw new IllegalArgumentException("runs of " + align + " longs do not divide the staging pieces");
        }
        copy(src, 8L * count, (buffer, offset, bytes) -> {
            java.nio.LongBuffer run = buffer.asLongBuffer();
            run.limit((int) (bytes / 8));
            sink.accept(run, offset / 8);
        });
    }

    @FunctionalInterface
    private interface Drain {
        /**
         * Moves {@code bytes} between the start of {@code buffer} and the array, at byte {@code offset} of the copy
         * (from the buffer for a download, into it for an upload).
         */
        void drain(ByteBuffer buffer, long offset, long bytes);
    }

    /** Pieces from this many bytes on are filled or drained on all cores, in chunks of {@link #CHUNK_BYTES}. */
    static final int PARALLEL_BYTES = 1 << 20, CHUNK_BYTES = 1 << 19;

    /**
     * Moves the {@code bytes} of one piece (at byte {@code offset} of the copy) between the start of {@code buffer}
     * and the array; a large piece in chunks on all cores (a Java array into pinned memory runs at one core's memory
     * bandwidth, several times slower than PCIe).
     */
    private static void drainAll(ByteBuffer buffer, long offset, long bytes, Drain drain) {
        if (bytes < PARALLEL_BYTES) {
            drain.drain(buffer.duplicate().order(ByteOrder.nativeOrder()), offset, bytes);
            return;
        }
        int chunks = (int) ((bytes + CHUNK_BYTES - 1) / CHUNK_BYTES);
        java.util.stream.IntStream.range(0, chunks).parallel().forEach(c -> {
            int from = c * CHUNK_BYTES, length = (int) Math.min(CHUNK_BYTES, bytes - from);
            ByteBuffer part = buffer.duplicate();
            part.limit(from + length).position(from);
            drain.drain(part.slice().order(ByteOrder.nativeOrder()), offset + from, length);
        });
    }

    private void copy(CUdeviceptr src, long total, Drain drain) {
        int pieces = (int) ((total + STAGE_BYTES - 1) / STAGE_BYTES);
        issue(src, total, 0);
        for (int i = 0; i < pieces; i++) {
            if (i + 1 < pieces) issue(src, total, i + 1);   // the driver fills the other buffer meanwhile
            int b = i % 2;
            cuEventSynchronize(filled[b]);
            long offset = (long) i * STAGE_BYTES;
            drainAll(view[b], offset, Math.min(STAGE_BYTES, total - offset), drain);
        }
    }

    /** Queues the copy of piece {@code i} into buffer i % 2 and marks its end. */
    private void issue(CUdeviceptr src, long total, int i) {
        long offset = (long) i * STAGE_BYTES;
        int b = i % 2;
        if (sending[b]) {   // an upload from it may still be queued, on another lane's stream
            cuEventSynchronize(sent[b]);
            sending[b] = false;
        }
        cuMemcpyDtoHAsync(host[b], src.withByteOffset(offset), Math.min(STAGE_BYTES, total - offset), context.stream());
        cuEventRecord(filled[b], context.stream());
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (int i = 0; i < 2; i++) {
            if (sending[i]) cuEventSynchronize(sent[i]);
            cuEventDestroy(filled[i]);
            cuEventDestroy(sent[i]);
            cuMemFreeHost(host[i]);
        }
    }
}
