package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;

/**
 * Large device-to-host copies through two pinned (page-locked) host buffers: the driver copies into pinned memory
 * at PCIe speed (a copy into a Java array goes through pageable memory, several times slower), and while it fills
 * one buffer the host moves the other into the Java array, so the two copies overlap. One per {@link CudaContext},
 * used by {@link DeviceBuffer#download} above {@link #MIN_BYTES}. Call inside {@link CudaContext#call}.
 */
final class PinnedStaging implements AutoCloseable {
    /** Copies from this size on go through the staging buffers; smaller ones copy directly. */
    static final long MIN_BYTES = 1 << 20;
    /** Bytes of each of the two buffers (a multiple of 8). */
    static final int STAGE_BYTES = 8 << 20;

    private final CudaContext context;
    private final Pointer[] host = {new Pointer(), new Pointer()};
    private final ByteBuffer[] view = new ByteBuffer[2];
    private final CUevent[] filled = {new CUevent(), new CUevent()};
    private boolean closed;

    PinnedStaging(CudaContext context) {
        this.context = context;
        for (int i = 0; i < 2; i++) {
            cuMemAllocHost(host[i], STAGE_BYTES);
            view[i] = host[i].getByteBuffer(0, STAGE_BYTES).order(ByteOrder.nativeOrder());
            cuEventCreate(filled[i], CUevent_flags.CU_EVENT_DISABLE_TIMING);
        }
    }

    /** Copies {@code into.length} ints from {@code src}, after the work queued on the context's stream. */
    void download(CUdeviceptr src, int[] into) {
        copy(src, 4L * into.length, (buffer, offset, bytes) ->
                buffer.asIntBuffer().get(into, (int) (offset / 4), (int) (bytes / 4)));
    }

    /** Copies {@code into.length} longs from {@code src}, after the work queued on the context's stream. */
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

    @FunctionalInterface
    private interface Drain {
        /** Moves {@code bytes} from the start of {@code buffer} to the array, at byte {@code offset} of the copy. */
        void drain(ByteBuffer buffer, long offset, long bytes);
    }

    private void copy(CUdeviceptr src, long total, Drain drain) {
        int pieces = (int) ((total + STAGE_BYTES - 1) / STAGE_BYTES);
        issue(src, total, 0);
        for (int i = 0; i < pieces; i++) {
            if (i + 1 < pieces) issue(src, total, i + 1);   // the driver fills the other buffer meanwhile
            int b = i % 2;
            cuEventSynchronize(filled[b]);
            long offset = (long) i * STAGE_BYTES;
            drain.drain(view[b].duplicate().order(ByteOrder.nativeOrder()), offset, Math.min(STAGE_BYTES, total - offset));
        }
    }

    /** Queues the copy of piece {@code i} into buffer i % 2 and marks its end. */
    private void issue(CUdeviceptr src, long total, int i) {
        long offset = (long) i * STAGE_BYTES;
        int b = i % 2;
        cuMemcpyDtoHAsync(host[b], src.withByteOffset(offset), Math.min(STAGE_BYTES, total - offset), context.stream());
        cuEventRecord(filled[b], context.stream());
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (int i = 0; i < 2; i++) {
            cuEventDestroy(filled[i]);
            cuMemFreeHost(host[i]);
        }
    }
}
