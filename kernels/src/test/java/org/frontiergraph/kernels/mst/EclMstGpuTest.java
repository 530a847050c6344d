package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code ecl} GPU MST variant ({@link EclMst}, mst_ecl.cu) against {@link KruskalReference} and {@link CpuMst},
 * edge for edge, with {@link MstVerifier}: the contract's graphs, fractional weights, heavy ties, a disconnected
 * graph, larger generated graphs and the shared datasets, each under several filter thresholds (none, a tiny light
 * set, the default, a large one) and grid sizes, so both phases and the phase hand-over run on every graph. The
 * counter-slot mirror and the threshold sampling are checked without a GPU; the rest skips where none is present.
 */
@Tag("gpu")
class EclMstGpuTest {
    /** Default rule; no filter; almost every edge heavy; a small and a large light set; small cooperative grids. */
    private static final String[] VARIANTS = {"ecl", "ecl,light=0", "ecl,light=1", "ecl,light=40", "ecl,light=400",
        "ecl,bps=1", "ecl,light=150,bps=2"};
    private static GpuBackend gpu;

    /** The GPU backend, opened on first use; skips the calling test where there is none. */
    private static GpuBackend gpu() {
        if (gpu == null) gpu = GpuOrSkip.open();
        return gpu;
    }

    @AfterAll
    static void close() {
        if (gpu != null) gpu.close();
    }

    /** Every variant of {@link #VARIANTS} on {@code g}: the reference's forest exactly. */
    private static void check(String name, CsrGraph g) {
        MstResult expected = TestGraphs.mstReference(g);
        MstResult cpu = CpuMst.run(g);
        assertArrayEquals(expected.edgeIds(), cpu.edgeIds(), name + ": CpuMst and KruskalReference disagree");
        try (ResidentGraph dev = gpu().load(g)) {
            for (String variant : VARIANTS) {
                String what = name + " [" + variant + "]";
                MstResult r = Mst.run(dev, variant);
                Verification v = MstVerifier.verify(g, r, expected);
                assertTrue(v.ok(), () -> what + ": " + v.message());
                assertArrayEquals(expected.edgeIds(), r.edgeIds(), what + ": edge ids");
                assertEquals(expected.totalWeight(), r.totalWeight(), what + ": total weight");
                assertEquals(expected.components(), r.components(), what + ": components");
                assertEquals(cpu.totalWeight(), r.totalWeight(), what + ": total weight vs CpuMst");
                assertEquals(cpu.components(), r.components(), what + ": components vs CpuMst");
                Map<String, Long> c = r.timing().counters();
                assertEquals(c.get("lightRounds") + c.get("heavyRounds"), c.get("rounds"), what + ": rounds");
                assertTrue(c.get("lightEntries") + c.get("heavyEntries") <= g.undirectedEdges().size(), what);
            }
        }
    }

    // ---------------------------------------------------------------- without a GPU

    @Test
    void counterSlotsMirrorTheKernelEnums() {
        Map<String, Integer> slots = CudaCounters.slots("mst_ecl.cu", "EclCounter");
        assertEquals(EclMst.LIST_COUNT, slots.get("ECL_LIST_COUNT"));
        assertEquals(EclMst.LIST_COUNT + EclMst.COUNT_SLOTS, slots.get("ECL_LIGHT_ENTRIES"),
                "the list and root counts of both parities precede the other slots");
        assertEquals(EclMst.LIGHT_ENTRIES, slots.get("ECL_LIGHT_ENTRIES"));
        assertEquals(EclMst.HEAVY_ENTRIES, slots.get("ECL_HEAVY_ENTRIES"));
        assertEquals(EclMst.LIGHT_ROUNDS, slots.get("ECL_LIGHT_ROUNDS"));
        assertEquals(EclMst.HEAVY_ROUNDS, slots.get("ECL_HEAVY_ROUNDS"));
        assertEquals(EclMst.ENTRY_VISITS, slots.get("ECL_ENTRY_VISITS"));
        assertEquals(EclMst.COUNTERS, slots.get("ECL_COUNTERS"));
        slots.forEach((name, slot) -> assertTrue(slot <= EclMst.COUNTERS, name + " = " + slot));
        // the kernel indexes ENTRIES and ROUNDS by its phase argument
        assertEquals(EclMst.LIGHT_ENTRIES + 1, EclMst.HEAVY_ENTRIES);
        assertEquals(EclMst.LIGHT_ROUNDS + 1, EclMst.HEAVY_ROUNDS);
        Map<String, Integer> phases = CudaCounters.slots("mst_ecl.cu", "EclPhase");
        assertEquals(EclMst.PHASE_LIGHT, phases.get("ECL_PHASE_LIGHT"));
        assertEquals(EclMst.PHASE_HEAVY, phases.get("ECL_PHASE_HEAVY"));
    }

    @Test
    void thresholdIsTheSampledQuantileOfTheKeys() {
        for (int weights : new int[] {1, 3, 255, 1 << 30}) {  // 1: every weight ties, so the id decides
            int m = 1_000_000, n = 100_000;
            SplittableRandom r = new SplittableRandom(weights);
            int[] packed = new int[4 * m];
            for (int i = 0; i < m; i++) {
                packed[4 * i + 2] = 1 + r.nextInt(weights);
                packed[4 * i + 3] = i;
            }
            long[] samples = EclMst.sampleKeys(new int[][] {packed}, m);
            assertEquals(EclMst.SAMPLES, samples.length);
            long t = EclMst.threshold(samples, n, m, EclMst.DEFAULT_LIGHT_PERCENT);
            long light = 0;
            for (int i = 0; i < m; i++) if ((((long) packed[4 * i + 2] << 32) | i) <= t) light++;
            long target = (long) n * EclMst.DEFAULT_LIGHT_PERCENT / 100;
            assertTrue(Math.abs(light - target) < target / 5, "weights 1.." + weights + ": " + light
                    + " light edges for a target of " + target);
        }
        long[] samples = EclMst.sampleKeys(new int[][] {{0, 1, 7, 0, 1, 2, 7, 1}}, 2);
        assertArrayEquals(new long[] {(7L << 32), (7L << 32) | 1}, samples);
        assertEquals(EclMst.NO_FILTER, EclMst.threshold(samples, 10, 2, 0), "light=0: no filter");
        assertEquals(EclMst.NO_FILTER, EclMst.threshold(samples, 10, 2, 150), "target above m: no filter");
        assertEquals(EclMst.NO_FILTER, EclMst.threshold(new long[0], 10, 0, 150), "no edges");
    }

    // ---------------------------------------------------------------- on the GPU

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void tinyGraphs(Fixture f) {
        check(f.name(), f.graph());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#random")
    void seededRandomGraphs(Fixture f) {
        check(f.name(), f.graph());
    }

    @Test
    void kroneckerGraph() {
        Fixture f = TestGraphs.kronecker();
        check(f.name(), f.graph());
    }

    /** Many tiles per block in the filters and many blocks per round: Kronecker scale 16, uniform 2^17 x 16. */
    @Test
    void largerGeneratedGraphs() {
        check("kronecker scale=16 edgeFactor=16 seed=77", GraphBuilder.build(KroneckerGraph.generate(16, 16, 77)));
        check("uniform n=131072 m=2097152 w<=255 seed=78",
                GraphBuilder.build(UniformRandomGraph.generate(1 << 17, 1 << 21, 78, 255, false)));
        check("uniform directed n=65536 m=1048576 w<=1000 seed=79",
                GraphBuilder.build(UniformRandomGraph.generate(1 << 16, 1 << 20, 79, 1000, true)));
    }

    /** Weights that are not integers (keys are their ranks among the distinct weights), with repeats. */
    @Test
    void fractionalWeights() {
        SplittableRandom r = new SplittableRandom(81);
        int n = 20_000;
        EdgeList e = new EdgeList(n, false, 200_000);
        for (int i = 0; i < 200_000; i++) e.add(r.nextInt(n), r.nextInt(n), r.nextInt(64) / 8.0 + 0.1);
        check("random n=20000 m=200000 weights k/8+0.1", GraphBuilder.build(e));
        check("0.1 + 0.2 != 0.3", TestGraphs.build(4, false, 0, 1, 0.1, 1, 2, 0.2, 0, 2, 0.3, 2, 3, 0.7, 1, 3, 1.0));
        EdgeList big = new EdgeList(1000, false, 20_000);
        for (int i = 0; i < 20_000; i++) big.add(r.nextInt(1000), r.nextInt(1000), 1e9 + r.nextDouble() * 1e3);
        check("random n=1000 m=20000 weights 1e9 + fraction (not int-exact keys)", GraphBuilder.build(big));
    }

    /** Weights that tie almost everywhere: the edge id decides, and the threshold splits a tie class. */
    @Test
    void manyEqualWeights() {
        check("uniform n=30000 m=300000 all weights 1",
                GraphBuilder.build(UniformRandomGraph.generate(30_000, 300_000, 83, 1, false)));
        check("uniform n=30000 m=300000 weights 1..2",
                GraphBuilder.build(UniformRandomGraph.generate(30_000, 300_000, 84, 2, false)));
        check("zero weights", TestGraphs.build(6, false, 0, 1, 0, 1, 2, 0, 0, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5, 0, 5, 0, 0,
                1, 4, 0));
    }

    @Test
    void tiesAreBrokenByEdgeId() {
        // canonical edges: 0:{0,1} 1:{0,2} 2:{0,3} 3:{1,2} 4:{2,3}, all weight 1
        CsrGraph g = TestGraphs.build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 0, 1, 0, 2, 1);
        try (ResidentGraph dev = gpu().load(g)) {
            for (String v : VARIANTS) assertArrayEquals(new int[] {0, 1, 2}, Mst.run(dev, v).edgeIds(), v);
        }
    }

    /** Components of several sizes, each dense enough for the filter, plus isolated vertices between them. */
    @Test
    void disconnectedGraph() {
        SplittableRandom r = new SplittableRandom(85);
        int n = 50_000;
        EdgeList e = new EdgeList(n, false, 400_000);
        int[] sizes = {1, 2, 3, 10, 100, 1000, 5000, 20_000};
        int at = 0;
        for (int size : sizes) {
            for (int i = 0; i < 8 * size; i++) e.add(at + r.nextInt(size), at + r.nextInt(size), 1 + r.nextInt(255));
            at += size + 7;  // 7 isolated vertices after each component
        }
        CsrGraph g = GraphBuilder.build(e);
        check("8 components and isolated vertices", g);
        try (ResidentGraph dev = gpu().load(g)) {
            MstResult res = Mst.run(dev, "ecl");
            assertTrue(res.components() > sizes.length, "components " + res.components());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void realGraphs(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), file + " not found under ../shared/datasets");
        check(file, g.get());
    }

    @Test
    void newYorkRoadNetworkWeight() {
        Optional<CsrGraph> g = TestGraphs.real(Datasets.NY);
        assumeTrue(g.isPresent(), Datasets.NY + " not found under ../shared/datasets");
        try (ResidentGraph dev = gpu().load(g.get())) {
            MstResult r = Mst.run(dev, "ecl");
            assertEquals(TestGraphs.NY_MST_WEIGHT, r.totalWeight(), "NY MST weight");
            assertEquals(1, r.components(), "NY is one connected component");
            System.out.printf("[ecl] %s: %.3f ms, counters %s%n", Datasets.NY, r.timing().computeNanos() / 1e6,
                    r.timing().counters());
        }
    }

    /** The filter is on by default where m >= 2n (both phases run), off with light=0 (one phase, every edge light). */
    @Test
    void countersDescribeThePhases() {
        CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(20_000, 400_000, 87, 255, false));
        int m = g.undirectedEdges().size();
        try (ResidentGraph dev = gpu().load(g)) {
            Map<String, Long> on = Mst.run(dev, "ecl").timing().counters();
            assertEquals(1L, on.get("filtered"), on.toString());
            assertTrue(on.get("lightEntries") > 0 && on.get("lightEntries") < m / 2, on.toString());
            assertTrue(on.get("heavyEntries") < m - on.get("lightEntries"), on.toString());
            assertTrue(on.get("lightRounds") > 0, on.toString());
            Map<String, Long> off = Mst.run(dev, "ecl,light=0").timing().counters();
            assertEquals(0L, off.get("filtered"), off.toString());
            assertEquals((long) m, off.get("lightEntries"), off.toString());
            assertEquals(0L, off.get("heavyEntries"), off.toString());
            assertEquals(0L, off.get("heavyRounds"), off.toString());
            assertTrue(off.get("entryVisits") >= m, off.toString());
            System.out.println("[ecl] uniform n=20000 m=" + m + ": filter on " + on + "; off " + off);
        }
        CsrGraph sparse = TestGraphs.path(1000);
        try (ResidentGraph dev = gpu().load(sparse)) {
            assertEquals(0L, Mst.run(dev, "ecl").timing().counter("filtered"), "no filter below two edges per vertex");
            assertEquals(1L, Mst.run(dev, "ecl,light=50").timing().counter("filtered"), "an explicit light= applies");
        }
    }

    @Test
    void invalidOptionsAreRefused() {
        try (ResidentGraph dev = gpu().load(TestGraphs.build(3, false, 0, 1, 1, 1, 2, 2))) {
            assertThrows(UnsupportedVariantException.class, () -> Mst.run(dev, "ecl,light=-1"));
            assertThrows(UnsupportedVariantException.class, () -> Mst.run(dev, "ecl,bps=0"));
        }
    }

    /** Runs again on the same resident graph, and on a re-weighted version (same arcs, the edge list re-uploaded). */
    @Test
    void repeatedRunsAndReweightedVersions() {
        CsrGraph a = GraphBuilder.build(UniformRandomGraph.generate(10_000, 100_000, 89, 100, false));
        EdgeList e = new EdgeList(a.vertexCount(), false, a.edgeCount());
        for (int v = 0; v < a.vertexCount(); v++) {
            for (int k = a.rowStart(v); k < a.rowEnd(v); k++) {
                int w = a.columns()[k];
                if (v < w) e.add(v, w, 1 + (a.weights()[k] * 7) % 13);
            }
        }
        CsrGraph b = GraphBuilder.build(e);
        ResidentGraph dev = gpu().load(a);
        try {
            MstResult first = Mst.run(dev, "ecl");
            for (int i = 0; i < 3; i++) {
                MstResult again = Mst.run(dev, i == 1 ? "ecl,light=0" : "ecl");
                assertArrayEquals(first.edgeIds(), again.edgeIds(), "run " + i);
            }
            assertArrayEquals(TestGraphs.mstReference(a).edgeIds(), first.edgeIds());
            dev = dev.replace(b, gpu());
            MstResult r = Mst.run(dev, "ecl");
            MstResult expected = KruskalReference.run(b);
            assertTrue(MstVerifier.verify(b, r, expected).ok(), "reweighted");
            assertArrayEquals(expected.edgeIds(), r.edgeIds(), "reweighted");
            assertEquals(expected.totalWeight(), r.totalWeight(), "reweighted");
            assertTrue(!Arrays.equals(first.edgeIds(), r.edgeIds()), "the new weights change the forest");
        } finally {
            dev.close();
        }
    }
}
