package org.frontiergraph.bench.incremental;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.frontiergraph.bench.gpu.GpuBench;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.standing.DeviceTreeAnswers;
import org.frontiergraph.kernels.standing.RepairPolicy;
import org.frontiergraph.kernels.standing.Screen;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeOutcome;
import org.frontiergraph.kernels.standing.TreeRepair;

/**
 * {@link RepairBench}'s device part: standing SSSP answers of a graph resident on the GPU ({@code trees} of them, from
 * seeded sources), brought up to date after each batch of k random single-edge updates ({@link RandomEdits}) three
 * ways on the same batches:
 * <ul>
 *   <li><b>device repair</b>: {@link DeviceTreeAnswers#repairAll}, the trees repaired on the device and only their
 *       DELTAs copied back (wall time, after the device copy caught up with the batch: GPU sync, timed apart);</li>
 *   <li><b>GPU recompute</b>: {@link Sssp#run} on the same resident graph for every tree (wall time: kernels and the
 *       answer copied back, as the worker recomputes an answer);</li>
 *   <li><b>host repair</b>: {@link SsspRepair#repairAll} on the host graph (no budget: the incremental cost itself),
 *       side by side on the common pool.</li>
 * </ul>
 * After every batch each device-repaired answer's distances equal the GPU recompute's and the host repair's bit for bit,
 * and (the first four trees) its parents pass {@link SsspVerifier}; a mismatch aborts the run.
 */
final class DeviceRows {
    /** Medians over the batches of one row; hows: how the trees were brought up to date, over all batches. */
    record Row(String graph, String series, int batch, int trees, int batches, double syncMs, double deviceMs,
               double recomputeMs, double hostMs, double changedMedian, Map<TreeOutcome.How, Integer> hows) {}

    private DeviceRows() {}

    /**
     * The device repair's switches for a run: {@code -Dfrontier.trees.side-by-side}, {@code -Dfrontier.trees.blocks-per-sm},
     * {@code -Dfrontier.trees.phases}, {@code -Dfrontier.trees.settle} and {@code -Dfrontier.trees.shift-passes} on the benchmark's command line (the worker
     * takes them from its configuration), the defaults otherwise.
     */
    static RepairPolicy policy() {
        RepairPolicy d = RepairPolicy.DEFAULTS;
        return new RepairPolicy(d.deviceFirstArcs(), d.deviceBudgetDivisor(), d.gpuSpeedUp(),
                Boolean.parseBoolean(System.getProperty("frontier.trees.side-by-side", String.valueOf(d.sideBySide()))),
                Integer.getInteger("frontier.trees.blocks-per-sm", d.blocksPerSm()), Boolean.getBoolean("frontier.trees.phases"),
                System.getProperty("frontier.trees.settle", d.settle()),
                Integer.getInteger("frontier.trees.shift-passes", d.shiftPasses()));
    }

    /** Trees whose parents each batch checks with the verifier (distances are compared for all). */
    private static final int VERIFIED = 4;

    static List<Row> measure(String name, CsrGraph g, GpuBackend gpu, int[] treeCounts, int[] batches, int repeats,
                             List<RandomEdits.Series> series, long seed) {
        List<Row> rows = new ArrayList<>();
        for (int trees : treeCounts) {
            MutableGraph m = new MutableGraph(copy(g));
            ChangeLog.Cursor changed = m.log().cursor(ChangeLog.Detail.EDGES);
            SplittableRandom random = new SplittableRandom(seed ^ name.hashCode() ^ trees);
            try (ResidentGraph dev = gpu.load(copy(g))) {
                DeviceTreeAnswers device = DeviceTreeAnswers.on(dev, policy()).orElseThrow();
                int[] sources = GpuBench.sources(g, trees);
                List<DeviceTreeAnswers.Standing<SsspResult>> standing = new ArrayList<>();
                SsspResult[] host = new SsspResult[trees];
                for (int i = 0; i < trees; i++) {
                    SsspResult r = Sssp.run(dev, sources[i], null);
                    host[i] = r;
                    standing.add(device.open(new SsspResult(r.source(), r.distances().clone(), r.parents().clone(), r.timing())));
                }
                OnGraph on = new OnGraph(name, m, changed, dev, device, standing, host, sources);
                for (RandomEdits.Series s : series) {   // warm-up (the JIT, the launchers), checked like the rest
                    for (int k : new int[] {1, 10}) on.batch(s, k, random);
                }
                for (RandomEdits.Series s : series) {
                    for (int k : batches) {
                        List<double[]> ms = new ArrayList<>();
                        Map<TreeOutcome.How, Integer> hows = new EnumMap<>(TreeOutcome.How.class);
                        for (int r = 0; r < repeats; r++) ms.add(on.batch(s, k, random, hows));
                        Row row = new Row(name, s.label(), k, trees, ms.size(), median(ms, 0), median(ms, 1), median(ms, 2),
                                median(ms, 3), median(ms, 4), hows);
                        rows.add(row);
                        RepairBench.log("%s", rowText(row).trim());
                    }
                }
            }
        }
        return rows;
    }

    /** One graph's trees, on the device and on the host, and the batches applied to both copies. */
    private record OnGraph(String name, MutableGraph m, ChangeLog.Cursor changed, ResidentGraph dev, DeviceTreeAnswers device,
                           List<DeviceTreeAnswers.Standing<SsspResult>> standing, SsspResult[] host, int[] sources) {
        double[] batch(RandomEdits.Series series, int k, SplittableRandom random) {
            return batch(series, k, random, new EnumMap<>(TreeOutcome.How.class));
        }

        /** One batch: {sync, device, recompute, host ms, median changed vertices per tree}. */
        double[] batch(RandomEdits.Series series, int k, SplittableRandom random, Map<TreeOutcome.How, Integer> hows) {
            RandomEdits edits = new RandomEdits(m.current(), series, random);
            for (int i = 0; i < k; i++) {
                EdgeEdits e = edits.next();
                m.apply(e, 0, Long.MAX_VALUE);
                dev.mutable().apply(e, 0, Long.MAX_VALUE);
            }
            ChangedEdges changes = changed.read().edges();
            CsrGraph now = m.current();
            if (now.directed()) now.transpose();   // shared by the host repairs (cached per version), in no column
            long t0 = System.nanoTime();
            dev.sync();
            long t1 = System.nanoTime();
            List<DeviceTreeAnswers.Repaired<?>> rd = device.repairAll(standing, changes, Screen.of(dev.mutable(), changes));
            long t2 = System.nanoTime();
            SsspResult[] fresh = new SsspResult[sources.length];
            for (int i = 0; i < sources.length; i++) fresh[i] = Sssp.run(dev, sources[i], null);
            long t3 = System.nanoTime();
            TreeRepair.Repaired<SsspResult>[] rh = SsspRepair.repairAll(now, host, changes, Long.MAX_VALUE);
            long t4 = System.nanoTime();
            String where = name + ", a batch of " + k + " " + series.label() + ", " + sources.length + " trees";
            double[] changed = new double[sources.length];
            for (int i = 0; i < sources.length; i++) {
                host[i] = rh[i].result();
                SsspResult got = (SsspResult) rd.get(i).result();
                if (!Arrays.equals(got.distances(), fresh[i].distances())) {
                    throw new RepairBench.MismatchException("device-repaired distances differ from the GPU recompute, tree from "
                            + sources[i] + ", " + where);
                }
                if (!Arrays.equals(got.distances(), host[i].distances())) {
                    throw new RepairBench.MismatchException("device-repaired distances differ from the host repair, tree from "
                            + sources[i] + ", " + where);
                }
                if (i < VERIFIED) {
                    var v = SsspVerifier.verify(now, sources[i], got, fresh[i]);
                    if (!v.ok()) throw new RepairBench.MismatchException("device-repaired parents: " + v.message() + ", " + where);
                }
                changed[i] = rd.get(i).changed().length;
                hows.merge(rd.get(i).how(), 1, Integer::sum);
            }
            return new double[] {ms(t1 - t0), ms(t2 - t1), ms(t3 - t2), ms(t4 - t3), RepairBench.median(changed)};
        }
    }

    private static CsrGraph copy(CsrGraph g) {
        return new MutableGraph(g).snapshot();
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static double median(List<double[]> ms, int column) {
        return RepairBench.median(ms.stream().mapToDouble(x -> x[column]).toArray());
    }

    static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("**Standing trees on the device** (SSSP; a batch: k single-edge updates applied to the host graph and to the"
                + " GPU-resident copy; GPU sync: the device copy catching up, in no other column; device repair: every tree"
                + " repaired on the device and only its DELTA copied back (DeviceTreeAnswers.repairAll, wall time); GPU recompute:"
                + " Sssp.run for every tree (wall time, answers copied back); host repair: SsspRepair.repairAll without budget on"
                + " the common pool; speed-ups: that column / device repair; changed: vertices per tree, median; how: trees"
                + " repaired / recomputed on the device / screened out / left to the host, over the batches):\n\n");
        b.append("| graph | updates | batch | trees | GPU sync ms | device repair ms | GPU recompute ms | host repair ms"
                + " | vs GPU recompute | vs host repair | changed | how (rep/rec/untouched/host) |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) b.append(rowText(r));
        return b.toString();
    }

    static String rowText(Row r) {
        Map<TreeOutcome.How, Integer> h = r.hows();
        return String.format(Locale.ROOT, "| %s | %s | %,d | %d | %.2f | %.3f | %.2f | %.2f | %s | %s | %,.0f | %d/%d/%d/%d |%n",
                r.graph(), r.series(), r.batch(), r.trees(), r.syncMs(), r.deviceMs(), r.recomputeMs(), r.hostMs(),
                times(r.recomputeMs() / r.deviceMs()), times(r.hostMs() / r.deviceMs()), r.changedMedian(),
                h.getOrDefault(TreeOutcome.How.REPAIRED, 0), h.getOrDefault(TreeOutcome.How.RECOMPUTED, 0),
                h.getOrDefault(TreeOutcome.How.UNTOUCHED, 0), h.getOrDefault(TreeOutcome.How.HOST, 0));
    }

    private static String times(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) return "";
        return x >= 10 ? String.format(Locale.ROOT, "%,.0fx", x) : String.format(Locale.ROOT, "%.2fx", x);
    }
}
