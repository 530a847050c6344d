package org.frontiergraph.bench.incremental;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.sssp.CpuSssp;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeRepair;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Many standing SSSP answers of one graph kept up to date after each batch of re-weights (what a worker does for the
 * subscriptions of a graph), at engine level, three ways on the same batches:
 * <ul>
 *   <li><b>alone, one thread</b>: {@link SsspRepair#repair} on each tree in turn;</li>
 *   <li><b>alone, side by side</b>: the same calls, one per tree, on the common pool (the worker before
 *       {@link SsspRepair#repairAll});</li>
 *   <li><b>together</b>: {@link SsspRepair#repairAll}: the batch's screen once for all trees, then the repairs of
 *       the trees it touches side by side.</li>
 * </ul>
 * Each way's time includes recomputing ({@link CpuSssp}, side by side but for the first way) the trees whose repair
 * gave up. After every batch the three ways' answers must be equal (distances and parents), and every
 * {@code --check-every}th batch each tree's distances equal {@link DijkstraReference}'s and its parents pass
 * {@link SsspVerifier}; a mismatch ends the run with exit status 1.
 * <pre>java -cp ... org.frontiergraph.bench.incremental.ManyTreesBench [--graph grid100] [--trees 100]
 *      [--batches 1,10] [--count 2000] [--check-every 100] [--seed 7] [--out FILE.md] [--command TEXT]</pre>
 */
public final class ManyTreesBench {
    private ManyTreesBench() {}

    record Options(String graph, int trees, int[] batches, int count, int checkEvery, long seed, Path out, String command) {
        static Options parse(String[] args) {
            return BenchCli.parse(new Cli(), args);
        }
    }

    @Command(name = "ManyTreesBench", description = "Many standing SSSP answers of one graph repaired after each batch of "
            + "re-weights: one at a time, side by side, together.")
    static final class Cli implements BenchCli.Command<Options> {
        @Option(names = "--graph", paramLabel = "NAME", description = "as GpuBench names them (gridSIDE, kronSCALE, uniformSCALE, ny)")
        String graph = "grid100";
        @Option(names = "--trees", paramLabel = "N", description = "standing SSSP answers")
        int trees = 100;
        @Option(names = "--batches", paramLabel = "K", split = ",", description = "re-weights a batch")
        int[] batches = {1, 10};
        @Option(names = "--count", paramLabel = "N", description = "timed batches per size")
        int count = 2000;
        @Option(names = "--check-every", paramLabel = "N", description = "every this many batches, each tree checked against Dijkstra")
        int checkEvery = 100;
        @Option(names = "--seed", paramLabel = "N", description = "sources and re-weights")
        long seed = 7;
        @Mixin
        BenchCli.Output output;

        @Override
        public Options options(String[] args) {
            if (trees < 1 || count < 1 || checkEvery < 1 || batches.length == 0 || Arrays.stream(batches).anyMatch(b -> b < 1)) {
                throw new IllegalArgumentException("--trees, --count, --check-every and --batches must be positive");
            }
            return new Options(graph.toLowerCase(Locale.ROOT), trees, batches, count, checkEvery, seed, output.out(),
                    output.command("ManyTreesBench", args));
        }
    }

    /** Milliseconds per batch of one way: mean, p50, p99, max; and the trees that gave up and were recomputed. */
    record Way(double mean, double p50, double p99, double max, long recomputed) {}

    public static void main(String[] args) {
        BenchMain.main("ManyTreesBench", args, Cli::new, o -> {
            try {
                return new BenchMain.Result(run(o), true);
            } catch (RepairBench.MismatchException e) {
                return new BenchMain.Result("ManyTreesBench: MISMATCH: " + e.getMessage(), false);
            }
        });
    }

    static String run(Options o) throws IOException {
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        String load = Machine.loadAverage();
        GpuBench.Edges e = GpuBench.edges(o.graph());
        if (e == null) throw new IllegalArgumentException(o.graph() + ": dataset not found");
        CsrGraph g0 = GraphBuilder.build(e.edges());
        MutableGraph m = new MutableGraph(g0);
        ChangeLog.Cursor changed = m.log().cursor(ChangeLog.Detail.EDGES);
        int[] sources = GpuBench.sources(g0, o.trees());
        SsspResult[][] ways = new SsspResult[3][sources.length];
        for (int i = 0; i < sources.length; i++) {
            SsspResult r = CpuSssp.run(g0, sources[i]);
            for (int w = 0; w < 3; w++) ways[w][i] = copy(r);
        }
        SplittableRandom random = new SplittableRandom(o.seed());
        StringBuilder table = new StringBuilder();
        table.append("| graph | trees | batch of re-weights | batches | alone, one thread: mean / p50 / p99 / max ms")
                .append(" | alone, side by side | together (screen, then side by side) | trees touched per batch")
                .append(" | recomputed (gave up) |\n|---|---:|---:|---:|---|---|---|---:|---:|\n");
        long checks = 0;
        for (int k : o.batches()) {
            batches(m, changed, ways, sources, k, 200, random, o.checkEvery(), new double[3][200], new long[3], new long[1]);   // warm-up
            double[][] ms = new double[3][o.count()];
            long[] recomputed = new long[3], touched = new long[1];
            checks += batches(m, changed, ways, sources, k, o.count(), random, o.checkEvery(), ms, recomputed, touched);
            Way[] w = new Way[3];
            for (int i = 0; i < 3; i++) w[i] = way(ms[i], recomputed[i]);
            table.append(String.format(Locale.ROOT, "| %s | %d | %d | %,d | %s | %s | %s | %.1f | %d |%n", o.graph(),
                    sources.length, k, o.count(), text(w[0]), text(w[1]), text(w[2]),
                    touched[0] / (double) o.count(), recomputed[2]));
            System.err.printf(Locale.ROOT, "[many-trees] batch %d: %s / %s / %s%n", k, text(w[0]), text(w[1]), text(w[2]));
        }
        String md = "### ManyTreesBench, " + started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")) + "\n\n"
                + "- command: `" + o.command() + "`\n- machine: " + Machine.describe() + "\n- graph " + o.graph() + ": "
                + g0 + "; " + sources.length + " SSSP trees from GpuBench's seeded sources; random re-weights"
                + " (RandomEdits: half heavier, half lighter)\n- load average (1, 5, 15 min) " + load + " before, "
                + Machine.loadAverage() + " after\n\n" + table + "\nEvery batch: the three ways' answers equal; "
                + checks + " trees checked against DijkstraReference and SsspVerifier.\n";
        if (o.out() != null) Files.writeString(o.out(), md + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return md;
    }

    /** {@code count} batches of {@code k} re-weights, each kept up to date three ways; returns the trees checked. */
    private static long batches(MutableGraph m, ChangeLog.Cursor changed, SsspResult[][] ways, int[] sources, int k,
                                int count, SplittableRandom random, int checkEvery, double[][] ms, long[] recomputed, long[] touched) {
        long checked = 0;
        for (int b = 0; b < count; b++) {
            RandomEdits edits = new RandomEdits(m.current(), RandomEdits.Series.REWEIGHTS, random);
            for (int i = 0; i < k; i++) m.apply(edits.next(), 0, Long.MAX_VALUE);
            ChangedEdges changes = changed.read().edges();
            CsrGraph g = m.current();
            long budget = SsspRepair.defaultBudget(g);
            if (g.directed()) g.transpose();

            long t0 = System.nanoTime();
            SsspResult[] alone = ways[0];
            for (int i = 0; i < alone.length; i++) {
                TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(g, alone[i], changes, budget);
                if (r == null) recomputed[0]++;
                alone[i] = r == null ? CpuSssp.run(g, sources[i]) : r.result();
            }
            long t1 = System.nanoTime();
            SsspResult[] side = ways[1];
            @SuppressWarnings("unchecked") TreeRepair.Repaired<SsspResult>[] rs = (TreeRepair.Repaired<SsspResult>[]) new TreeRepair.Repaired<?>[side.length];
            IntStream.range(0, side.length).parallel().forEach(i -> rs[i] = SsspRepair.repair(g, side[i], changes, budget));
            recomputed[1] += fallBack(g, sources, side, rs);
            long t2 = System.nanoTime();
            SsspResult[] together = ways[2];
            TreeRepair.Repaired<SsspResult>[] all = SsspRepair.repairAll(g, together, changes, budget);
            recomputed[2] += fallBack(g, sources, together, all);
            long t3 = System.nanoTime();
            ms[0][b] = (t1 - t0) / 1e6;
            ms[1][b] = (t2 - t1) / 1e6;
            ms[2][b] = (t3 - t2) / 1e6;
            for (int i = 0; i < together.length; i++) {
                if (all[i] == null || !all[i].result().timing().counters().isEmpty()) touched[0]++;   // the screen's entries have no counters
                if (!Arrays.equals(alone[i].distances(), together[i].distances()) || !Arrays.equals(alone[i].parents(), together[i].parents())
                        || !Arrays.equals(alone[i].distances(), side[i].distances()) || !Arrays.equals(alone[i].parents(), side[i].parents())) {
                    throw new RepairBench.MismatchException("tree " + i + " (source " + sources[i] + "): the ways differ after batch " + b);
                }
            }
            if (b % checkEvery == checkEvery - 1) {
                for (int i = 0; i < together.length; i++) {
                    SsspResult ref = DijkstraReference.run(g, sources[i]);
                    if (!Arrays.equals(ref.distances(), together[i].distances()) || !SsspVerifier.verify(g, sources[i], together[i], ref).ok()) {
                        throw new RepairBench.MismatchException("tree " + i + " (source " + sources[i] + ") differs from DijkstraReference after batch " + b);
                    }
                    checked++;
                }
            }
        }
        return checked;
    }

    /** Replaces the answers whose repair gave up by recomputes, side by side; returns how many. */
    private static long fallBack(CsrGraph g, int[] sources, SsspResult[] answers, TreeRepair.Repaired<SsspResult>[] repaired) {
        List<Integer> gaveUp = new ArrayList<>();
        for (int i = 0; i < answers.length; i++) {
            if (repaired[i] == null) gaveUp.add(i);
            else answers[i] = repaired[i].result();
        }
        gaveUp.parallelStream().forEach(i -> answers[i] = CpuSssp.run(g, sources[i]));
        return gaveUp.size();
    }

    private static SsspResult copy(SsspResult r) {
        return new SsspResult(r.source(), r.distances().clone(), r.parents().clone(), r.timing());
    }

    private static Way way(double[] ms, long recomputed) {
        double mean = Arrays.stream(ms).average().orElse(0);
        double[] s = ms.clone();
        Arrays.sort(s);
        return new Way(mean, s[s.length / 2], s[Math.min(s.length - 1, (int) Math.ceil(0.99 * s.length) - 1)], s[s.length - 1], recomputed);
    }

    private static String text(Way w) {
        return String.format(Locale.ROOT, "%.3f / %.3f / %.2f / %.1f", w.mean(), w.p50(), w.p99(), w.max());
    }
}
