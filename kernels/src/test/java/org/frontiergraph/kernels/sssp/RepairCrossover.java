package org.frontiergraph.kernels.sssp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.CpuBfs;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.standing.BfsRepair;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeRepair;

/**
 * Where repairing stops paying: times unbudgeted repairs of growing effect against recomputing from scratch on the
 * CPU, which sets {@link SsspRepair#BUDGET_PER_ARC} and {@link BfsRepair#BUDGET_PER_ARC}. Each sample breaks one tree
 * arc (p, v), SSSP by raising its weight, BFS by removing it, so that v's whole subtree is invalidated and re-settled,
 * then mends it (the weight back, the arc back), a repair by seeds. v is an ancestor of a random vertex at a random
 * fraction of its depth, so subtrees of every scale come up. Reported per bin of work (vertices touched plus arcs
 * scanned, as a fraction of the arcs): the median repair time over the median recompute time; and the work per arc at
 * which a least-squares line through the samples crosses the recompute time.
 *
 * <p>Two runs on the 2-core development machine shared with other work (load 3 to 7; times roughly doubled in the
 * second), median repair time over recompute time per bin of work per arc:
 * <pre>
 *                 recompute      0.1-0.2      0.3-0.5      0.5-1        1-2
 *   NY SSSP       52 / 118 ms    0.12 / 0.10  0.24 / 0.21  0.32 / 0.28  1.15 / 1.02
 *   NY BFS        13 / 25 ms     0.37 / 0.24  0.80 / 0.54  1.92 / 1.30  3.29 / 2.34
 *   random SSSP   104 / 138 ms   0.21 / 0.25  0.56 / 0.57  0.95 / 1.05  -
 *   random BFS    11 / 39 ms     1.36 / 0.42  2.94 / 0.80  4.52 / 1.22  -
 * </pre>
 * Hence SSSP's budget of 1 work per arc and BFS's of 0.25 (direction-optimizing BFS recomputes a low-diameter graph
 * fast when it has the cores). The standing-query case, one random NY arc re-weighted x 0.5 to 2 at a time and
 * repaired for 10 sources (10,000 repairs): median 1.4 us, 99th percentile 2.0 ms, mean work 1,077 (of 994,446 for
 * n + m), 2 gave up; on the random graph median 0.7 us, 99th percentile 45 us.
 *
 * <p>Run after {@code mvn -o -q -pl schemas,kernels test-compile}:
 * {@code java -cp kernels/target/classes:kernels/target/test-classes org.frontiergraph.kernels.sssp.RepairCrossover}
 */
public final class RepairCrossover {
    private RepairCrossover() {}

    public static void main(String[] args) {
        List<TestGraphs.Fixture> graphs = new ArrayList<>();
        TestGraphs.real(Datasets.NY).ifPresent(g -> graphs.add(new TestGraphs.Fixture("USA-road-d.NY", g)));
        graphs.add(TestGraphs.random(200_000, 800_000, 3, 1000, false));
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        for (TestGraphs.Fixture f : graphs) {
            System.out.println("== " + f.name() + ": " + f.graph());
            typical(f.graph(), 1_000);
            measure("SSSP", f.graph(), samples, true);
            measure("BFS", f.graph(), samples, false);
        }
    }

    private static void measure(String what, CsrGraph original, int samples, boolean sssp) {
        CsrGraph start = UpdateStreams.rebuilt(original, original.vertexCount());   // the mutable graph changes it
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        int source = 0;
        long recompute = median(15, () -> sssp ? CpuSssp.run(g.current(), source).timing()
                : CpuBfs.run(g.current(), source).timing());
        Random rnd = new Random(7);
        Object[] answer = {sssp ? CpuSssp.run(start, source) : CpuBfs.run(start, source)};
        List<double[]> points = new ArrayList<>();   // (work, nanos)
        for (int i = 0; i < samples + 100; i++) {   // the first 100: warm-up
            int[] p = sssp ? ((SsspResult) answer[0]).parents() : ((BfsResult) answer[0]).parents();
            int v = ancestor(rnd, p, source);
            if (v < 0) continue;
            int u = p[v];
            CsrGraph now = g.current();
            double w = now.weights()[now.findArc(u, v)];
            for (int step = 0; step < 2; step++) {
                EdgeEdits e = sssp ? EdgeEdits.reweight(u, v, step == 0 ? w * 4 + 1000 : w)
                        : step == 0 ? EdgeEdits.remove(new int[] {u}, new int[] {v})
                        : EdgeEdits.add(new int[] {u}, new int[] {v}, new double[] {w});
                g.apply(e, 0, Long.MAX_VALUE);
                CsrGraph after = g.current();
                after.transpose();   // built once per graph version and shared by its queries: not the repair's cost
                Timing t;
                if (sssp) {
                    TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(after, (SsspResult) answer[0], seen.read().edges(),
                            Long.MAX_VALUE);
                    answer[0] = r.result();
                    t = r.result().timing();
                } else {
                    TreeRepair.Repaired<BfsResult> r = BfsRepair.repair(after, (BfsResult) answer[0], seen.read().edges(),
                            Long.MAX_VALUE);
                    answer[0] = r.result();
                    t = r.result().timing();
                }
                if (i >= 100) points.add(new double[] {t.counter("work"), t.computeNanos()});
            }
        }
        report(what, start, recompute, points);
    }

    /**
     * The standing-query case: one random arc re-weighted (x 0.5 to 2) at a time, repaired for 10 sources (default
     * budget); prints the repair time's median and 99th percentile, the mean work and the give-ups.
     */
    private static void typical(CsrGraph original, int updates) {
        CsrGraph start = UpdateStreams.rebuilt(original, original.vertexCount());
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        int[] sources = TestGraphs.sources(start, 10, 3);
        SsspResult[] answers = new SsspResult[sources.length];
        for (int k = 0; k < sources.length; k++) answers[k] = CpuSssp.run(start, sources[k]);
        Random rnd = new Random(11);
        long[] nanos = new long[updates * sources.length];
        long work = 0;
        int count = 0, gaveUp = 0;
        for (int i = 0; i < updates; i++) {
            int arc = rnd.nextInt(start.arcCount());
            double w = start.weights()[arc] * (0.5 + 1.5 * rnd.nextDouble());
            g.apply(EdgeEdits.reweight(start.sourceOf(arc), start.columns()[arc], w), 0, Long.MAX_VALUE);
            ChangedEdges changes = seen.read().edges();
            for (int k = 0; k < sources.length; k++) {
                TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(g.current(), answers[k], changes);
                if (r == null) {
                    gaveUp++;
                    answers[k] = CpuSssp.run(g.current(), sources[k]);
                    continue;
                }
                answers[k] = r.result();
                nanos[count++] = r.result().timing().computeNanos();
                work += r.result().timing().counter("work");
            }
        }
        long[] t = Arrays.copyOf(nanos, count);
        Arrays.sort(t);
        System.out.printf("SSSP, one random re-weight x %d sources, %d updates: repair median %.1f us, p99 %.1f us, "
                + "mean work %d, %d gave up%n", sources.length, updates, t[count / 2] / 1e3, t[count * 99 / 100] / 1e3,
                work / Math.max(1, count), gaveUp);
    }

    /** An ancestor of a random reachable vertex at a random fraction of its depth (never the source), or -1. */
    private static int ancestor(Random rnd, int[] parents, int source) {
        int v = rnd.nextInt(parents.length);
        if (parents[v] < 0 || v == source) return -1;
        int depth = 0;
        for (int x = v; x != source; x = parents[x]) depth++;
        int up = (int) (depth * Math.pow(rnd.nextDouble(), 0.5));   // leaning towards the source: big subtrees
        for (int k = 0; k < up && parents[v] != source; k++) v = parents[v];
        return v;
    }

    private static long median(int runs, Supplier<Timing> run) {
        long[] t = new long[runs];
        for (int i = 0; i < 5; i++) run.get();
        for (int i = 0; i < runs; i++) t[i] = run.get().computeNanos();
        Arrays.sort(t);
        return t[runs / 2];
    }

    private static void report(String what, CsrGraph g, long recompute, List<double[]> points) {
        long arcs = g.arcCount();
        System.out.printf("%s: recompute %.2f ms (median); %d repairs%n", what, recompute / 1e6, points.size());
        double[] edges = {0, 1e-4, 1e-3, 1e-2, 0.03, 0.1, 0.2, 0.3, 0.5, 1, 2, 4};
        for (int b = 0; b + 1 < edges.length; b++) {
            List<Double> times = new ArrayList<>();
            for (double[] p : points) if (p[0] / arcs >= edges[b] && p[0] / arcs < edges[b + 1]) times.add(p[1]);
            if (times.isEmpty()) continue;
            times.sort(null);
            System.out.printf("  work/arcs in [%g, %g): %4d repairs, median %.3f ms = %.2f x recompute%n",
                    edges[b], edges[b + 1], times.size(), times.get(times.size() / 2) / 1e6,
                    times.get(times.size() / 2) / recompute);
        }
        double sx = 0, sy = 0, sxx = 0, sxy = 0;   // least squares: nanos = a + c * work
        int k = 0;
        for (double[] p : points) {
            if (p[0] < 0.001 * arcs) continue;   // small repairs are all overhead
            sx += p[0]; sy += p[1]; sxx += p[0] * p[0]; sxy += p[0] * p[1];
            k++;
        }
        double c = (k * sxy - sx * sy) / (k * sxx - sx * sx), a = (sy - c * sx) / k;
        System.out.printf("  fit over %d repairs: %.1f ns per unit of work + %.3f ms; crossover at work/arcs = %.2f%n",
                k, c, a / 1e6, (recompute - a) / c / arcs);
    }
}
