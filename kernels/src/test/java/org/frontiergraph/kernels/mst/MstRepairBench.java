package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.io.Datasets;

/**
 * Where repairing stops paying (the constants of {@link MstRepair}): repairs of runs of k updates against CpuMst's
 * recompute, on USA-road-d.NY and a uniform random graph. Not a test; run by hand after {@code mvn test-compile}:
 * {@code java -cp kernels/target/classes:kernels/target/test-classes org.frontiergraph.kernels.mst.MstRepairBench}.
 */
public final class MstRepairBench {
    private MstRepairBench() {}

    public static void main(String[] args) {
        TestGraphs.real(Datasets.NY).ifPresent(g -> bench("NY", g));
        bench("uniform n=100K m=1M",
                GraphBuilder.build(UniformRandomGraph.generate(100_000, 1_000_000, 3, 1000, false)));
    }

    private static void bench(String name, CsrGraph start) {
        long recompute = Long.MAX_VALUE;
        for (int i = 0; i < 7; i++) {
            long t = System.nanoTime();
            CpuMst.run(start);
            recompute = Math.min(recompute, System.nanoTime() - t);
        }
        System.out.printf("%s: n=%d arcs=%d, CpuMst %.1f ms (best of 7)%n", name, start.vertexCount(), start.arcCount(),
                recompute / 1e6);
        runs(start, 1, 1, new long[30], new long[30]);   // warm-up
        // single edits by kind: 0 forest lighter, 1 forest heavier, 3 forest removed, 4 any re-weight, 6 edge added
        String[] kinds = {"forest lighter", "forest heavier", "", "forest removed", "any re-weight", "", "edge added"};
        for (int kind : new int[] {0, 1, 4, 3, 6}) {
            long[] ns = new long[40], work = new long[40];
            runs(start, kind, 1, ns, work);
            System.out.printf("  single %-15s repair median %.3f ms, max %.3f ms; work median %d, max %d%n",
                    kinds[kind], median(ns) / 1e6, Arrays.stream(ns).max().getAsLong() / 1e6, median(work),
                    Arrays.stream(work).max().getAsLong());
        }
        double perArc = (double) recompute / start.arcCount();
        for (int k : new int[] {10, 100, 1000, 3000, 10000}) {
            for (int kind : new int[] {4, 1}) {
                long[] ns = new long[5], work = new long[5];
                runs(start, kind, k, ns, work);
                double perUnit = (double) Arrays.stream(ns).sum() / Arrays.stream(work).sum();
                System.out.printf("  %5d x %-15s repair %7.2f ms (recompute %.1f), work/arc %6.2f, %5.1f ns/unit:"
                                + " break-even at %.1f units/arc%n", k, kinds[kind], median(ns) / 1e6, recompute / 1e6,
                        median(work) / (double) start.arcCount(), perUnit, perArc / perUnit);
            }
        }
    }

    /**
     * Repairs ns.length runs of k updates of one kind, unbudgeted, recording time and work. The forest's pairs are
     * followed as a consumer would, from the removed and added lists.
     */
    private static void runs(CsrGraph start, int kind, int k, long[] ns, long[] work) {
        Random rnd = new Random(kind * 1000L + k);
        MutableGraph g = new MutableGraph(UpdateStreams.rebuilt(start, start.vertexCount()));
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        CsrGraph now = g.current();
        MstResult r = CpuMst.run(now);
        MstRepair forest = new MstRepair(now, r, false);
        Map<Long, Double> pairs = MstRepairTest.pairs(now, r);
        for (int run = 0; run < ns.length; run++) {
            for (int i = 0; i < k; i++) {
                try {
                    g.apply(update(rnd, now, pairs, kind), 0, Long.MAX_VALUE);
                } catch (InvalidGraphException gone) {
                    // an edge an earlier update removed
                }
            }
            now = g.current();
            now.undirectedEdges();   // caches of a merged version, built by its first reader: not the repair's cost
            now.transpose();
            System.gc();
            MstRepair.Repaired x = forest.repair(now, seen.read().edges());
            ns[run] = x.result().timing().computeNanos();
            work[run] = x.result().timing().counter("work");
            for (int i = 0; i < x.removedU().length; i++) {
                pairs.remove(MstRepairTest.key(x.removedU()[i], x.removedV()[i]));
            }
            UndirectedEdges e = now.undirectedEdges();
            for (int id : x.addedEdgeIds()) pairs.put(MstRepairTest.key(e.u[id], e.v[id]), e.w[id]);
        }
    }

    private static EdgeEdits update(Random rnd, CsrGraph g, Map<Long, Double> pairs, int kind) {
        if (kind == 4) {
            int[] arc = UpdateStreams.randomArc(rnd, g);
            return EdgeEdits.reweight(arc[0], arc[1], rnd.nextInt(1000));
        }
        if (kind == 6) {
            int n = g.vertexCount();
            return EdgeEdits.add(new int[] {rnd.nextInt(n)}, new int[] {rnd.nextInt(n)},
                    new double[] {rnd.nextInt(1000)});
        }
        int a, b;
        Double w;
        do {   // a random arc until it is a forest edge's
            int[] arc = UpdateStreams.randomArc(rnd, g);
            a = arc[0];
            b = arc[1];
            w = pairs.get(MstRepairTest.key(a, b));
        } while (w == null);
        if (kind == 3) {
            return g.directed() && g.findArc(b, a) >= 0 ? EdgeEdits.remove(new int[] {a, b}, new int[] {b, a})
                    : EdgeEdits.remove(new int[] {a}, new int[] {b});
        }
        if (kind == 1 && g.directed() && g.findArc(b, a) >= 0) {   // both arcs, or the edge keeps the other's weight
            return EdgeEdits.reweight(new int[] {a, b}, new int[] {b, a}, new double[] {w * 2 + 10, w * 2 + 10});
        }
        return EdgeEdits.reweight(a, b, kind == 0 ? Math.floor(w / 2) : w * 2 + 10);
    }

    private static long median(long[] x) {
        long[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
