package org.frontiergraph.kernels.cc;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.io.Datasets;

/**
 * Single-edge batches on USA-road-d.NY (or another dataset) repaired by {@link CcRepair} against {@link CpuCc} recomputing the same
 * graph (docs/benchmarks.md, "Connected components"): removals of random roads (both arcs), additions between random
 * vertices,
 * each batch checked against the recompute at the end. Not a test (surefire runs *Test only):
 * {@code java -cp ... org.frontiergraph.kernels.cc.CcRepairBench [batches [dataset file]]}.
 */
public final class CcRepairBench {
    public static void main(String[] args) {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        String file = args.length > 1 ? args[1] : Datasets.NY;
        Optional<CsrGraph> graph = TestGraphs.real(file);
        if (graph.isEmpty()) {
            System.out.println(file + " not present (../shared/datasets)");
            return;
        }
        MutableGraph g = new MutableGraph(graph.get());
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        CcResult answer = CpuCc.run(g.current());
        Random rnd = new Random(7);
        long[] kept = new long[batches], moved = new long[batches];
        int k = 0, m = 0, refused = 0;
        for (int i = 0; i < batches; i++) {
            CsrGraph before = g.current();
            EdgeEdits e;
            if (rnd.nextBoolean()) {
                int arc = rnd.nextInt(before.arcCount());   // both arcs of a road, when it has both: a real cut
                int u = before.sourceOf(arc), v = before.columns()[arc];
                e = before.findArc(v, u) >= 0 ? EdgeEdits.remove(new int[] {u, v}, new int[] {v, u})
                        : EdgeEdits.remove(new int[] {u}, new int[] {v});
            } else {
                e = EdgeEdits.add(new int[] {rnd.nextInt(before.vertexCount())},
                        new int[] {rnd.nextInt(before.vertexCount())}, new double[] {1});
            }
            try {
                g.apply(e, 0, Long.MAX_VALUE);
            } catch (RuntimeException invalid) {
                continue;
            }
            CsrGraph now = g.current();
            ChangedEdges c = seen.read().edges();
            long t0 = System.nanoTime();
            CcRepair.Repaired r = CcRepair.repair(now, answer, c);
            long t = System.nanoTime() - t0;
            if (r == null) {   // past the budget: the caller recomputes
                refused++;
                answer = CpuCc.run(now);
                continue;
            }
            if (r.unchanged()) {
                kept[k++] = t;
            } else {
                moved[m++] = t;
                if (m == 1) {   // the same repair again (it is a pure function): its cost with a warm JIT
                    long[] again = new long[31];
                    for (int j = 0; j < again.length; j++) {
                        long t1 = System.nanoTime();
                        CcRepair.repair(now, answer, c);
                        again[j] = System.nanoTime() - t1;
                    }
                    System.out.println("a batch that moves vertices (" + r.result().timing().counters() + "), repeated "
                            + again.length + " times: " + stats(again));
                }
            }
            answer = r.result();
        }
        CsrGraph now = g.current();
        long[] recompute = new long[9];
        CcResult fresh = null;
        for (int i = 0; i < recompute.length; i++) {
            long t0 = System.nanoTime();
            fresh = CpuCc.run(now);
            recompute[i] = System.nanoTime() - t0;
        }
        if (!Arrays.equals(fresh.labels(), answer.labels())) throw new IllegalStateException("repaired labels differ");
        long[] all = new long[k + m];
        System.arraycopy(kept, 0, all, 0, k);
        System.arraycopy(moved, 0, all, k, m);
        System.out.printf(Locale.ROOT, file + ", %d single-edge batches: all %s; labels unchanged (%d) %s; components moved"
                + " (%d) %s; gave up (%d); CpuCc recompute median %.3f ms (%d cores)%n", k + m, stats(all), k,
                stats(Arrays.copyOf(kept, k)), m, stats(Arrays.copyOf(moved, m)), refused, median(recompute) / 1e6,
                Runtime.getRuntime().availableProcessors());
    }

    private static String stats(long[] xs) {
        if (xs.length == 0) return "-";
        Arrays.sort(xs);
        return String.format(Locale.ROOT, "median %.3f ms, p90 %.3f ms, max %.3f ms", median(xs) / 1e6,
                xs[(int) (xs.length * 0.9)] / 1e6, xs[xs.length - 1] / 1e6);
    }

    private static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private CcRepairBench() {}
}
