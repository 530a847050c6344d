package org.frontiergraph.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.kernels.bfs.BfsSummaries;
import org.frontiergraph.kernels.bfs.CpuBfsSummaries;
import org.frontiergraph.kernels.graph.CsrGraph;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The CPU engine's batched BFS SUMMARY answers in one JVM, without Kafka or the worker: per graph and batch size, ms
 * a source of each way asked ({@code --ways}): {@code run} (the engine's choice, {@link CpuBfsSummaries#run}, the
 * only one a build before 2026-11-26 has: put its kernels jar first on the class path to time the old code),
 * {@code perSource} (one sequential BFS a source, spread over the cores) and {@code bitParallel} (64-source
 * bit-parallel passes), on the same seeded sources of non-zero out-degree (what KafkaBench's bursts ask). Each timed
 * run is one batch; {@code --warmup} untimed runs per row first, then {@code --runs} timed ones, median. Every run's
 * summaries must equal the first way's (exit status 1 if not). Usage: {@code BfsSummariesBench [--graphs
 * ny,kron16,grid512] [--sizes 2,8,16,64,256] [--ways run,perSource,bitParallel] [--runs 5] [--warmup 2] [--seed 42]}
 * (graph names as {@link GpuBench#build}; a graph whose dataset is absent is skipped).
 */
public final class BfsSummariesBench {
    private record Options(List<String> graphs, int[] sizes, List<String> ways, int runs, int warmup, long seed) {}

    @Command(name = "BfsSummariesBench", description = "The CPU engine's batched BFS SUMMARY answers, per graph, batch size and way.")
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--sizes", paramLabel = "K", split = ",", description = "sources a batch")
        int[] sizes = {2, 8, 16, 64, 256};
        @Option(names = "--ways", paramLabel = "W", split = ",", description = "run, perSource, bitParallel")
        List<String> ways = List.of("run", "perSource", "bitParallel");
        @Mixin
        BenchCli.Runs runs;
        @Option(names = "--warmup", paramLabel = "N", description = "untimed runs per row first")
        int warmup = 2;
        @Option(names = "--seed", paramLabel = "N", description = "sources")
        long seed = 42;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny,kron16,grid512", "--runs", "5");
        }

        @Override
        public Options options(String[] args) {
            ways.forEach(BfsSummariesBench::way);   // a misspelt way is a usage error
            return new Options(graphs.graphs(), sizes, List.copyOf(ways), runs.runs(), warmup, seed);
        }
    }

    private BfsSummariesBench() {}

    public static void main(String[] args) {
        BenchMain.main("BfsSummariesBench", args, Cli::new, BfsSummariesBench::run);
    }

    private static BiFunction<CsrGraph, int[], BfsSummaries> way(String name) {
        return switch (name) {
            case "run" -> CpuBfsSummaries::run;
            case "perSource" -> CpuBfsSummaries::perSource;
            case "bitParallel" -> CpuBfsSummaries::bitParallel;
            default -> throw new IllegalArgumentException("unknown way " + name + " (run, perSource, bitParallel)");
        };
    }

    private static BenchMain.Result run(Options o) throws Exception {
        StringBuilder md = new StringBuilder();
        md.append("### BfsSummariesBench\n\n").append(Machine.describe()).append("\n\n")
                .append(String.format(Locale.ROOT, "runs %d after %d warm-up, seed %d; load average %s before%n%n",
                        o.runs(), o.warmup(), o.seed(), Machine.loadAverage()))
                .append("| graph | vertices | arcs | sources |");
        o.ways().forEach(w -> md.append(' ').append(w).append(": ms a source |"));
        md.append("\n|---|---:|---:|---:|").append("---:|".repeat(o.ways().size())).append('\n');
        boolean ok = true;
        for (String name : o.graphs()) {
            CsrGraph g = GpuBench.build(name);
            if (g == null) {
                md.append("| ").append(name).append(" | dataset absent: skipped |||\n");
                continue;
            }
            for (int k : o.sizes()) {
                int[] sources = sources(g, k, o.seed());
                BfsSummaries want = way(o.ways().get(0)).apply(g, sources);
                md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %d |", name, g.vertexCount(), g.arcCount(), k));
                for (String w : o.ways()) {
                    double ms = median(o, g, sources, way(w), want);
                    ok &= !Double.isNaN(ms);
                    md.append(String.format(Locale.ROOT, " %.3f |", ms / k));
                    System.err.printf(Locale.ROOT, "%s x%d %s: %.3f ms a source%n", name, k, w, ms / k);
                }
                md.append('\n');
            }
        }
        md.append(String.format(Locale.ROOT, "%nload average %s after; summaries %s%n", Machine.loadAverage(),
                ok ? "equal in every run" : "DIFFER (a NaN above)"));
        return new BenchMain.Result(md.toString(), ok);
    }

    /** Median ms of one batch over the timed runs; NaN when a run's summaries differ from {@code want}. */
    private static double median(Options o, CsrGraph g, int[] sources,
                                 BiFunction<CsrGraph, int[], BfsSummaries> batch, BfsSummaries want) {
        for (int i = 0; i < o.warmup(); i++) batch.apply(g, sources);
        double[] ms = new double[o.runs()];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            BfsSummaries got = batch.apply(g, sources);
            ms[i] = (System.nanoTime() - t0) / 1e6;
            if (!same(want, got)) return Double.NaN;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

    private static boolean same(BfsSummaries a, BfsSummaries b) {
        return Arrays.equals(a.sources(), b.sources()) && Arrays.equals(a.reached(), b.reached())
                && Arrays.equals(a.maxHops(), b.maxHops());
    }

    /** {@code k} seeded random sources of non-zero out-degree (repeats possible, as in a burst of queries). */
    private static int[] sources(CsrGraph g, int k, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Integer> s = new ArrayList<>(k);
        while (s.size() < k) {
            int v = r.nextInt(g.vertexCount());
            if (g.degree(v) > 0) s.add(v);
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }
}
