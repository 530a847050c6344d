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
import java.util.Map;
import java.util.SplittableRandom;
import org.frontiergraph.bench.BenchCli;
import org.frontiergraph.bench.BenchMain;
import org.frontiergraph.bench.Machine;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.kernels.cc.CcRepair;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cc.CpuCc;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A standing CC answer ({@link CcRepair}) kept through single-edge batches, against {@link CpuCc} recomputing it: per
 * pair of batches, a random road is cut (its arc u -> v removed, and v -> u with it when there is one: on a directed
 * graph one arc alone never changes weak connectivity) and then restored with its weights, so every cut is made on
 * the original graph. Each batch is applied to a {@link MutableGraph}; then, timed apart: the merge of the change
 * ({@code current()}), the transpose the repair's searches read on a directed graph ({@code transpose()}, cached per
 * version), the repair from the batch's changed edges and the recompute on the same version. Every repaired answer
 * is checked against the recompute (labels, count, largest), and a repair that gives up (null) against nothing: the
 * recompute then replaces the answer. Medians and 99th percentiles (nearest rank) per kind of batch: cuts, the cuts
 * that split a component, restores.
 * <pre>java -cp ... org.frontiergraph.bench.incremental.CcCutBench [--graphs ny,luxembourg] [--pairs 1000]
 *      [--warmup 100] [--seed 7] [--out FILE.md] [--command TEXT]</pre>
 * Graph names as {@link GpuBench#edges} takes them; a dataset that is absent is skipped with a note.
 */
public final class CcCutBench {
    private CcCutBench() {}

    record Options(List<String> graphs, int pairs, int warmup, long seed, Path out, String command) {
        static Options parse(String[] args) {
            return BenchCli.parse(new Cli(), args);
        }
    }

    @Command(name = "CcCutBench", description = "A standing CC answer repaired through road cuts and restores, against a recompute.")
    static final class Cli implements BenchCli.Command<Options> {
        @Mixin
        BenchCli.Graphs graphs;
        @Option(names = "--pairs", paramLabel = "N", description = "timed (cut, restore) batch pairs per graph")
        int pairs = 1000;
        @Option(names = "--warmup", paramLabel = "N", description = "untimed pairs per graph first")
        int warmup = 100;
        @Option(names = "--seed", paramLabel = "N", description = "the cut roads")
        long seed = 7;
        @Mixin
        BenchCli.Output output;

        @Override
        public Map<String, String> defaults() {
            return Map.of("--graphs", "ny,luxembourg");
        }

        @Override
        public Options options(String[] args) {
            if (pairs < 1 || warmup < 0) throw new IllegalArgumentException("--pairs must be positive, --warmup not negative");
            return new Options(graphs.graphs(), pairs, warmup, seed, output.out(), output.command("CcCutBench", args));
        }
    }

    /** Milliseconds per batch of one kind: the merge, the transpose, the repair, the recompute (NaN: gave up). */
    record Times(double[] merge, double[] transpose, double[] repair, double[] recompute) {
        static Times of(List<double[]> batches) {
            double[][] c = new double[4][batches.size()];
            for (int i = 0; i < batches.size(); i++) for (int j = 0; j < 4; j++) c[j][i] = batches.get(i)[j];
            return new Times(c[0], c[1], c[2], c[3]);
        }

        /** Transpose and repair together, batch by batch: what the standing answer costs beyond the merge. */
        double[] transposeAndRepair() {
            double[] s = new double[repair.length];
            for (int i = 0; i < s.length; i++) s[i] = transpose[i] + repair[i];
            return s;
        }
    }

    /** One kind of batch on one graph. */
    record Row(String graph, String kind, int batches, int gaveUp, Times times) {}

    record Outcome(List<Row> rows, List<String> notes, String markdown) {}

    public static void main(String[] args) {
        BenchMain.main("CcCutBench", args, Cli::new, o -> new BenchMain.Result(run(o).markdown(), true));
    }

    static Outcome run(Options o) throws IOException {
        ZonedDateTime started = ZonedDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (String name : o.graphs()) {
            GpuBench.Edges e = GpuBench.edges(name);
            if (e == null) {
                notes.add(name + ": its dataset was not found (../shared/datasets or FRONTIER_DATASETS), skipped");
                continue;
            }
            CsrGraph g = GraphBuilder.build(e.edges());
            notes.add(name + ": " + g);
            rows.addAll(measure(name, g, o.pairs(), o.warmup(), o.seed()));
        }
        String markdown = markdown(o, started, (System.nanoTime() - t0) / 1e9, rows, notes);
        if (o.out() != null) {
            Path parent = o.out().toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(o.out(), markdown + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return new Outcome(rows, notes, markdown);
    }

    /** Cuts and restores on {@code g}: rows for the cuts, the cuts that split a component, the restores. */
    static List<Row> measure(String name, CsrGraph g, int pairs, int warmup, long seed) {
        MutableGraph m = new MutableGraph(g);
        ChangeLog.Cursor cursor = m.log().cursor(ChangeLog.Detail.EDGES);
        SplittableRandom random = new SplittableRandom(seed ^ name.hashCode());
        CcResult[] answer = {CpuCc.run(m.current())};
        List<double[]> cuts = new ArrayList<>(), splits = new ArrayList<>(), restores = new ArrayList<>();
        int[] gaveUp = new int[3];
        for (int p = 0; p < warmup + pairs; p++) {
            CsrGraph now = m.current();
            int arc = random.nextInt(now.arcCount());
            int u = now.sourceOf(arc), v = now.columns()[arc];
            int back = now.directed() ? now.findArc(v, u) : -1;
            int[] us = back >= 0 ? new int[] {u, v} : new int[] {u};
            int[] vs = back >= 0 ? new int[] {v, u} : new int[] {v};
            double[] ws = back >= 0 ? new double[] {now.weights()[arc], now.weights()[back]} : new double[] {now.weights()[arc]};
            boolean timed = p >= warmup;
            double[] cut = batch(m, cursor, EdgeEdits.remove(us, vs), answer, name);
            double[] restore = batch(m, cursor, EdgeEdits.add(us, vs, ws), answer, name);
            if (!timed) continue;
            boolean gave = Double.isNaN(cut[2]);
            cuts.add(cut);
            if (gave) gaveUp[0]++;
            if (cut[4] > 0) {
                splits.add(cut);
                if (gave) gaveUp[1]++;
            }
            restores.add(restore);
            if (Double.isNaN(restore[2])) gaveUp[2]++;
        }
        List<Row> out = new ArrayList<>();
        out.add(new Row(name, "cut", cuts.size(), gaveUp[0], Times.of(cuts)));
        out.add(new Row(name, "cut that splits", splits.size(), gaveUp[1], Times.of(splits)));
        out.add(new Row(name, "restore", restores.size(), gaveUp[2], Times.of(restores)));
        return out;
    }

    /**
     * One batch applied and timed; the answer replaced by the repaired (checked) or recomputed one. Returns ms of the
     * merge, the transpose, the repair (NaN: gave up), the recompute, and 1 when there are more components after it (else 0).
     */
    private static double[] batch(MutableGraph m, ChangeLog.Cursor cursor, EdgeEdits e, CcResult[] answer, String name) {
        int components = answer[0].components();
        m.apply(e, 0, Long.MAX_VALUE);
        long t0 = System.nanoTime();
        CsrGraph g = m.current();
        long t1 = System.nanoTime();
        if (g.directed()) g.transpose();
        long t2 = System.nanoTime();
        ChangedEdges changes = cursor.read().edges();
        long t3 = System.nanoTime();
        CcRepair.Repaired r = CcRepair.repair(g, answer[0], changes);
        long t4 = System.nanoTime();
        CcResult fresh = CpuCc.run(g);
        long t5 = System.nanoTime();
        if (r != null) {
            CcResult x = r.result();
            if (!Arrays.equals(x.labels(), fresh.labels()) || x.components() != fresh.components() || x.largest() != fresh.largest()) {
                throw new IllegalStateException(name + ": the repaired components differ from the recompute after " + e);
            }
        }
        answer[0] = r != null ? r.result() : fresh;
        return new double[] {ms(t1 - t0), ms(t2 - t1), r == null ? Double.NaN : ms(t4 - t3), ms(t5 - t4),
                answer[0].components() > components ? 1 : 0};
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** The q-quantile (nearest rank) of the values that are not NaN; NaN when none is. */
    static double quantile(double[] xs, double q) {
        double[] s = Arrays.stream(xs).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) return Double.NaN;
        return s[Math.min(s.length - 1, Math.max(0, (int) Math.ceil(q * s.length) - 1))];
    }

    static String markdown(Options o, ZonedDateTime started, double seconds, List<Row> rows, List<String> notes) {
        StringBuilder b = new StringBuilder();
        b.append("### CcCutBench, ").append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"))).append("\n\n");
        b.append("- command: `").append(o.command()).append("`\n");
        for (String line : Machine.describe().split("\n")) b.append("- ").append(line.replaceAll(" +", " ")).append('\n');
        b.append(String.format(Locale.ROOT, "- settings: %d timed (cut, restore) pairs a graph after %d untimed; seed %d;"
                + " took %.0f s; load average at the end %s%n", o.pairs(), o.warmup(), o.seed(), seconds, Machine.loadAverage()));
        for (String n : notes) b.append("- ").append(n).append('\n');
        b.append("\n**Standing CC repaired vs recomputed** (ms, median / p99 over the batches of a kind; merge: `current()`"
                + " after the batch; transpose: `transpose()` of that version (directed graphs); repair: `CcRepair.repair`;"
                + " recompute: `CpuCc.run` on the same version; speed-up: recompute / repair, of the medians and of the"
                + " p99s; with transpose: recompute / (transpose + repair), medians):\n\n");
        b.append("| graph | batches | n | gave up | merge | transpose | repair | recompute | speed-up median | speed-up p99"
                + " | with transpose |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            Times t = r.times();
            b.append(String.format(Locale.ROOT, "| %s | %s | %,d | %d | %s | %s | %s | %s | %s | %s | %s |%n", r.graph(), r.kind(),
                    r.batches(), r.gaveUp(), pair(t.merge()), pair(t.transpose()), pair(t.repair()), pair(t.recompute()),
                    times(quantile(t.recompute(), 0.5) / quantile(t.repair(), 0.5)),
                    times(quantile(t.recompute(), 0.99) / quantile(t.repair(), 0.99)),
                    times(quantile(t.recompute(), 0.5) / quantile(t.transposeAndRepair(), 0.5))));
        }
        b.append("\nEvery repaired answer equalled the recompute.\n");
        return b.toString();
    }

    private static String pair(double[] xs) {
        if (xs.length == 0) return "";
        return String.format(Locale.ROOT, "%.3f / %.3f", quantile(xs, 0.5), quantile(xs, 0.99));
    }

    private static String times(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return "";
        return x >= 10 ? String.format(Locale.ROOT, "%,.0fx", x) : String.format(Locale.ROOT, "%.2fx", x);
    }
}
