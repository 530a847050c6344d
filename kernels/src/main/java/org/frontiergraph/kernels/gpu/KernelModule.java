package org.frontiergraph.kernels.gpu;

import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

/** One compiled kernels file, {@code cuda/<name>.fatbin} on the classpath (built from src/main/cuda/<name>.cu). */
public final class KernelModule {
    /**
     * The modules the build produced ({@code cuda/modules.txt}, which build-kernels.sh writes once every
     * {@code src/main/cuda/*.cu} is compiled; one per algorithm and the shared ones); empty where the kernels were not
     * built (no nvcc), which the GPU engine reports.
     */
    public static final List<String> MODULES = built();

    private static List<String> built() {
        try (InputStream in = KernelModule.class.getResourceAsStream("/cuda/modules.txt")) {
            if (in == null) return List.of();
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).lines()
                    .map(String::strip).filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("reading /cuda/modules.txt", e);
        }
    }

    private final CudaContext context;
    private final String name;
    private final CUmodule module = new CUmodule();
    private final Map<String, Kernel> kernels = new ConcurrentHashMap<>();

    private KernelModule(CudaContext context, String name, byte[] image) {
        this.context = context;
        this.name = name;
        cuModuleLoadData(module, image);
    }

    static String resource(String name) {
        return "/cuda/" + name + ".fatbin";
    }

    static KernelModule load(CudaContext context, String name) {
        String path = resource(name);
        try (InputStream in = KernelModule.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("CUDA kernels not built: " + path + " is missing");
            byte[] bytes = in.readAllBytes();
            // a fatbin is binary; PTX text must end with NUL for cuModuleLoadData
            byte[] image = new byte[bytes.length + 1];
            System.arraycopy(bytes, 0, image, 0, bytes.length);
            return new KernelModule(context, name, image);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }

    /** The kernel {@code function} (an extern "C" __global__ name), looked up once; any lane may ask. */
    public Kernel kernel(String function) {
        return kernels.computeIfAbsent(function, f -> {
            CUfunction fn = new CUfunction();
            cuModuleGetFunction(fn, module, f);
            return new Kernel(context, name + "." + f, fn);
        });
    }

    void unload() {
        cuModuleUnload(module);
    }
}
