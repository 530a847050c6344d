package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.apsp.Apsp;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.ApspVerifier;
import org.frontiergraph.kernels.apsp.CpuApsp;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.seeds.GtGraphRandom;
import org.frontiergraph.kernels.generate.seeds.HarishRandom;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.mst.CpuPrim;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPU Prim of paper 000 (prim-gmr, prim-naive) against Kruskal's forest, and GPU APSP of paper 004 (floyd-warshall,
 * its blocked option, repeated-sssp) through {@link ApspVerifier}; prints timings (paper 000's table: GTgraph
 * 2^7..2^14 vertices, prim-gmr vs prim-naive vs CPU Prim). Skipped where no GPU is present.
 */
@Tag("gpu")
class PrimApspGpuTest extends GpuTests {
    private static final String[] PRIM = {"prim-gmr", "prim-naive"};
    private static final String[] APSP = {"floyd-warshall", "floyd-warshall,blocked=1", "repeated-sssp"};

    private static void assertPrim(String name, CsrGraph g) {
        MstResult reference = KruskalReference.run(g);
        try (ResidentGraph r = gpu.load(g)) {
            for (String variant : PRIM) {
                MstResult m = Mst.run(r, variant);
                Verification v = MstVerifier.verify(g, m, reference);
                assertTrue(v.ok(), () -> name + ", " + variant + ": " + v.message());
                assertArrayEquals(reference.edgeIds(), m.edgeIds(), name + ", " + variant);
                assertEquals(reference.components(), m.components(), name + ", " + variant);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void primTinyGraphs(Fixture f) {
        assertPrim(f.name(), f.graph());
    }

    @Test
    void primRandomAndDisconnectedGraphs() {
        assertPrim("G(5000, 3000) disconnected", GraphBuilder.build(GtGraphRandom.generate(5_000, 3_000, 21, false)));
        Fixture frac = TestGraphs.random().filter(f -> f.name().contains("fractional")).findFirst().orElseThrow();
        assertPrim(frac.name(), frac.graph());
        Fixture dense = TestGraphs.random(3_000, 30_000, 1, 10, false);
        assertPrim(dense.name(), dense.graph());
    }

    /** 000's experiment: GTgraph random, 2^7..2^14 vertices, twice as many edges, weights 1..1000. */
    @Test
    void primOnGtGraphsWithTimings() {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "%n[prim] %7s %7s | %12s %12s | %12s %12s | %10s %10s%n", "n", "m",
                "gmr dev ms", "gmr wall ms", "naive dev ms", "naive wall", "cpu prim", "kruskal"));
        for (int log = 7; log <= 14; log++) {
            int n = 1 << log;
            CsrGraph g = GraphBuilder.build(GtGraphRandom.generate(n, 2L * n, log));
            MstResult reference = KruskalReference.run(g);
            double[] dev = new double[2], wall = new double[2];
            try (ResidentGraph r = gpu.load(g)) {
                for (int i = 0; i < 2; i++) {
                    dev[i] = wall[i] = Double.MAX_VALUE;
                    for (int rep = 0; rep < 3; rep++) {
                        long t0 = System.nanoTime();
                        MstResult m = Mst.run(r, PRIM[i]);
                        double w = (System.nanoTime() - t0) / 1e6;
                        assertArrayEquals(reference.edgeIds(), m.edgeIds(), "n=" + n + ", " + PRIM[i]);
                        dev[i] = Math.min(dev[i], m.timing().computeNanos() / 1e6);
                        wall[i] = Math.min(wall[i], w);
                    }
                }
            }
            double cpu = best(() -> CpuPrim.run(g), reference);
            double kruskal = best(() -> KruskalReference.run(g), reference);
            table.append(String.format(Locale.ROOT, "[prim] %7d %7d | %12.3f %12.3f | %12.3f %12.3f | %10.3f %10.3f%n",
                    n, g.undirectedEdges().size(), dev[0], wall[0], dev[1], wall[1], cpu, kruskal));
        }
        System.out.println(table);
    }

    private static double best(Supplier<MstResult> run, MstResult reference) {
        double best = Double.MAX_VALUE;
        for (int rep = 0; rep < 5; rep++) {
            long t0 = System.nanoTime();
            MstResult m = run.get();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6);
            assertArrayEquals(reference.edgeIds(), m.edgeIds());
        }
        return best;
    }

    @Test
    void primOnRoadGraphs() {
        for (String name : new String[] {Datasets.ROME, Datasets.NY}) {
            Optional<CsrGraph> g = TestGraphs.real(name);
            if (g.isEmpty()) {
                System.out.println("[prim] " + name + " not found: skipped");
                continue;
            }
            MstResult reference = KruskalReference.run(g.get());
            long c0 = System.nanoTime();
            CpuPrim.run(g.get());
            double cpu = (System.nanoTime() - c0) / 1e6;
            try (ResidentGraph r = gpu.load(g.get())) {
                for (String variant : PRIM) {
                    long t0 = System.nanoTime();
                    MstResult m = Mst.run(r, variant);
                    double w = (System.nanoTime() - t0) / 1e6;
                    Verification v = MstVerifier.verify(g.get(), m, reference);
                    assertTrue(v.ok(), () -> name + ", " + variant + ": " + v.message());
                    System.out.printf(Locale.ROOT, "[prim] %s n=%d %s: device %.1f ms, wall %.1f ms (cpu prim %.1f ms)%n",
                            name, g.get().vertexCount(), variant, m.timing().computeNanos() / 1e6, w, cpu);
                }
            }
        }
    }

    private static void assertApsp(String name, CsrGraph g, boolean compareCpu) {
        List<ApspResult> results = new ArrayList<>();
        try (ResidentGraph r = gpu.load(g)) {
            for (String variant : APSP) {
                long t0 = System.nanoTime();
                ApspResult a = Apsp.run(r, variant, ApspLimits.defaults());
                double w = (System.nanoTime() - t0) / 1e6;
                System.out.printf(Locale.ROOT, "[apsp] %s n=%d arcs=%d %s: device %.1f ms, wall %.1f ms%n", name,
                        g.vertexCount(), g.arcCount(), variant, a.timing().computeNanos() / 1e6, w);
                Verification v = ApspVerifier.verify(g, a);
                assertTrue(v.ok(), () -> name + ", " + variant + ": " + v.message());
                results.add(a);
            }
        }
        if (g.integralWeights()) {
            for (int i = 1; i < results.size(); i++) {
                assertArrayEquals(results.get(0).distances(), results.get(i).distances(), name + ", " + APSP[i]);
            }
            if (compareCpu) {
                assertArrayEquals(CpuApsp.run(g, null).distances(), results.get(0).distances(), name + " vs CPU");
            }
        }
    }

    @Test
    void apspOnSeededRandomGraphs() {
        assertApsp("gtgraph n=512", GraphBuilder.build(GtGraphRandom.generate(512, 1024, 5)), true);
        assertApsp("harish-random n=1000", GraphBuilder.build(HarishRandom.generate(1_000, 6)), true);
        Fixture directed = TestGraphs.random(2_000, 2_500, 1, 100, true);
        assertApsp(directed.name(), directed.graph(), false);
        Fixture dense = TestGraphs.random(3_000, 30_000, 2, 10, false);
        assertApsp(dense.name(), dense.graph(), false);
        Fixture frac = TestGraphs.random().filter(f -> f.name().contains("fractional")).findFirst().orElseThrow();
        // 5,000 vertices, fractional weights: doubles on the device
        assertApsp(frac.name(), frac.graph(), false);
    }

    @Test
    void apspOnRome99() {
        Optional<CsrGraph> g = TestGraphs.real(Datasets.ROME);
        assumeTrue(g.isPresent(), Datasets.ROME + " not found");
        assertApsp(Datasets.ROME, g.get(), false);
    }
}
