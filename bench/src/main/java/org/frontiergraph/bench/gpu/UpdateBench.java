package org.frontiergraph.bench.gpu;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ComputeBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.gpu.DeviceEditStats;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.sssp.Sssp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Issue 8's update benchmark, engine level (no Kafka): batches of 10^3, 10^5 and 10^6 edge updates applied to a
 * resident graph (host apply, then the device catching up in one step), for re-weight-only batches and for mixed
 * ones (80% re-weights, 10% removals of distinct edges, 10% additions of random pairs; a batch larger than the
 * graph re-weights some edges more than once); then the kernels' time after 10^5 mixed updates against the
 * static CSR's. Without a GPU it measures the CPU engine (host apply only).
 * <p>On a shared machine wall time swings with the other processes; the CPU columns do less: the applying thread's
 * CPU time for the apply (one thread) and the whole JVM's CPU time for the merge (the caller and the common pool).
 * {@code --repeat N} applies N batches of each size and kind (each on the graph the one before left) and reports
 * each column's median.
 * <pre>java -cp ... org.frontiergraph.bench.gpu.UpdateBench [--graphs ny,kron22] [--batches 1000,100000,1000000]
 *      [--repeat 1] [--out table.md]</pre>
 */
public final class UpdateBench {
    private static final long SEED = 20_261_123L;

    @Command(name = "UpdateBench", description = "Batches of edge updates applied to a resident graph, engine level.")
    static final class Cli implements BenchCli.Command<Cli> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--batches", paramLabel = "K", split = ",", description = "updates a batch")
        int[] batches = {10, 1_000, 100_000, 1_000_000};
        @Option(names = "--out", paramLabel = "FILE.md", description = "also write the table here")
        Path out;
        @Option(names = "--repeat", paramLabel = "N", description = "batches of each size and kind (medians)")
        int repeat = 1;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny,kron22");
        }

        @Override
        public Cli options(String[] args) {
            // the shared options checked now: a bad value is a usage error, not a failure mid-run
            graphs.graphs();
            if (repeat < 1) throw new IllegalArgumentException("--repeat must be at least 1");
            return this;
        }
    }

    public static void main(String[] args) throws Exception {
        Cli o = BenchCli.options("UpdateBench", args, Cli::new);
        List<String> graphs = o.graphs.graphs();
        int[] batches = o.batches;
        Path out = o.out;
        int repeat = o.repeat;
        boolean haveGpu = GpuBackend.unavailableReason().isEmpty();
        StringBuilder t = new StringBuilder();
        try (ComputeBackend engine = haveGpu ? Backends.gpu(GpuFlags.settings()) : new CpuBackend()) {
            String device = engine instanceof GpuBackend g ? g.device() : "CPU engine";
            t.append("## Updates (UpdateBench), ").append(LocalDate.now()).append("\n\n")
                    .append("Machine: ").append(Machine.describe()).append("; engine: ").append(device).append(".\n")
                    .append("Command: `UpdateBench --graphs ").append(String.join(",", graphs)).append(" --repeat ")
                    .append(repeat).append("` (medians of ").append(repeat).append(").\n\n")
                    .append("| graph | batch | kind | host apply ms | apply CPU ms | host merge ms | merge CPU ms | device sync ms | updates/s | device edits (last run): host + device ms, device updates/s |\n"
                            + "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
            StringBuilder after = new StringBuilder("\n| graph | after | SSSP kernel ms | BFS kernel ms | MST kernel ms | host merge ms | first MST query ms |\n|---|---|---:|---:|---:|---:|---:|\n");
            for (String name : graphs) {
                CsrGraph g = GpuBench.build(name);
                if (g == null) {
                    t.append("| ").append(name).append(" | not found | | | | | |\n");
                    continue;
                }
                System.out.println(name + ": " + g);
                try (ResidentGraph r = engine.load(copy(g))) {
                    int[] sources = GpuBench.sources(g, 5);
                    after.append(kernels(name, "static CSR", r, sources));
                    // untimed: a worker applying a stream of updates runs warm code; the first merges would time the
                    // interpreter (a cold merge of NY took 125 ms against a few warm)
                    for (int i = 0; i < 7; i++) {   // the last two large: the loops of a 10^6 batch compiled too
                        int k = i < 5 ? 100 : 100_000;
                        r.mutable().apply(batch(r.graph(), k, true, new SplittableRandom(SEED - i)), 0, Long.MAX_VALUE);
                        r.mutable().current();
                        r.sync();
                    }
                    for (int k : batches) {
                        for (boolean mixed : new boolean[] {false, true}) {
                            double[][] ms = new double[6][repeat];   // apply, apply CPU, merge, merge CPU, sync, total
                            int size = 0;
                            for (int rep = 0; rep < repeat; rep++) {
                                EdgeEdits e = batch(r.graph(), k, mixed, new SplittableRandom(SEED + k + (mixed ? 1 : 0) + 1_000L * rep));
                                size = e.size();
                                MutableGraph m = r.mutable();
                                long c0 = THREADS.getCurrentThreadCpuTime();
                                long t0 = System.nanoTime();
                                m.apply(e, 0, Long.MAX_VALUE);
                                long t1 = System.nanoTime();
                                long c1 = THREADS.getCurrentThreadCpuTime(), p1 = processCpuNanos();
                                // the CPU engine merges structural changes before the next query; the GPU engine applies
                                // them on the device (edits of the slack layout) without that merge
                                if (!haveGpu) m.current();
                                long tm = System.nanoTime();
                                long p2 = processCpuNanos();
                                r.sync();
                                long t2 = System.nanoTime();
                                double[] row = {(t1 - t0) / 1e6, (c1 - c0) / 1e6, (tm - t1) / 1e6, (p2 - p1) / 1e6, (t2 - tm) / 1e6, (t2 - t0) / 1e6};
                                for (int c = 0; c < row.length; c++) ms[c][rep] = row[c];
                            }
                            double[] med = new double[ms.length];
                            for (int c = 0; c < ms.length; c++) med[c] = GpuBench.median(ms[c]);
                            String row = String.format(Locale.ROOT, "| %s | %,d | %s | %.1f | %.1f | %s | %s | %.1f | %,.0f | %s |%n", name, size,
                                    mixed ? "mixed" : "re-weights", med[0], med[1],
                                    haveGpu ? "" : String.format(Locale.ROOT, "%.1f", med[2]), haveGpu ? "" : String.format(Locale.ROOT, "%.1f", med[3]),
                                    med[4], size / (med[5] / 1e3), deviceColumn(r, size));
                            System.out.print(row);
                            t.append(row);
                        }
                    }
                    after.append(kernels(name, "updates above" + (haveGpu ? " (slack layout)" : ""), r, sources));
                    if (haveGpu) {   // the same version again, compact: loaded afresh beside it
                        try (ResidentGraph fresh = engine.load(r.mutable().current())) {
                            after.append(kernels(name, "same version, compact CSR (loaded afresh)", fresh, sources));
                        }
                    }
                }
            }
            t.append(after);
        }
        System.out.println(t);
        if (out != null) Files.writeString(out, t.toString());
    }

    /** Edits' host part + device part ms and the device part's edge updates/s, when the sync applied device edits. */
    private static String deviceColumn(ResidentGraph r, int k) {
        if (!(r instanceof DeviceEditStats s)) return "";
        long[] last = s.lastDeviceEdit();
        if (last[2] == 0) return "";
        return String.format(Locale.ROOT, "%.1f + %.1f ms: %,.0f", last[0] / 1e6, last[1] / 1e6, k / (last[1] / 1e9));
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** The JVM's CPU time (every thread), or 0 where the platform does not say. */
    private static long processCpuNanos() {
        try {
            return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os.getProcessCpuTime() : 0;
        } catch (LinkageError e) {
            return 0;   // a runtime without jdk.management (the GPU machine's jlink image)
        }
    }

    private static CsrGraph copy(CsrGraph g) {
        return new MutableGraph(g).snapshot();
    }

    /** k edits: re-weights of distinct existing edges, or 80% of them, 10% removals and 10% new edges. */
    static EdgeEdits batch(CsrGraph g, int k, boolean mixed, SplittableRandom rnd) {
        int removals = mixed ? k / 10 : 0, additions = mixed ? k / 10 : 0, reweights = k - removals - additions;
        Set<Long> removed = new HashSet<>();   // removals are distinct edges, and none is also re-weighted
        int[] ru = new int[removals], rv = new int[removals], wu = new int[reweights], wv = new int[reweights];
        int[] au = new int[additions], av = new int[additions];
        double[] ww = new double[reweights], aw = new double[additions];
        int n = g.vertexCount();
        for (int i = 0; i < removals + reweights; i++) {
            int u, v;
            boolean fresh;
            do {
                int arc = rnd.nextInt(g.arcCount());
                v = g.columns()[arc];
                u = g.sourceOf(arc);
                long key = key(u, v, g.directed());
                fresh = i < removals ? removed.add(key) : !removed.contains(key);
            } while (!fresh);
            if (i < removals) {
                ru[i] = u;
                rv[i] = v;
            } else {
                wu[i - removals] = u;
                wv[i - removals] = v;
                ww[i - removals] = 1 + rnd.nextInt(255);
            }
        }
        for (int i = 0; i < additions; i++) {
            au[i] = rnd.nextInt(n);
            av[i] = rnd.nextInt(n);
            aw[i] = 1 + rnd.nextInt(255);
        }
        return new EdgeEdits(0, ru, rv, wu, wv, ww, au, av, aw);
    }

    private static long key(int u, int v, boolean directed) {
        if (!directed && u > v) return ((long) v << 32) | u;
        return ((long) u << 32) | v;
    }

    private static String kernels(String name, String when, ResidentGraph r, int[] sources) {
        long t0 = System.nanoTime();   // the host's merge of pending edits (the MST answer's edge ids need it)
        r.mutable().current();
        long t1 = System.nanoTime();   // then the first MST query of this version: the edge list made or followed
        Mst.run(r, null);
        double merge = (t1 - t0) / 1e6, firstMst = (System.nanoTime() - t1) / 1e6;
        double sssp = median(sources, s -> Sssp.run(r, s, null).timing());
        double bfs = median(sources, s -> Bfs.run(r, s, null).timing());
        double mst = median(new int[] {0, 0, 0}, s -> Mst.run(r, null).timing());
        String row = String.format(Locale.ROOT, "| %s | %s | %.3f | %.3f | %.3f | %.1f | %.1f |%n", name, when, sssp, bfs, mst, merge, firstMst);
        System.out.print(row);
        return row;
    }

    private static double median(int[] sources, Function<Integer, Timing> run) {
        run.apply(sources[0]);
        double[] ms = new double[sources.length];
        for (int i = 0; i < sources.length; i++) ms[i] = run.apply(sources[i]).computeNanos() / 1e6;
        return GpuBench.median(ms);
    }
}
