package org.frontiergraph.bench.kafka;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a timed stretch of a run cost in CPU time and allocation, per operation, rather than in wall time: on a
 * machine shared with other work the wall time follows the others' load, the CPU time a thread spent much less. Read
 * from the JVM's per-thread counters ({@link ThreadMXBean}), so it sees the worker only when the
 * worker runs in this JVM (the default; with {@code --worker-jvm} it gives the whole process of this JVM, i.e. the
 * broker and the client). Threads are grouped by name: the worker's consumer thread ({@code frontier-consumer}, which
 * decodes, applies, answers and hands to the producer), the rest of the worker (its producer's sender, the common
 * fork-join pool that the CPU engine's batches use, other {@code frontier-} threads), and everything else (broker,
 * this client). A thread that ended within the stretch is not counted.
 */
final class CpuCost {
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final Map<Long, long[]> before;
    private final long processBefore;
    private final long[] jvmBefore;

    private CpuCost(Map<Long, long[]> before, long processBefore, long[] jvmBefore) {
        this.before = before;
        this.processBefore = processBefore;
        this.jvmBefore = jvmBefore;
    }

    /** The counters now. */
    static CpuCost start() {
        return new CpuCost(sample(), OS.getProcessCpuTime(), jvmThreads());
    }

    /**
     * CPU ns so far of the JVM's own threads by what they do, {garbage collection, compilers}, read from Linux's
     * /proc/self/task (names as the JVM gives them: "GC Thread#0", "G1 Conc#0", "G1 Refine#0", "VM Thread", "C2
     * CompilerThre"); zeros elsewhere. Clock ticks, so 10 ms apart.
     */
    private static long[] jvmThreads() {
        long[] ns = new long[2];
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) return ns;
        for (File t : tasks) {
            try {
                String comm = Files.readString(t.toPath().resolve("comm")).trim();
                int kind = comm.startsWith("GC ") || comm.startsWith("G1 ") || comm.equals("VM Thread") ? 0
                        : comm.contains("Compiler") ? 1 : -1;
                if (kind < 0) continue;
                String stat = Files.readString(t.toPath().resolve("stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ns[kind] += (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;   // utime, stime at 100 Hz
            } catch (IOException | RuntimeException e) {
                // a thread that ended meanwhile
            }
        }
        return ns;
    }

    /** Per thread id: CPU ns, allocated bytes, group (0 consumer, 1 rest of the worker, 2 other). */
    private static Map<Long, long[]> sample() {
        Map<Long, long[]> m = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long id = t.getId();
            long cpu = THREADS.getThreadCpuTime(id), alloc = THREADS.getThreadAllocatedBytes(id);
            if (cpu >= 0) m.put(id, new long[] {cpu, alloc, group(t.getName())});
        }
        return m;
    }

    private static int group(String name) {
        if (name.equals("frontier-consumer")) return 0;
        if (name.startsWith("frontier-") || name.startsWith("ForkJoinPool.commonPool")
                || name.startsWith("kafka-producer-network-thread | frontier")) return 1;
        return 2;
    }

    /**
     * One line: per operation ({@code ops} of {@code what}), CPU us and allocated KB of the consumer thread, of the
     * rest of the worker and of the other Java threads, the CPU of the JVM's own threads (garbage collection, the
     * compilers: the whole process less the Java threads), and the whole process's CPU us (user + system).
     */
    String since(long ops, String what) {
        long process = OS.getProcessCpuTime() - processBefore;
        long[] cpu = new long[3], alloc = new long[3];
        for (Map.Entry<Long, long[]> e : sample().entrySet()) {
            long[] now = e.getValue(), was = before.getOrDefault(e.getKey(), new long[] {0, 0, now[2]});
            int g = (int) now[2];
            cpu[g] += now[0] - was[0];
            alloc[g] += now[1] - was[1];
        }
        double n = Math.max(1, ops);
        long threads = cpu[0] + cpu[1] + cpu[2];
        long[] jvm = jvmThreads();
        return String.format(Locale.ROOT, "CPU cost per %s (%,d): consumer thread %.1f us, %.1f KB allocated; rest of"
                        + " the worker %.1f us, %.1f KB; broker and client %.1f us, %.1f KB; the JVM's own threads %.1f us (of"
                        + " which garbage collection %.1f, compilers %.1f); whole process %.1f us",
                what, ops, cpu[0] / n / 1e3, alloc[0] / n / 1024, cpu[1] / n / 1e3, alloc[1] / n / 1024, cpu[2] / n / 1e3,
                alloc[2] / n / 1024, (process - threads) / n / 1e3, (jvm[0] - jvmBefore[0]) / n / 1e3,
                (jvm[1] - jvmBefore[1]) / n / 1e3, process / n / 1e3);
    }
}
