package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuCtxCreate;
import static jcuda.driver.JCudaDriver.cuCtxDestroy;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuStreamWaitEvent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUstream;

/**
 * The one owner of a CUDA context: the device, the context, the loaded kernel modules (loaded once, by whichever
 * lane first needs them), the count of device bytes in use (one ledger for every graph) and the free-memory checks.
 * Device work runs in {@link GpuLane}s: each resident graph has its own (its own stream and lock), so the GPU work of
 * different graphs overlaps while each graph's queries and updates run one at a time; {@link #call} runs on the
 * context's own lane. With {@link GpuSettings#lanes()} off every graph shares that one lane: one stream and one
 * lock, the device work of all graphs serialized (the behaviour before lanes, kept for comparison).
 *
 * <p>Inside a lane's call, {@link #stream()}, {@link #synchronize()} and the staging buffers are that lane's (the
 * lane is current on the calling thread). A free-memory check and the allocations it admits run inside
 * {@link #allocating}, one at a time, so two lanes never both spend the same free bytes; allocations outside it
 * (small working buffers) that find the device full fail with
 * {@link org.frontiergraph.kernels.engine.GraphTooLargeException} ({@link DeviceBuffer}). Cooperative launches are
 * ordered across lanes ({@link #launchCooperatively}).
 */
public final class CudaContext implements AutoCloseable {
    /** The lane whose call is running on this thread, or null. */
    private static final ThreadLocal<GpuLane> CURRENT = new ThreadLocal<>();

    private final CUdevice device = new CUdevice();
    private final CUcontext context = new CUcontext();
    /** Read: a lane's call in progress; write: closing. */
    private final ReentrantReadWriteLock state = new ReentrantReadWriteLock();
    private final Map<String, KernelModule> modules = new ConcurrentHashMap<>();
    private final AtomicLong bytesInUse = new AtomicLong();
    /** Held from a free-memory check to the end of the allocations it admitted ({@link #allocating}). */
    private final ReentrantLock memory = new ReentrantLock();
    /** Whether each resident graph gets its own lane ({@link GpuSettings#lanes()}). */
    private final boolean lanes;
    private final GpuSettings settings;
    /** The context's own lane: {@link #call}'s, and every graph's when lanes are off. */
    private final GpuLane shared;
    /** Lanes not yet closed (destroyed with the context). */
    private final Set<GpuLane> open = ConcurrentHashMap.newKeySet();
    /** Pinned staging buffers no lane holds now, and all of them (freed with the context). */
    private final ConcurrentLinkedDeque<PinnedStaging> idleStagings = new ConcurrentLinkedDeque<>();
    private final List<PinnedStaging> stagings = new ArrayList<>();
    /** Orders cooperative launches across lanes; {@link #lastCooperative} is the lane of the latest one. */
    private final Object cooperativeOrder = new Object();
    private GpuLane lastCooperative;
    /** Threads inside a lane's call now, and the most there have been at once (tests, benchmarks). */
    private final AtomicInteger inCalls = new AtomicInteger(), peakCalls = new AtomicInteger();
    private final String deviceName;
    private final int multiprocessors;
    private final int computeCapability;
    private final long totalBytes;
    private volatile boolean closed;

    private CudaContext(GpuSettings settings) {
        Cuda.init();
        this.settings = settings;
        cuDeviceGet(device, settings.device());
        cuCtxCreate(context, 0, device);
        lanes = settings.lanes();
        shared = new GpuLane(this, true);
        open.add(shared);
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

    /**
     * Creates a context on the device {@code settings} names (only {@link GpuBackend} does).
     * @throws jcuda.CudaException when that fails
     */
    static CudaContext open(GpuSettings settings) {
        return new CudaContext(settings);
    }

    /** The engine's tuning switches, as the backend was opened with them. */
    public GpuSettings settings() { return settings; }

    /** Whether resident graphs get lanes of their own ({@link GpuSettings#lanes()}). */
    public boolean lanes() { return lanes; }

    /**
     * A lane for a new resident graph: a new stream and lock, or the context's shared lane when lanes are off. The
     * caller closes it with the graph.
     */
    GpuLane newLane() {
        if (!lanes) return shared;
        state.readLock().lock();
        try {
            if (closed) throw new IllegalStateException("the CUDA context is closed");
            cuCtxSetCurrent(context);
            GpuLane lane = new GpuLane(this, false);
            open.add(lane);
            return lane;
        } finally {
            state.readLock().unlock();
        }
    }

    /** Runs {@code body} on the context's own lane (see {@link GpuLane#call}). */
    public <T> T call(Supplier<T> body) {
        return shared.call(body);
    }

    public void run(Runnable body) {
        shared.run(body);
    }

    /** {@link GpuLane#call}'s body: the context current on this thread, {@code lane} current in it. */
    <T> T enter(GpuLane lane, Supplier<T> body) {
        state.readLock().lock();
        GpuLane outer = CURRENT.get();
        try {
            if (closed) throw new IllegalStateException("the CUDA context is closed");
            cuCtxSetCurrent(context);
            CURRENT.set(lane);
            if (outer == null) peakCalls.accumulateAndGet(inCalls.incrementAndGet(), Math::max);
            try {
                return body.get();
            } finally {
                if (outer == null) inCalls.decrementAndGet();
            }
        } finally {
            if (outer == null) CURRENT.remove();
            else CURRENT.set(outer);
            state.readLock().unlock();
        }
    }

    /** The most threads that have been inside lanes' calls at once since the context opened (1 with lanes off). */
    public int peakConcurrentCalls() { return peakCalls.get(); }

    /** The lane whose call runs on this thread. @throws IllegalStateException outside one */
    private GpuLane lane() {
        GpuLane lane = CURRENT.get();
        if (lane == null) throw new IllegalStateException("device work outside a lane's call (GpuLane.call, CudaContext.call)");
        return lane;
    }

    /** The kernels of {@code cuda/<name>.fatbin} (loaded once, whichever lane asks first). Inside a lane's call. */
    public KernelModule module(String name) {
        return modules.computeIfAbsent(name, n -> KernelModule.load(this, n));
    }

    /** The stream of the lane whose call runs on this thread. */
    public CUstream stream() { return lane().stream(); }

    /** The pinned buffers the current lane's copies go through (borrowed for its call). */
    PinnedStaging staging() { return lane().staging(); }

    /** Waits for the work queued on the current lane's stream. */
    public void synchronize() { lane().synchronize(); }

    /** Staging buffers for a lane's call: an idle pair, or a new one. Inside a lane's call. */
    PinnedStaging borrowStaging() {
        PinnedStaging s = idleStagings.pollFirst();
        if (s != null) return s;
        s = new PinnedStaging(this);
        synchronized (stagings) {
            stagings.add(s);
        }
        return s;
    }

    /** Takes back staging buffers a lane's call borrowed (their queued uploads may still run: see PinnedStaging). */
    void giveBack(PinnedStaging s) {
        idleStagings.addFirst(s);
    }

    /**
     * Launches a grid-synchronising kernel on the current lane's stream ({@code launch} receives the stream), after
     * every cooperative grid launched before it, on any lane, has finished; other work of every lane (plain
     * kernels, copies, memsets) still overlaps it.
     *
     * <p>Why. A cooperative launch guarantees that the blocks of its own grid are all resident at once, for a grid no
     * larger than the occupancy calculator's blocks per multiprocessor times the multiprocessors (CUDA driver API
     * reference, cuLaunchCooperativeKernel / cudaLaunchCooperativeKernel: "The total number of blocks launched
     * cannot exceed the maximum number of blocks per multiprocessor as returned by
     * cuOccupancyMaxActiveBlocksPerMultiprocessor ... times the number of multiprocessors"; CUDA C++ Programming
     * Guide, Cooperative Groups, Grid Synchronization: "To guarantee co-residency of the thread blocks on the GPU,
     * the number of blocks launched needs to be carefully considered"; CCCL's {@code cooperative_launch}: the grid is
     * "restricted to a number of blocks that can simultaneously execute on the device", so "every thread in the
     * launched grid can eventually observe execution of each other thread in the grid"). That bound is computed for
     * one grid on an otherwise empty device, and nothing in those documents says that two such grids, each sized to
     * fill the GPU and launched from two streams, are scheduled so that both make progress: if each got only part
     * of its blocks resident, both would spin at their first grid barrier for ever. Not guaranteed, so not relied
     * on (AMD's HIP goes further and funnels every cooperative launch, from every stream, through one queue, one
     * after another: ROCm/rocm-systems pull request 8959). Plain kernels cannot deadlock a cooperative grid: they
     * wait on nothing, finish, and free their multiprocessors.
     *
     * <p>How. Under a short lock (held for the launch call only, never until a kernel ends) the launch is queued
     * behind a wait for the event recorded after the previous cooperative launch when that was another lane's
     * ({@code cuStreamWaitEvent} waits for the event's latest record at the time of the call), and this lane's event
     * is recorded after it. The cooperative grids thus run one after another in the order they were launched, each
     * waiting for the one before, wherever it came from; no host thread waits, so lanes cannot deadlock on it.
     */
    void launchCooperatively(Consumer<CUstream> launch) {
        GpuLane lane = lane();
        synchronized (cooperativeOrder) {
            GpuLane last = lastCooperative;
            if (last != null && last != lane) cuStreamWaitEvent(lane.stream(), last.cooperativeDone(), 0);
            launch.accept(lane.stream());
            cuEventRecord(lane.cooperativeDone(), lane.stream());
            lastCooperative = lane;
        }
    }

    /**
     * Runs {@code body}, a free-memory check ({@link GpuBackend#requireFree}, {@link #freeBytes}) and the
     * allocations it admits, while no other lane runs one: what one check saw free is not spent by another's
     * allocations before its own are made. Re-entrant; inside a lane's call.
     */
    public <T> T allocating(Supplier<T> body) {
        PoolAwareLock.lock(memory);   // as a lane's lock: its holder may drain an upload on the pool (PoolAwareLock)
        try {
            return body.get();
        } finally {
            memory.unlock();
        }
    }

    public void allocating(Runnable body) {
        allocating(() -> {
            body.run();
            return null;
        });
    }

    /** Whether this thread runs a check-and-allocate ({@link #allocating}). */
    boolean allocatingHere() { return memory.isHeldByCurrentThread(); }

    public String deviceName() { return deviceName; }

    public int multiprocessors() { return multiprocessors; }

    /** Compute capability as major * 10 + minor (90 for Hopper). */
    public int computeCapability() { return computeCapability; }

    public long totalBytes() { return totalBytes; }

    /** Device bytes free now, as the driver reports them. Inside a lane's call, and {@link #allocating} to act on it. */
    public long freeBytes() {
        long[] free = new long[1], total = new long[1];
        cuMemGetInfo(free, total);
        return free[0];
    }

    /**
     * {@link #freeBytes()}, or empty while a lane runs a check-and-allocate ({@link #allocating}) or the context is
     * closing or closed: for metrics, which must never wait for a query. cuMemGetInfo is not a stream operation: it
     * does not wait for any lane's kernels, so running queries do not hide the gauge.
     */
    public OptionalLong freeBytesIfIdle() {
        if (!state.readLock().tryLock()) return OptionalLong.empty();
        try {
            if (closed || !memory.tryLock()) return OptionalLong.empty();
            try {
                cuCtxSetCurrent(context);
                return OptionalLong.of(freeBytes());
            } finally {
                memory.unlock();
            }
        } finally {
            state.readLock().unlock();
        }
    }

    /** Device bytes held by this context's {@link DeviceBuffer}s. */
    public long bytesInUse() { return bytesInUse.get(); }

    void account(long delta) { bytesInUse.addAndGet(delta); }

    /** Drains and frees a closed lane's stream ({@link GpuLane#close}); nothing once the context is closed. */
    void retire(GpuLane lane) {
        state.readLock().lock();
        try {
            if (closed || !open.remove(lane)) return;
            cuCtxSetCurrent(context);
            lane.synchronize();   // its cooperative grids have finished: no later launch needs to wait for them
            synchronized (cooperativeOrder) {
                if (lastCooperative == lane) lastCooperative = null;
            }
            lane.destroy();
        } finally {
            state.readLock().unlock();
        }
    }

    /** Waits for the lanes' calls in progress to end, then frees the lanes, staging buffers, modules and context. */
    @Override
    public void close() {
        state.writeLock().lock();
        try {
            if (closed) return;
            cuCtxSetCurrent(context);
            for (GpuLane lane : open) lane.destroy();
            open.clear();
            lastCooperative = null;
            synchronized (stagings) {
                for (PinnedStaging s : stagings) s.close();
                stagings.clear();
            }
            idleStagings.clear();
            for (KernelModule m : modules.values()) m.unload();
            modules.clear();
            cuCtxDestroy(context);
            closed = true;
        } finally {
            state.writeLock().unlock();
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
