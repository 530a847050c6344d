package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.contract.SingleSourceContract;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SSSP contract every backend meets: distances equal
 * {@link org.frontiergraph.kernels.sssp.DijkstraReference}'s exactly (==, infinity when unreachable) and parents
 * satisfy {@link SsspVerifier}'s rules. A backend's test extends this class and implements {@link #createBackend()}.
 */
public abstract class SsspContract extends SingleSourceContract {
    private static final double INF = Double.POSITIVE_INFINITY;

    /** Runs SSSP from each source on one residency of {@code g} and asserts each answer verifies. */
    @Override
    protected final void assertVerifies(String name, CsrGraph g, int... sources) {
        withResident(g, resident -> {
            for (int s : sources) {
                SsspResult r = Sssp.run(resident, s, null);
                Verification v = SsspVerifier.verify(g, s, r, TestGraphs.ssspReference(g, s));
                assertTrue(v.ok(), () -> name + ", source " + s + ": " + v.message());
            }
            return null;
        });
    }

    /**
     * Batched SUMMARY answers ({@link Sssp#SUMMARIES}) equal the summaries of the reference's answers, source by
     * source (the largest distance exactly): a batch of one and one of 13 with a repeated source.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#batchGraphs")
    void summariesEqualTheReferences(Fixture f) {
        assertSummaries(f.name(), f.graph(), new int[] {0});
        assertSummaries(f.name(), f.graph(), TestGraphs.batch(f.graph(), 12, 8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void summariesOnRealGraphs(String name) {
        TestGraphs.real(name).ifPresent(g -> assertSummaries(name, g, TestGraphs.batch(g, 6, 10)));
    }

    private void assertSummaries(String name, CsrGraph g, int[] sources) {
        SsspSummaries got = withResident(g, r -> r.run(Sssp.SUMMARIES, new Sources(sources), null));
        SsspSummaries want = SsspSummaries.of(java.util.Arrays.stream(sources)
                .mapToObj(s -> TestGraphs.ssspReference(g, s)).toArray(SsspResult[]::new));
        assertArrayEquals(sources, got.sources(), name + ": sources in order");
        for (int i = 0; i < sources.length; i++) {
            String where = name + ", summary from " + sources[i] + " (position " + i + " of " + sources.length + ")";
            assertEquals(want.reached()[i], got.reached()[i], where + ": reached");
            assertEquals(want.maxDistances()[i], got.maxDistances()[i], 0.0, where + ": max distance (exact)");
        }
    }

    /**
     * Answers read at a few targets ({@link Sssp#AT_TARGETS}) equal the reference's distances there exactly, with
     * parents on a shortest path (dist[p] + w(p, t) == dist[t] for an arc p->t); targets include the source, repeats
     * and (on sparse graphs) unreached ones.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#batchGraphs")
    void answersAtTargetsEqualTheReference(Fixture f) {
        CsrGraph g = f.graph();
        int source = TestGraphs.targetsSource(g);
        int[] withSource = TestGraphs.targetsWithSource(g, source);
        SsspAtTargets got = withResident(g, r -> r.run(Sssp.AT_TARGETS, new Targets(source, withSource), null));
        SsspResult want = TestGraphs.ssspReference(g, source);
        assertArrayEquals(withSource, got.targets());
        for (int i = 0; i < withSource.length; i++) {
            int t = withSource[i], p = got.parents()[i];
            String where = f.name() + ", target " + t + " from " + source;
            assertEquals(want.distances()[t], got.distances()[i], 0.0, where + ": distance (exact)");
            if (t == source) assertEquals(source, p, where + ": the source is its own parent");
            else if (want.distances()[t] == INF) assertEquals(SsspResult.NO_PARENT, p, where + ": unreached, no parent");
            else {
                boolean tight = false;
                for (int a = g.rowStart(p); a < g.rowEnd(p); a++) {
                    if (g.columns()[a] == t && want.distances()[p] + g.weights()[a] == want.distances()[t]) tight = true;
                }
                assertTrue(tight, where + ": parent " + p + " on a shortest path");
            }
        }
    }

    private SsspResult sssp(CsrGraph g, int source) {
        return withResident(g, r -> Sssp.run(r, source, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void tinyGraphs(Fixture f) {
        CsrGraph g = f.graph();
        int[] sources = g.vertexCount() <= 20 ? IntStream.range(0, g.vertexCount()).toArray()
                : TestGraphs.sources(g, 4, 1);
        assertVerifies(f.name(), g, sources);
    }

    @Test
    void singleVertex() {
        SsspResult r = sssp(TestGraphs.build(1, true), 0);
        assertArrayEquals(new double[] {0}, r.distances());
        assertArrayEquals(new int[] {0}, r.parents());
    }

    @Test
    void duplicatesKeepTheSmallestWeightAndSelfLoopsAreIgnored() {
        CsrGraph g = TestGraphs.build(4, true, 0, 1, 5, 0, 1, 2, 1, 1, 1, 1, 2, 7, 1, 2, 3, 0, 2, 9, 2, 2, 0, 2, 3, 1);
        SsspResult r = sssp(g, 0);
        assertArrayEquals(new double[] {0, 2, 5, 6}, r.distances());
        assertArrayEquals(new int[] {0, 0, 1, 2}, r.parents());
    }

    @Test
    void unreachableIsInfinityWithNoParent() {
        CsrGraph g = TestGraphs.build(4, true, 0, 1, 1, 1, 2, 1, 2, 3, 1);
        SsspResult r = sssp(g, 2);
        assertArrayEquals(new double[] {INF, INF, 0, 1}, r.distances());
        assertArrayEquals(new int[] {-1, -1, 2, 2}, r.parents());
    }

    @Test
    void distancesAreTheExactDoubleSums() {
        // 0.1 + 0.2 = 0.30000000000000004 > 0.3: the direct edge wins
        CsrGraph g = TestGraphs.build(3, false, 0, 1, 0.1, 1, 2, 0.2, 0, 2, 0.3);
        SsspResult r = sssp(g, 0);
        assertEquals(0.3, r.distances()[2]);
        assertEquals(0, r.parents()[2]);
        assertEquals(0.1 + 0.2, sssp(TestGraphs.build(3, false, 0, 1, 0.1, 1, 2, 0.2), 0).distances()[2]);
    }

    @Test
    void unknownVariantIsRefused() {
        try (ResidentGraph r = backend().load(TestGraphs.build(2, false, 0, 1, 1))) {
            assertThrows(UnsupportedVariantException.class, () -> Sssp.run(r, 0, "no-such-variant"));
        }
    }

    @Override
    protected void checkRealGraph(String file, CsrGraph graph, int[] sources) {
        if (allWeightsOne(graph)) {
            // the weight rule for unweighted graphs: every edge weighs 1, so distances are hop counts
            SsspResult r = sssp(graph, sources[0]);
            BfsResult hops = TestGraphs.bfsReference(graph, sources[0]);
            for (int v = 0; v < r.distances().length; v++) {
                double expected = hops.hops()[v] < 0 ? INF : hops.hops()[v];
                assertEquals(expected, r.distances()[v], file + ": vertex " + v);
            }
        }
    }

    private static boolean allWeightsOne(CsrGraph g) {
        for (double w : g.weights()) if (w != 1) return false;
        return true;
    }
}
