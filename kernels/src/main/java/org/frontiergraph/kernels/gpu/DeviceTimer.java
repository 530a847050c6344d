package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;

/**
 * A pair of CUDA events on the stream of the lane whose call runs on this thread (a launcher's timer, so its graph's
 * lane): device time between {@link #start()} and {@link #stop()}.
 */
public final class DeviceTimer implements AutoCloseable {
    private final CudaContext context;
    private final CUevent begin = new CUevent();
    private final CUevent end = new CUevent();

    public DeviceTimer(CudaContext context) {
        this.context = context;
        cuEventCreate(begin, CUevent_flags.CU_EVENT_DEFAULT);
        cuEventCreate(end, CUevent_flags.CU_EVENT_DEFAULT);
    }

    public void start() { cuEventRecord(begin, context.stream()); }

    public void stop() { cuEventRecord(end, context.stream()); }

    /** Waits for the stop event (surfacing any error of the kernels before it) and returns the elapsed nanoseconds. */
    public long elapsedNanos() {
        cuEventSynchronize(end);
        float[] ms = new float[1];
        cuEventElapsedTime(ms, begin, end);
        return Math.round(ms[0] * 1e6);
    }

    @Override
    public void close() {
        cuEventDestroy(begin);
        cuEventDestroy(end);
    }
}
