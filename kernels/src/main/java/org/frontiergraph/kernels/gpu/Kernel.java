package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuLaunchCooperativeKernel;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor;

import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;

/**
 * A kernel and the one place that launches kernels, on the stream of the lane whose call runs on this thread
 * ({@link CudaContext#stream()}); grid-synchronising ones through {@link CudaContext#launchCooperatively}, which
 * orders them across lanes. Arguments are {@link DeviceBuffer}s, Integer, Long or Double, in the order of the
 * kernel's parameters (int, long long, double). Launch errors throw {@link CudaException} naming the kernel; errors
 * while it runs surface at the next synchronisation, which every launcher does before reading results.
 */
public final class Kernel {
    public static final int BLOCK = 256;

    private final CudaContext context;
    private final String name;
    private final CUfunction function;
    private volatile int cooperativeBlocksPerSm = -1;

    Kernel(CudaContext context, String name, CUfunction function) {
        this.context = context;
        this.name = name;
        this.function = function;
    }

    public String name() { return name; }

    /** Launches {@code blocks} x {@link #BLOCK} threads on the current lane's stream. */
    public void launch(long blocks, Object... args) {
        int grid = (int) Math.max(1, Math.min(blocks, Integer.MAX_VALUE));
        try {
            cuLaunchKernel(function, grid, 1, 1, BLOCK, 1, 1, 0, context.stream(), parameters(args), null);
        } catch (CudaException e) {
            throw new CudaException("launching " + name + " (" + grid + " blocks): " + e.getMessage(), e);
        }
    }

    /** Blocks enough for one thread per item, capped (kernels loop grid-stride). */
    public static long blocksFor(long items) {
        return Math.max(1, Math.min((items + BLOCK - 1) / BLOCK, 1L << 20));
    }

    /**
     * Launches a grid-synchronising kernel with {@code blocksPerSm} blocks per multiprocessor, at most what can be
     * resident at once (a cooperative launch needs every block resident). Returns the grid used.
     */
    public int launchCooperative(int blocksPerSm, Object... args) {
        int grid = context.multiprocessors() * Math.max(1, Math.min(blocksPerSm, maxCooperativeBlocksPerSm()));
        cooperative(grid, args);
        return grid;
    }

    /**
     * Launches a grid-synchronising kernel with {@code blocks} blocks in all (at most what can be resident at once):
     * fewer blocks than multiprocessors make the grid barrier cheaper where a step has little work (high-diameter
     * graphs). Returns the grid used.
     */
    public int launchCooperativeBlocks(int blocks, Object... args) {
        int grid = Math.max(1, Math.min(blocks, context.multiprocessors() * maxCooperativeBlocksPerSm()));
        cooperative(grid, args);
        return grid;
    }

    /** The cooperative launch of {@code grid} blocks, after the cooperative grids before it on every lane. */
    private void cooperative(int grid, Object... args) {
        Pointer parameters = parameters(args);
        try {
            context.launchCooperatively(stream ->
                    cuLaunchCooperativeKernel(function, grid, 1, 1, BLOCK, 1, 1, 0, stream, parameters));
        } catch (CudaException e) {
            throw new CudaException("launching " + name + " cooperatively (" + grid + " blocks): " + e.getMessage(), e);
        }
    }

    /** Blocks of {@link #BLOCK} threads that fit on one multiprocessor at once. */
    public int maxCooperativeBlocksPerSm() {
        if (cooperativeBlocksPerSm < 0) {
            int[] n = new int[1];
            cuOccupancyMaxActiveBlocksPerMultiprocessor(n, function, BLOCK, 0);
            cooperativeBlocksPerSm = Math.max(1, n[0]);
        }
        return cooperativeBlocksPerSm;
    }

    private static Pointer parameters(Object... args) {
        Pointer[] p = new Pointer[args.length];
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a instanceof DeviceBuffer b) p[i] = Pointer.to(b.pointer());
            else if (a instanceof CUdeviceptr d) p[i] = Pointer.to(d);   // an address inside a buffer
            else if (a instanceof Integer x) p[i] = Pointer.to(new int[] {x});
            else if (a instanceof Long x) p[i] = Pointer.to(new long[] {x});
            else if (a instanceof Double x) p[i] = Pointer.to(new double[] {x});
            else throw new IllegalArgumentException("unsupported kernel argument " + i + ": " + a);
        }
        return Pointer.to(p);
    }
}
