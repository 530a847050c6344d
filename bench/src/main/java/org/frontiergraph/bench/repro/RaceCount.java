package org.frontiergraph.bench.repro;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.generate.seeds.Counterexample;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.HarishSssp;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * 003 §4.3: 004's two-kernel SSSP as published (plain read-compare-write on U_a, no atomics) on 003's counterexample
 * (n = 1024, from vertex 0; the right c[n-1] is 2), run many times: how often the answer is wrong and which values
 * c[n-1] takes; the atomicMin form ("harish") on the same graph for comparison (must always be right).
 * The racy form is {@link HarishSssp#PUBLISHED_RACY}, an algorithm spec of its own that queries cannot reach.
 */
final class RaceCount {
    private RaceCount() {}

    static void run(Repro r, GpuBackend gpu) {
        int runs = r.quick ? 200 : 2000;
        int n = Counterexample.VERTICES;
        Repro.Csv csv = r.csv("race_counterexample", "directed", "wrong_runs");
        r.md.append("\n### §4.3: the race of 004's published SSSP on 003's counterexample (n = 1024, source 0)\n\n");
        if (gpu == null) {
            r.note("race count: no GPU");
            return;
        }
        r.md.append("| graph | runs | racy form wrong | share | values of c[n-1] seen (count) | atomicMin form wrong |\n"
                + "|---|---|---|---|---|---|\n");
        double[] right = Counterexample.distancesFromZero(n);
        for (boolean directed : new boolean[] {true, false}) {
            CsrGraph g = GraphBuilder.build(Counterexample.generate(n, directed));
            int[] wrong = new int[2];
            Map<Double, Integer> values = new TreeMap<>();
            RuntimeException[] failure = new RuntimeException[1];
            try (ResidentGraph dev = gpu.load(g)) {
                for (int i = 0; i < runs; i++) {
                    SsspResult x = dev.run(HarishSssp.PUBLISHED_RACY, new Source(0), null);
                    if (!Arrays.equals(right, x.distances())) wrong[0]++;
                    values.merge(x.distances()[n - 1], 1, Integer::sum);
                    SsspResult fixed = Sssp.run(dev, 0, "harish");
                    if (!Arrays.equals(right, fixed.distances())) wrong[1]++;
                }
            } catch (RuntimeException e) {
                failure[0] = e;
            }
            if (failure[0] != null) {
                r.note("race count (" + (directed ? "directed" : "undirected") + "): " + Repro.oneLine(failure[0])
                        + (failure[0].getCause() != null ? " / " + Repro.oneLine(failure[0].getCause()) : ""));
                continue;
            }
            csv.row(directed ? 1 : 0, "racy wrong", wrong[0], runs + " runs");
            csv.row(directed ? 1 : 0, "atomicMin wrong", wrong[1], runs + " runs");
            StringBuilder seen = new StringBuilder();
            values.forEach((v, c) -> seen.append(seen.length() == 0 ? "" : ", ").append(Repro.fmt(v)).append(" (")
                    .append(c).append(')'));
            r.md.append(String.format(java.util.Locale.ROOT, "| %s | %d | %d | %.1f%% | %s | %d |%n",
                    directed ? "directed" : "undirected", runs, wrong[0], 100.0 * wrong[0] / runs, seen, wrong[1]));
            if (wrong[1] != 0) {
                throw new Repro.WrongAnswer("the atomicMin form of 004's SSSP was wrong in " + wrong[1] + " of " + runs
                        + " runs on the counterexample");
            }
        }
    }
}
