package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The GPU engine knows its kernels files from the build's index ({@code cuda/modules.txt}), not from a list kept by
 * hand: built, the index names every {@code src/main/cuda/*.cu} and each fatbin is on the classpath; not built (no
 * nvcc, {@code FRONTIER_SKIP_NVCC=1}), the index and the fatbins are absent together and the engine says so.
 */
class KernelModulesTest {
    @Test
    void theIndexNamesEveryKernelsFileOrTheKernelsWereNotBuilt() throws IOException {
        List<String> sources;
        try (Stream<Path> files = Files.list(Path.of("src/main/cuda"))) {
            sources = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".cu"))
                    .map(n -> n.substring(0, n.length() - 3)).sorted().toList();
        }
        if (KernelModule.MODULES.isEmpty()) {
            for (String s : sources) assertNull(KernelModule.class.getResource(KernelModule.resource(s)), s + ".fatbin without an index");
            assertEquals(true, Cuda.unavailableReason().orElseThrow().startsWith("CUDA kernels not built"));
            return;
        }
        assertEquals(sources, KernelModule.MODULES);
        for (String m : KernelModule.MODULES) assertNotNull(KernelModule.class.getResource(KernelModule.resource(m)), m);
    }
}
