package org.frontiergraph.kernels.apsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.seeds.Counterexample;
import org.frontiergraph.kernels.generate.seeds.GtGraphRandom;
import org.frontiergraph.kernels.generate.seeds.HarishRandom;
import org.frontiergraph.kernels.generate.seeds.MartinFixedDegree;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The APSP contract every implementation meets, for each of its variants: answers pass {@link ApspVerifier}
 * (Bellman equations on every row, equality with a reference: exact for integral weights), unreachable is
 * +infinity, the diagonal is 0, unknown variants and graphs beyond the {@link ApspLimits} are refused with a reason.
 * An implementation's test extends this class and implements {@link #apsp} and {@link #variants()}.
 * (APSP is not yet a {@code ResidentGraph} query; when it is, {@link #apsp} becomes a resident call.)
 */
public abstract class ApspContract {
    private static final double INF = Double.POSITIVE_INFINITY;
    /** Graphs for every variant stay this small: Floyd–Warshall is O(n^3). */
    private static final int MAX_TEST_VERTICES = 1024;

    /** Runs APSP on {@code g}; {@code variant} null means the implementation's default. */
    protected abstract ApspResult apsp(CsrGraph g, String variant, ApspLimits limits);

    /** The named variants to run every check with (the default, null, is always run too). */
    protected abstract List<String> variants();

    private ApspResult apsp(CsrGraph g, String variant) {
        return apsp(g, variant, ApspLimits.defaults());
    }

    private List<String> allVariants() {
        List<String> all = new ArrayList<>();
        all.add(null);
        all.addAll(variants());
        return all;
    }

    /** Runs every variant on {@code g}, asserts each answer verifies, and returns them in {@link #allVariants()} order. */
    protected final List<ApspResult> assertVerifies(String name, CsrGraph g) {
        List<ApspResult> results = new ArrayList<>();
        for (String variant : allVariants()) {
            ApspResult r = apsp(g, variant);
            Verification v = ApspVerifier.verify(g, r);
            assertTrue(v.ok(), () -> name + ", variant " + variant + ": " + v.message());
            results.add(r);
        }
        return results;
    }

    static Stream<Fixture> smallTiny() {
        return TestGraphs.tiny().filter(f -> f.graph().vertexCount() <= MAX_TEST_VERTICES);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("smallTiny")
    void tinyGraphs(Fixture f) {
        assertVerifies(f.name(), f.graph());
    }

    @Test
    void handMadeDirectedGraph() {
        // 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (1), 3 -> 0 (7); vertex 4 isolated
        CsrGraph g = TestGraphs.build(5, true, 0, 1, 4, 0, 2, 1, 2, 1, 2, 1, 3, 1, 3, 0, 7);
        double[] expected = {
                0, 3, 1, 4, INF,
                8, 0, 9, 1, INF,
                10, 2, 0, 3, INF,
                7, 10, 8, 0, INF,
                INF, INF, INF, INF, 0};
        for (String variant : allVariants()) {
            ApspResult r = apsp(g, variant);
            assertEquals(5, r.vertexCount());
            assertArrayEquals(expected, r.distances(), "variant " + variant);
        }
    }

    @Test
    void singleVertexAndNoEdges() {
        for (String variant : allVariants()) {
            assertArrayEquals(new double[] {0}, apsp(TestGraphs.build(1, true), variant).distances());
            assertArrayEquals(new double[] {0, INF, INF, 0}, apsp(TestGraphs.build(2, false), variant).distances());
        }
    }

    @Test
    void fractionalWeightsTakeTheDirectEdge() {
        // 0.1 + 0.2 = 0.30000000000000004 > 0.3
        CsrGraph g = TestGraphs.build(3, false, 0, 1, 0.1, 1, 2, 0.2, 0, 2, 0.3);
        for (String variant : allVariants()) {
            ApspResult r = apsp(g, variant);
            assertEquals(0.3, r.distance(0, 2), "variant " + variant);
            assertEquals(0.3, r.distance(2, 0), "variant " + variant);
        }
    }

    @Test
    void unknownVariantIsRefused() {
        assertThrows(UnsupportedVariantException.class,
                () -> apsp(TestGraphs.build(2, false, 0, 1, 1), "no-such-variant"));
    }

    @Test
    void graphsBeyondTheLimitAreRefusedWithTheSize() {
        CsrGraph g = TestGraphs.path(101);
        for (String variant : allVariants()) {
            GraphTooLargeException e = assertThrows(GraphTooLargeException.class,
                    () -> apsp(g, variant, new ApspLimits(100)));
            assertTrue(e.getMessage().startsWith("APSP on 101 vertices needs "), e.getMessage());
            assertTrue(e.getMessage().contains("the limit is 100 vertices"), e.getMessage());
        }
    }

    static Stream<Fixture> randomGraphs() {
        List<Fixture> list = new ArrayList<>();
        for (long seed : new long[] {1, 2}) {
            list.add(TestGraphs.random(300, 600, seed, 100, true));   // sparse: many unreachable pairs
            list.add(TestGraphs.random(300, 600, seed, 100, false));
            list.add(TestGraphs.random(700, 7_000, seed, 10, true));  // > 512 vertices: Dijkstra-reference path
        }
        list.add(fixture("fractional weights n=400 seed=3", fractional(TestGraphs.random(400, 3_000, 3, 1 << 20, false))));
        list.add(fixture("martin n=600 degree 7 seed=4", GraphBuilder.build(MartinFixedDegree.generate(600, 4))));
        list.add(fixture("gtgraph n=512 m=1024 seed=5", GraphBuilder.build(GtGraphRandom.generate(512, 1024, 5))));
        list.add(fixture("harish-random n=800 seed=6", GraphBuilder.build(HarishRandom.generate(800, 6))));
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("randomGraphs")
    void seededRandomGraphs(Fixture f) {
        List<ApspResult> results = assertVerifies(f.name(), f.graph());
        if (f.graph().integralWeights()) {
            // integral weights: every variant gives the very same doubles
            for (int i = 1; i < results.size(); i++) {
                assertArrayEquals(results.get(0).distances(), results.get(i).distances(),
                        f.name() + ", variant " + allVariants().get(i));
            }
        }
    }

    @Test
    void counterexampleOfPaper003() {
        CsrGraph g = GraphBuilder.build(Counterexample.generate());
        for (String variant : allVariants()) {
            ApspResult r = apsp(g, variant);
            assertArrayEquals(Counterexample.distancesFromZero(g.vertexCount()), r.row(0), "variant " + variant);
            Verification v = ApspVerifier.verify(g, r);
            assertTrue(v.ok(), () -> "variant " + variant + ": " + v.message());
        }
    }

    @Test
    void rome99() {
        Optional<CsrGraph> g = TestGraphs.real(Datasets.ROME);
        assumeTrue(g.isPresent(), Datasets.ROME + " not found under ../shared/datasets");
        ApspResult r = apsp(g.get(), null);
        assertEquals(g.get().vertexCount(), r.vertexCount());
        Verification v = ApspVerifier.verify(g.get(), r);
        assertTrue(v.ok(), () -> Datasets.ROME + ": " + v.message());
    }

    private static Fixture fixture(String name, CsrGraph g) {
        return new Fixture(name, g);
    }

    /** Weights w / 1024 + 0.1: exact fractions whose sums round. */
    private static CsrGraph fractional(Fixture f) {
        CsrGraph g = f.graph();
        EdgeList e = new EdgeList(g.vertexCount(), false);
        UndirectedEdges u = g.undirectedEdges();
        for (int i = 0; i < u.size(); i++) e.add(u.u[i], u.v[i], u.w[i] / 1024.0 + 0.1);
        return GraphBuilder.build(e);
    }
}
