package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuCtxCreate;
import static jcuda.driver.JCudaDriver.cuCtxDestroy;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

/**
 * The one owner of a CUDA context: the device, the context, one stream, the loaded kernel modules and the
 * count of device bytes in use. Every device operation runs inside {@link #call}, which holds the context's lock
 * and makes the context current on the calling thread, so queries from several threads are serialized.
 */
public final class CudaContext implements AutoCloseable {
    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    private final CUstream stream = new CUstream();
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, KernelModule> modules = new HashMap<>();
    private final AtomicLong bytesInUse = new AtomicLong();
    private final String deviceName;
    private final int multiprocessors;
    private final int computeCapability;
    private final long totalBytes;
    private PinnedStaging staging;
    private boolean closed;

    private CudaContext(int ordinal) {
        Cuda.init();
        cuDeviceGet(device, ordinal);
        cuCtxCreate(context, 0, device);
        // a blocking stream: the synchronous copies (legacy default stream) stay ordered with its kernels
        cuStreamCreate(stream, CUstream_flags.CU_STREAM_DEFAULT);
        byte[] name = new byte[256];
        cuDeviceGetName(name, name.length, device);
        int len = 0;
        while (len < name.length && name[len] != 0) len++;
        deviceName = new String(name, 0, len, StandardCharsets.US_ASCII);
        multiprocessors = attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        computeCapability = 10 * attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
                + attribute(CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        long[] total = new long[1];
        cuDeviceTotalMem(total, device);
        totalBytes = total[0];
    }

    /** Creates a context on device {@code ordinal} (only {@link GpuBackend} does). @throws jcuda.CudaException when that fails */
    static CudaContext open(int ordinal) {
        return new CudaContext(ordinal);
    }

    /** Runs {@code body} with this context current on the calling thread, one caller at a time. */
    public <T> T call(Supplier<T> body) {
        lock.lock();
        try {
            if (closed) throw new IllegalStateException("the CUDA context is closed");
            cuCtxSetCurrent(context);
            return body.get();
        } finally {
            lock.unlock();
        }
    }

    public void run(Runnable body) {
        call(() -> {
            body.run();
            return null;
        });
    }

    /** The kernels of {@code cuda/<name>.fatbin} (loaded once). Call inside {@link #call}. */
    public KernelModule module(String name) {
        return modules.computeIfAbsent(name, n -> KernelModule.load(this, n));
    }

    public CUstream stream() { return stream; }

    /** The pinned buffers large copies to the host go through (allocated on first use). Call inside {@link #call}. */
    PinnedStaging staging() {
        if (staging == null) staging = new PinnedStaging(this);
        return staging;
    }

    public void synchronize() { cuStreamSynchronize(stream); }

    public String deviceName() { return deviceName; }

    public int multiprocessors() { return multiprocessors; }

    /** Compute capability as major * 10 + minor (90 for Hopper). */
    public int computeCapability() { return computeCapability; }

    public long totalBytes() { return totalBytes; }

    /** Device bytes free now, as the driver reports them. Call inside {@link #call}. */
    public long freeBytes() {
        long[] free = new long[1], total = new long[1];
        cuMemGetInfo(free, total);
        return free[0];
    }

    /**
     * {@link #freeBytes()} when no other thread holds the context, else empty (also once closed): for metrics, which
     * must never wait for a query's kernels.
     */
    public OptionalLong freeBytesIfIdle() {
        if (!lock.tryLock()) return OptionalLong.empty();
        try {
            if (closed) return OptionalLong.empty();
            cuCtxSetCurrent(context);
            return OptionalLong.of(freeBytes());
        } finally {
            lock.unlock();
        }
    }

    /** Device bytes held by this context's {@link DeviceBuffer}s. */
    public long bytesInUse() { return bytesInUse.get(); }

    void account(long delta) { bytesInUse.addAndGet(delta); }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) return;
            cuCtxSetCurrent(context);
            if (staging != null) staging.close();
            for (KernelModule m : modules.values()) m.unload();
            modules.clear();
            cuStreamDestroy(stream);
            cuCtxDestroy(context);
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    private int attribute(int attribute) {
        int[] value = new int[1];
        cuDeviceGetAttribute(value, attribute, device);
        return value[0];
    }

    @Override
    public String toString() {
        return deviceName + " (sm_" + computeCapability + ", " + multiprocessors + " SMs, "
                + (totalBytes >> 20) + " MiB)";
    }
}
