package org.frontiergraph.bench.repro;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.generate.seeds.Counterexample;
import org.frontiergraph.kernels.gpu.CudaContext;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.gpu.Variant;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.HarishSssp;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * 003 §4.3: 004's two-kernel SSSP as published (plain read-compare-write on U_a, no atomics) on 003's counterexample
 * (n = 1024, from vertex 0; the right c[n-1] is 2), run many times: how often the answer is wrong and which values
 * c[n-1] takes; the atomicMin form ("harish") on the same graph for comparison (must always be right).
 * The racy form is reached through {@code HarishSssp.runPublishedRacy(int)} (looked up by reflection, so that the
 * harness builds whatever that class is called at the time).
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
        Method racy;
        try {
            racy = HarishSssp.class.getMethod("runPublishedRacy", int.class);
        } catch (NoSuchMethodException e) {
            r.note("race count: HarishSssp.runPublishedRacy(int) not present in this build; see the GPU test "
                    + "SeedVariantsGpuTest.publishedRacyFormOnTheCounterexample for the rate it prints");
            return;
        }
        r.md.append("| graph | runs | racy form wrong | share | values of c[n-1] seen (count) | atomicMin form wrong |\n"
                + "|---|---|---|---|---|---|\n");
        double[] right = Counterexample.distancesFromZero(n);
        CudaContext context = gpu.context();
        for (boolean directed : new boolean[] {true, false}) {
            CsrGraph g = GraphBuilder.build(Counterexample.generate(n, directed));
            int[] wrong = new int[2];
            Map<Double, Integer> values = new TreeMap<>();
            RuntimeException[] failure = new RuntimeException[1];
            context.run(() -> {
                AtomicLong ledger = new AtomicLong();
                try (DeviceCsr csr = new DeviceCsr(context, ledger, g)) {
                    HarishSssp harish = new HarishSssp(context, ledger, g, csr);
                    try {
                        for (int i = 0; i < runs; i++) {
                            SsspResult x = (SsspResult) racy.invoke(harish, 0);
                            if (!Arrays.equals(right, x.distances())) wrong[0]++;
                            values.merge(x.distances()[n - 1], 1, Integer::sum);
                            SsspResult fixed = harish.run(0, new Variant("harish", Map.of()));
                            if (!Arrays.equals(right, fixed.distances())) wrong[1]++;
                        }
                    } finally {
                        harish.close();
                    }
                } catch (IllegalAccessException | InvocationTargetException e) {
                    failure[0] = new IllegalStateException("runPublishedRacy failed", e);
                } catch (RuntimeException e) {
                    failure[0] = e;
                }
            });
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
