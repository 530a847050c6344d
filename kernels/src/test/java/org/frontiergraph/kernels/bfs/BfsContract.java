package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.SingleSourceContract;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The BFS contract every backend meets: hop counts equal {@link org.frontiergraph.kernels.bfs.BfsReference}'s and
 * parents satisfy {@link BfsVerifier}'s rules, on hand-made, seeded random, Kronecker and real graphs.
 * A backend's test extends this class and implements {@link #createBackend()}.
 */
public abstract class BfsContract extends SingleSourceContract {

    /** Runs BFS from each source on one residency of {@code g} and asserts each answer verifies. */
    @Override
    protected final void assertVerifies(String name, CsrGraph g, int... sources) {
        withResident(g, resident -> {
            for (int s : sources) {
                BfsResult r = Bfs.run(resident, s, null);
                Verification v = BfsVerifier.verify(g, s, r, TestGraphs.bfsReference(g, s));
                assertTrue(v.ok(), () -> name + ", source " + s + ": " + v.message());
            }
            return null;
        });
    }

    /**
     * Batched SUMMARY answers ({@link Bfs#SUMMARIES}) equal the summaries of the reference's answers, source by
     * source: a batch of one, and one of 71 (more than a 64-source pass) with a repeated source.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#batchGraphs")
    void summariesEqualTheReferences(Fixture f) {
        assertSummaries(f.name(), f.graph(), new int[] {f.graph().vertexCount() - 1});
        assertSummaries(f.name(), f.graph(), TestGraphs.batch(f.graph(), 70, 7));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void summariesOnRealGraphs(String name) {
        TestGraphs.real(name).ifPresent(g -> assertSummaries(name, g, TestGraphs.batch(g, 70, 9)));
    }

    /**
     * Larger batches: exactly one and just over one 64-source pass, one source 64 times, 64 sources each twice, and
     * 200 sources (several passes), on graphs with both directions, big vertices (a star's centre, Kronecker hubs, a
     * directed hub), long searches (a path) and sources without out-arcs (Kronecker's isolated vertices).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.bfs.BfsContract#largeBatchGraphs")
    void summariesOfLargeBatches(Fixture f) {
        CsrGraph g = f.graph();
        int[] distinct = TestGraphs.sources(g, 200, 13);
        int[] same = new int[64];
        Arrays.fill(same, distinct[distinct.length - 1]);
        assertSummaries(f.name(), g, Arrays.copyOf(distinct, 64));
        assertSummaries(f.name(), g, Arrays.copyOf(distinct, 65));
        assertSummaries(f.name(), g, same);
        assertSummaries(f.name(), g, IntStream.range(0, 128).map(i -> distinct[i % 64]).toArray());
        assertSummaries(f.name(), g, distinct);
    }

    static Stream<Fixture> largeBatchGraphs() {
        return Stream.of(
                TestGraphs.random(3_000, 30_000, 2, 10, true),
                TestGraphs.random(3_000, 30_000, 2, 10, false),
                TestGraphs.random(2_000, 2_500, 3, 100, false),
                TestGraphs.kronecker(),
                new Fixture("star with 5000 leaves", TestGraphs.star(5000)),
                new Fixture("long path, 20000 vertices", TestGraphs.path(20000)),
                new Fixture("directed hub: 0 -> every vertex, v -> 7v + 1 mod 4000", directedHub(4000)));
    }

    /** Vertex 0 has an arc to every vertex (a big vertex on a directed graph); each vertex v one arc to 7v + 1. */
    private static CsrGraph directedHub(int n) {
        EdgeList e = new EdgeList(n, true, 2 * n);
        for (int v = 0; v < n; v++) {
            e.add(0, v, 1);
            e.add(v, (int) ((7L * v + 1) % n), 1);
        }
        return GraphBuilder.build(e);
    }

    private void assertSummaries(String name, CsrGraph g, int[] sources) {
        BfsSummaries got = withResident(g, r -> r.run(Bfs.SUMMARIES, new Sources(sources), null));
        BfsSummaries want = BfsSummaries.of(Arrays.stream(sources)
                .mapToObj(s -> TestGraphs.bfsReference(g, s)).toArray(BfsResult[]::new));
        assertArrayEquals(sources, got.sources(), name + ": sources in order");
        for (int i = 0; i < sources.length; i++) {
            String where = name + ", summary from " + sources[i] + " (position " + i + " of " + sources.length + ")";
            assertEquals(want.reached()[i], got.reached()[i], where + ": reached");
            assertEquals(want.maxHops()[i], got.maxHops()[i], where + ": max hops");
        }
    }

    /**
     * Answers read at a few targets ({@link Bfs#AT_TARGETS}) equal the reference's hops there, with parents that are
     * one hop closer and joined by an arc; targets include the source, repeats and (on sparse graphs) unreached ones.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#batchGraphs")
    void answersAtTargetsEqualTheReference(Fixture f) {
        CsrGraph g = f.graph();
        int source = TestGraphs.targetsSource(g);
        int[] withSource = TestGraphs.targetsWithSource(g, source);
        BfsAtTargets got = withResident(g, r -> r.run(Bfs.AT_TARGETS, new Targets(source, withSource), null));
        BfsResult want = TestGraphs.bfsReference(g, source);
        assertArrayEquals(withSource, got.targets());
        for (int i = 0; i < withSource.length; i++) {
            int t = withSource[i], p = got.parents()[i];
            String where = f.name() + ", target " + t + " from " + source;
            assertEquals(want.hops()[t], got.hops()[i], where + ": hops");
            if (t == source) assertEquals(source, p, where + ": the source is its own parent");
            else if (want.hops()[t] < 0) assertEquals(BfsResult.UNREACHED, p, where + ": unreached, no parent");
            else {
                assertEquals(want.hops()[t] - 1, want.hops()[p], where + ": parent " + p + " one hop closer");
                assertTrue(g.findArc(p, t) >= 0, where + ": arc " + p + "->" + t);
            }
        }
    }

    private BfsResult bfs(CsrGraph g, int source) {
        return withResident(g, r -> Bfs.run(r, source, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void tinyGraphs(Fixture f) {
        CsrGraph g = f.graph();
        int[] sources = g.vertexCount() <= 20
                ? java.util.stream.IntStream.range(0, g.vertexCount()).toArray()
                : TestGraphs.sources(g, 4, 1);
        assertVerifies(f.name(), g, sources);
    }

    @Test
    void singleVertex() {
        BfsResult r = bfs(TestGraphs.build(1, false), 0);
        assertEquals(0, r.source());
        assertArrayEquals(new int[] {0}, r.hops());
        assertArrayEquals(new int[] {0}, r.parents());
    }

    @Test
    void edgelessGraphReachesOnlyTheSource() {
        BfsResult r = bfs(TestGraphs.build(5, true), 2);
        assertArrayEquals(new int[] {-1, -1, 0, -1, -1}, r.hops());
        assertArrayEquals(new int[] {-1, -1, 2, -1, -1}, r.parents());
    }

    @Test
    void directionMatters() {
        CsrGraph directed = TestGraphs.build(4, true, 0, 1, 1, 1, 2, 1, 2, 3, 1);
        CsrGraph undirected = TestGraphs.build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1);
        assertArrayEquals(new int[] {-1, -1, -1, 0}, bfs(directed, 3).hops());
        assertArrayEquals(new int[] {3, 2, 1, 0}, bfs(undirected, 3).hops());
        assertArrayEquals(new int[] {0, 1, 2, 3}, bfs(directed, 0).hops());
        assertArrayEquals(new int[] {0, 0, 1, 2}, bfs(directed, 0).parents());
    }

    @Test
    void disconnectedComponentsStayUnreached() {
        CsrGraph g = TestGraphs.build(7, false, 0, 1, 1, 1, 2, 2, 2, 0, 3, 3, 4, 1, 4, 5, 1, 5, 3, 1);
        assertArrayEquals(new int[] {1, 0, 1, -1, -1, -1, -1}, bfs(g, 1).hops());
    }

    @Test
    void residentGraphDescribesItself() {
        CsrGraph g = TestGraphs.build(3, false, 0, 1, 1);
        try (ResidentGraph r = backend().load(g)) {
            assertSame(g, r.graph());
            assertEquals(backend().name(), r.backend());
            assertTrue(r.residentBytes() > 0, "residentBytes " + r.residentBytes());
            assertThrows(UnsupportedVariantException.class, () -> Bfs.run(r, 0, "no-such-variant"));
        }
    }
}
