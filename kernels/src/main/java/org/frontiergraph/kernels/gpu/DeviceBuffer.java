package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemsetD32Async;

import java.util.concurrent.atomic.AtomicLong;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUresult;
import org.frontiergraph.kernels.engine.GraphTooLargeException;

/**
 * Device memory that frees itself: allocated with {@code cuMemAlloc}, counted in its context's bytes in use and in
 * an owner's ledger (a resident graph's {@code residentBytes}), released by {@link #close()}. Methods must run
 * inside a lane's call ({@link GpuLane#call}, {@link CudaContext#call}). Copies and fills are queued on that lane's
 * stream; copies go through the lane's pinned buffers ({@link PinnedStaging}): an upload is seen by the kernels
 * launched after it, a download returns once the data has arrived (after the work queued before it).
 */
public final class DeviceBuffer implements AutoCloseable {
    private final CudaContext context;
    private final AtomicLong ledger;
    private final CUdeviceptr pointer = new CUdeviceptr();
    private final long bytes;
    private boolean freed;

    private DeviceBuffer(CudaContext context, AtomicLong ledger, long bytes) {
        this.context = context;
        this.ledger = ledger;
        this.bytes = bytes;
        try {
            cuMemAlloc(pointer, Math.max(bytes, 4));
        } catch (CudaException e) {
            if (e.getMessage() != null && e.getMessage().contains(CUresult.stringFor(CUresult.CUDA_ERROR_OUT_OF_MEMORY))) {
                throw new GraphTooLargeException("device out of memory allocating " + bytes + " bytes on "
                        + context.deviceName() + " (" + context.bytesInUse() + " bytes in use by Frontier)");
            }
            throw e;
        }
        context.account(bytes);
        if (ledger != null) ledger.addAndGet(bytes);
    }

    /** Allocates {@code bytes} (uninitialised), counted in {@code ledger} when non-null. */
    public static DeviceBuffer allocate(CudaContext context, AtomicLong ledger, long bytes) {
        return new DeviceBuffer(context, ledger, bytes);
    }

    /** Buffers of the given sizes, all or none: if one allocation fails, those already made are freed. */
    public static DeviceBuffer[] allocateAll(CudaContext context, AtomicLong ledger, long... bytes) {
        DeviceBuffer[] made = new DeviceBuffer[bytes.length];
        try {
            for (int i = 0; i < bytes.length; i++) made[i] = allocate(context, ledger, bytes[i]);
            return made;
        } catch (RuntimeException e) {
            for (DeviceBuffer d : made) if (d != null) d.close();
            throw e;
        }
    }

    /** The bytes of buffers of the given sizes together (what {@link #allocateAll} takes). */
    public static long total(long... bytes) {
        long sum = 0;
        for (long b : bytes) sum += b;
        return sum;
    }

    public static DeviceBuffer of(CudaContext context, AtomicLong ledger, int[] data) {
        DeviceBuffer b = allocate(context, ledger, 4L * data.length);
        b.upload(data);
        return b;
    }

    public static DeviceBuffer of(CudaContext context, AtomicLong ledger, double[] data) {
        DeviceBuffer b = allocate(context, ledger, 8L * data.length);
        b.upload(data);
        return b;
    }

    public static DeviceBuffer of(CudaContext context, AtomicLong ledger, long[] data) {
        DeviceBuffer b = allocate(context, ledger, 8L * data.length);
        b.upload(data);
        return b;
    }

    public CUdeviceptr pointer() {
        if (freed) throw new IllegalStateException("device buffer already freed");
        return pointer;
    }

    public long bytes() { return bytes; }

    /** Copies {@code data} to the start of this buffer, queued on the lane's stream (kernels launched after it see it). */
    public void upload(int[] data) {
        check(4L * data.length);
        if (data.length > 0) context.staging().upload(data, pointer);
    }

    /** Copies {@code data} to the start of this buffer (as {@link #upload(int[])}). */
    public void upload(double[] data) {
        check(8L * data.length);
        if (data.length > 0) context.staging().upload(data, pointer);
    }

    /** Copies {@code data} to the start of this buffer (as {@link #upload(int[])}). */
    public void upload(long[] data) {
        check(8L * data.length);
        if (data.length > 0) context.staging().upload(data, pointer);
    }

    /** Copies {@code data} to byte {@code at} of this buffer (a page of a larger array; as {@link #upload(int[])}). */
    public void uploadAt(long at, int[] data) {
        check(at + 4L * data.length);
        if (data.length > 0) context.staging().upload(data, pointer.withByteOffset(at));
    }

    /** Copies {@code data} to byte {@code at} of this buffer (a page of a larger array; as {@link #upload(int[])}). */
    public void uploadAt(long at, double[] data) {
        check(at + 8L * data.length);
        if (data.length > 0) context.staging().upload(data, pointer.withByteOffset(at));
    }

    /**
     * Writes the device addresses of {@code pointers} (8 bytes each, offsets included) at byte {@code at}: a table of
     * pointers a kernel reads, queued on the lane's stream (the driver stages the few bytes before this returns).
     */
    public void uploadPointers(long at, CUdeviceptr... pointers) {
        check(at + 8L * pointers.length);
        if (pointers.length > 0) {
            cuMemcpyHtoDAsync(pointer.withByteOffset(at), Pointer.to(pointers), 8L * pointers.length, context.stream());
        }
    }

    /** Copies the first {@code into.length} elements to the host, after the work queued on the lane's stream. */
    public void download(int[] into) {
        download(0, into);
    }

    /** Copies {@code into.length} elements from element {@code first} on to the host (as {@link #download(int[])}). */
    public void download(long first, int[] into) {
        check(4L * (first + into.length));
        if (into.length > 0) context.staging().download(pointer.withByteOffset(4L * first), into);
    }

    /** Copies the first {@code into.length} elements to the host, after the work queued on the lane's stream. */
    public void download(long[] into) {
        download(0, into);
    }

    /** Copies {@code into.length} 64-bit elements from element {@code first} on to the host. */
    public void download(long first, long[] into) {
        check(8L * (first + into.length));
        if (into.length > 0) context.staging().download(pointer.withByteOffset(8L * first), into);
    }

    /**
     * Copies the first {@code into.length} 64-bit elements to the host, each stored as {@code convert} maps it (SSSP's
     * distance keys to distances), without a long[] of them all; after the work queued on the lane's stream.
     */
    public void download(double[] into, java.util.function.LongToDoubleFunction convert) {
        check(8L * into.length);
        if (into.length > 0) context.staging().download(pointer, into, convert);
    }

    /** Receives a downloaded run of 64-bit elements ({@link #stream}). */
    @FunctionalInterface
    public interface LongRun {
        /** {@code run}'s elements (position 0 to its limit) are elements {@code first}, {@code first + 1}, ... */
        void accept(java.nio.LongBuffer run, long first);
    }

    /**
     * Hands {@code count} 64-bit elements from element {@code first} on to {@code sink}, in runs read straight from
     * the pinned staging buffers (no array of them all): runs are disjoint, arrive in any order, from several threads
     * for a large copy, and hold a multiple of {@code align} elements each when the copy starts at such a multiple
     * (pairs stay whole for align 2). After the work queued on the lane's stream; complete when it returns.
     */
    public void stream(long first, long count, int align, LongRun sink) {
        check(8L * (first + count));
        if (count > 0) context.staging().stream(pointer.withByteOffset(8L * first), count, align, sink);
    }

    /**
     * Copies {@code bytes} bytes from byte {@code from} of this buffer to byte {@code at} of {@code to}, on the lane's
     * stream (ordered with the launches around it).
     */
    public void copyTo(long from, DeviceBuffer to, long at, long bytes) {
        check(from + bytes);
        to.check(at + bytes);
        if (bytes > 0) {
            cuMemcpyDtoDAsync(to.pointer.withByteOffset(at), pointer.withByteOffset(from), bytes, context.stream());
        }
    }

    /** Sets {@code count} 32-bit words starting at word {@code offset} to {@code value}, on the lane's stream. */
    public void fill32(long offset, long count, int value) {
        check(4L * (offset + count));
        if (count > 0) cuMemsetD32Async(pointer.withByteOffset(4L * offset), value, count, context.stream());
    }

    private void check(long need) {
        if (freed) throw new IllegalStateException("device buffer already freed");
        if (need > bytes) throw new IndexOutOfBoundsException(need + " bytes into a buffer of " + bytes);
    }

    @Override
    public void close() {
        if (freed) return;
        freed = true;
        cuMemFree(pointer);
        context.account(-bytes);
        if (ledger != null) ledger.addAndGet(-bytes);
    }
}
