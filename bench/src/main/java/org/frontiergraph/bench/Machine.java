package org.frontiergraph.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** One line per fact about the machine a benchmark ran on, for its output. */
public final class Machine {
    private Machine() {}

    public static String describe() {
        Runtime rt = Runtime.getRuntime();
        String gcs = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", "));
        return "machine: " + rt.availableProcessors() + " cores available to the JVM, CPU " + cpuModel() + "\n"
                + "JVM:     " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", max heap " + (rt.maxMemory() >> 20) + " MiB, GC " + gcs + "\n"
                + "OS:      " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
    }

    /** The 1, 5 and 15 minute load averages ("unknown" where /proc/loadavg cannot be read). */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** The GPUs nvidia-smi lists (name, driver, memory), one per line; "none" when it is absent or fails. */
    public static String gpus() {
        try {
            Process p = new ProcessBuilder("nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 && !out.isEmpty() ? out : "none";
        } catch (IOException e) {
            return "none";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "none";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
