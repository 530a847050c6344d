package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;

import java.util.Optional;
import jcuda.driver.JCudaDriver;

/**
 * Process-wide CUDA driver state: initialises the driver once with exceptions enabled (every driver call is
 * checked and a failure throws {@link jcuda.CudaException} naming the error), and probes once whether a GPU and
 * the compiled kernels are present.
 */
public final class Cuda {
    private static Optional<String> unavailable;
    private static boolean initialised;

    private Cuda() {}

    static synchronized void init() {
        if (initialised) return;
        JCudaDriver.setExceptionsEnabled(true);
        cuInit(0);
        initialised = true;
    }

    /** Why the GPU engine cannot run here (no driver, no device, kernels not built), or empty when it can. */
    public static synchronized Optional<String> unavailableReason() {
        if (unavailable == null) unavailable = probe();
        return unavailable;
    }

    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private static Optional<String> probe() {
        if (KernelModule.MODULES.isEmpty()) {
            return Optional.of("CUDA kernels not built (no /cuda/modules.txt on the classpath: nvcc was not found when this build ran)");
        }
        for (String module : KernelModule.MODULES) {
            if (KernelModule.class.getResource(KernelModule.resource(module)) == null) {
                return Optional.of("CUDA kernels not built (no " + KernelModule.resource(module)
                        + " on the classpath: nvcc was not found when this build ran)");
            }
        }
        try {
            init();
            int[] count = new int[1];
            cuDeviceGetCount(count);
            if (count[0] == 0) return Optional.of("no CUDA device present");
            int[] version = new int[1];
            cuDriverGetVersion(version);
            return Optional.empty();
        } catch (LinkageError e) {
            return Optional.of("no CUDA driver: the JCuda natives could not load (" + firstLine(e) + ")");
        } catch (RuntimeException e) {
            return Optional.of("CUDA unavailable: " + firstLine(e));
        }
    }
}
