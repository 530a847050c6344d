package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.GpuBackend;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batched SSSP SUMMARY answers from several sources per launch ({@link MultiSssp}, sssp_multi.cu) against the
 * summaries of Dijkstra's answers, source by source, the largest distance exactly: what the contract's
 * {@code summariesEqualTheReferences} does not reach. Zero, fractional and heavy-tailed weights, disconnected
 * graphs, hubs (the wide-item pass), long paths (thousands of steps), batches larger than one pass, every source
 * the same, buckets narrow and wide (far-pile filters on many sources at once), every run repeated (a race shows up
 * only now and then). Skipped where no GPU is present.
 */
@Tag("gpu")
class MultiSsspGpuTest {
    private static final int REPEATS = 3;
    private static GpuBackend gpu;

    private static GpuBackend gpu() {
        if (gpu == null) gpu = GpuOrSkip.open();
        return gpu;
    }

    @AfterAll
    static void close() {
        if (gpu != null) gpu.close();
    }

    /** Dijkstra's summaries of {@code sources} on {@code g}, computed on every core. */
    static SsspSummaries reference(CsrGraph g, int[] sources) {
        int[] distinct = Arrays.stream(sources).distinct().toArray();
        IntStream.of(distinct).parallel().forEach(s -> TestGraphs.ssspReference(g, s));
        return SsspSummaries.of(Arrays.stream(sources).mapToObj(s -> TestGraphs.ssspReference(g, s))
                .toArray(SsspResult[]::new));
    }

    /** Runs the batch under each variant, {@code repeats} times, and checks every summary. Returns the last answer. */
    static SsspSummaries check(String name, ResidentGraph dev, CsrGraph g, int[] sources, int repeats,
                               String... variants) {
        SsspSummaries want = reference(g, sources);
        SsspSummaries last = null;
        for (String v : variants) {
            for (int r = 0; r < repeats; r++) {
                SsspSummaries got = dev.run(Sssp.SUMMARIES, new Sources(sources), v);
                assertArrayEquals(sources, got.sources(), name + ": sources in order");
                for (int i = 0; i < sources.length; i++) {
                    String where = name + ", " + v + ", run " + r + ", source " + sources[i] + " (position " + i
                            + " of " + sources.length + ")";
                    assertEquals(want.reached()[i], got.reached()[i], where + ": reached");
                    assertEquals(want.maxDistances()[i], got.maxDistances()[i], 0.0, where + ": max distance (exact)");
                }
                last = got;
            }
        }
        return last;
    }

    private static SsspSummaries check(String name, CsrGraph g, int[] sources, int repeats, String... variants) {
        try (ResidentGraph dev = gpu().load(g)) {
            return check(name, dev, g, sources, repeats, variants);
        }
    }

    /** A batch of {@code count} sources: every vertex of a small graph, else seeded picks, with a repeat. */
    private static int[] batch(CsrGraph g, int count) {
        if (g.vertexCount() <= count) return IntStream.range(0, g.vertexCount()).toArray();
        return TestGraphs.batch(g, count - 1, 19);
    }

    // ---------------------------------------------------------------- graphs

    static Stream<Fixture> graphs() {
        List<Fixture> l = new ArrayList<>();
        TestGraphs.tiny().forEach(l::add);
        l.add(TestGraphs.random(3_000, 30_000, 2, 10, true));
        l.add(TestGraphs.random(2_000, 2_500, 3, 100, false));  // many unreachable vertices
        l.add(TestGraphs.kronecker());
        l.add(new Fixture("grid road 300x300 w<=1000 seed=3",
                GraphBuilder.build(GridRoadGraph.generate(300, 300, 3, 1000))));
        l.add(new Fixture("grid road 2000x16 w<=100 seed=4 (deep)",
                GraphBuilder.build(GridRoadGraph.generate(2000, 16, 4, 100))));
        l.add(new Fixture("fractional weights directed n=3000 m=30000 seed=24",
                AsyncSsspGpuTest.fractional(3_000, 30_000, 24, true)));
        l.add(new Fixture("fractional weights undirected n=20000 m=80000 seed=25",
                AsyncSsspGpuTest.fractional(20_000, 80_000, 25, false)));
        l.add(new Fixture("zero weights undirected n=2000 m=10000 seed=26",
                AsyncSsspGpuTest.zeroWeights(2_000, 10_000, 26, false)));
        l.add(new Fixture("zero weights directed n=20000 m=100000 seed=27",
                AsyncSsspGpuTest.zeroWeights(20_000, 100_000, 27, true)));
        l.add(new Fixture("all weights zero n=500 m=3000 seed=28", AsyncSsspGpuTest.allZero(500, 3_000, 28)));
        l.add(new Fixture("disconnected: sparse uniform n=30000 m=36000 w<=9 seed=29",
                GraphBuilder.build(UniformRandomGraph.generate(30_000, 36_000, 29, 9, false))));
        l.add(new Fixture("disconnected: two grids side by side", AsyncSsspGpuTest.twoGrids(120, 120, 30)));
        l.add(new Fixture("star with 100000 leaves (a wide hub)", TestGraphs.star(100_000)));
        l.add(new Fixture("two hubs of 20000 leaves joined by an edge", AsyncSsspGpuTest.twoHubs(20_000)));
        l.add(new Fixture("long path, 100000 vertices", TestGraphs.path(100_000)));
        l.add(new Fixture("heavy-tailed weights n=20000 m=120000 w in 1..2^30 seed=31",
                AsyncSsspGpuTest.heavyTailed(20_000, 120_000, 31)));
        l.add(new Fixture("medium degrees: n=5000 m=100000 undirected (many items of 32+ arcs)",
                TestGraphs.random(5_000, 100_000, 6, 50, false).graph()));
        return l.stream();
    }

    /** A batch of 13 (with a repeat) in one pass, in passes of at most 4, and a batch of two. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void summariesEqualDijkstras(Fixture f) {
        CsrGraph g = f.graph();
        try (ResidentGraph dev = gpu().load(g)) {
            SsspSummaries one = check(f.name(), dev, g, batch(g, 13), REPEATS, "default");
            if (one.count() >= 2) {
                assertEquals(1, one.timing().counter("passes"), () -> one.timing().counters().toString());
            }
            check(f.name(), dev, g, batch(g, 13), 1, "default,pass=4");
            check(f.name(), dev, g, batch(g, 2), 1, "default");
        }
    }

    // ---------------------------------------------------------------- batches

    @Test
    void batchesLargerThanAPassRunInSeveralPasses() {
        CsrGraph g = GraphBuilder.build(GridRoadGraph.generate(100, 100, 9, 1000));
        int[] sources = TestGraphs.sources(g, 70, 23);  // 32 a pass: passes of 24, 23, 23
        SsspSummaries r = check("grid road 100x100, 70 sources", g, sources, 2, "default,way=multi");
        assertEquals(3, r.timing().counter("passes"), () -> r.timing().counters().toString());
        SsspSummaries four = check("grid road 100x100, 70 sources, 4 a pass", g, sources, 1, "default,pass=4");
        assertEquals(18, four.timing().counter("passes"));
        SsspSummaries each = check("grid road 100x100, 70 sources, one by one", g, sources, 1, "default,pass=1");
        assertEquals(70, each.timing().counter("passes"));
    }

    @Test
    void everySourceTheSame() {
        CsrGraph g = AsyncSsspGpuTest.zeroWeights(3_000, 20_000, 34, true);
        int[] same = new int[32];
        Arrays.fill(same, 17);
        check("zero weights, 32 times source 17", g, same, REPEATS, "default,way=multi", "default");
        CsrGraph road = GraphBuilder.build(GridRoadGraph.generate(60, 60, 10, 500));
        int[] corner = new int[9];
        check("grid road 60x60, 9 times source 0", road, corner, REPEATS, "default", "default,pass=2");
    }

    @Test
    void isolatedAndUnreachableSources() {
        // vertex 4 is isolated, 0..3 a directed path: reached counts 4, 3, 2, 1, 1
        CsrGraph g = TestGraphs.build(5, true, 0, 1, 1, 1, 2, 2, 2, 3, 3);
        SsspSummaries r = check("directed path and an isolated vertex", g, new int[] {0, 1, 2, 3, 4, 0}, REPEATS,
                "default");
        assertArrayEquals(new long[] {4, 3, 2, 1, 1, 4}, r.reached());
        assertArrayEquals(new double[] {6, 5, 3, 0, 0, 6}, r.maxDistances());
    }

    @Test
    void fractionalSumsAreTheExactDoubleSums() {
        // 0.1 + 0.2 = 0.30000000000000004 > 0.3: from 0 the direct edge to 2 wins, and 3 lies at 0.3 + 0.7
        CsrGraph g = TestGraphs.build(4, false, 0, 1, 0.1, 1, 2, 0.2, 0, 2, 0.3, 2, 3, 0.7, 1, 3, 1.0);
        SsspSummaries r = check("fractional weights", g, new int[] {0, 1, 2, 3}, REPEATS, "default");
        assertEquals(0.3 + 0.7, r.maxDistances()[0]);
        CsrGraph chain = TestGraphs.build(3, false, 0, 1, 0.1, 1, 2, 0.2);
        assertEquals(0.1 + 0.2, check("0.1 + 0.2", chain, new int[] {0, 2}, 1, "default").maxDistances()[0]);
    }

    // ---------------------------------------------------------------- options: every path of the kernel

    /** Bucket widths that move the work through the far piles (narrow) or keep it all near (wide). */
    private static final String[] OPTIONS = {
        "default,df=0.01",      // narrow buckets: many filters, sources filtering while others expand
        "default,delta=1",
        "default,df=1000000",   // one bucket holds everything: no filter
        "default,bps=2",
        "default,pass=3,df=0.1",
    };

    @ParameterizedTest(name = "{0}")
    @MethodSource("optionGraphs")
    void optionsKeepTheAnswersExact(Fixture f) {
        check(f.name(), f.graph(), batch(f.graph(), 9), 2, OPTIONS);
    }

    static Stream<Fixture> optionGraphs() {
        return Stream.of(
                new Fixture("grid road 100x100 w<=1000 seed=5",
                        GraphBuilder.build(GridRoadGraph.generate(100, 100, 5, 1000))),
                TestGraphs.random(3_000, 30_000, 2, 10, true),
                new Fixture("fractional weights undirected n=4000 m=30000 seed=32",
                        AsyncSsspGpuTest.fractional(4_000, 30_000, 32, false)),
                new Fixture("zero weights directed n=3000 m=20000 seed=33",
                        AsyncSsspGpuTest.zeroWeights(3_000, 20_000, 33, true)),
                new Fixture("star with 5000 leaves", TestGraphs.star(5_000)),
                TestGraphs.kronecker());
    }

    @Test
    void narrowBucketsFilterFarPiles() {
        CsrGraph g = GraphBuilder.build(GridRoadGraph.generate(60, 60, 6, 1000));
        SsspSummaries r = check("grid road 60x60, delta=1", g, batch(g, 8), 1, "default,delta=1");
        assertTrue(r.timing().counter("filters") > 8, () -> "far-pile filters: " + r.timing().counters());
        assertTrue(r.timing().counter("steps") > 0 && r.timing().counter("items") >= 8,
                () -> r.timing().counters().toString());
    }

    /** New weights on the same arcs (the second time from integers to fractions): the summaries follow. */
    @Test
    void reweightedGraphsAreFollowed() {
        CsrGraph a = GraphBuilder.build(GridRoadGraph.generate(80, 80, 8, 1000));
        CsrGraph b = reweighted(a, w -> 1 + (w * 7) % 13);
        CsrGraph c = reweighted(a, w -> w / 3.0);
        int[] sources = TestGraphs.batch(a, 6, 41);
        ResidentGraph dev = gpu().load(a);
        try {
            check("grid 80x80", dev, a, sources, 1, "default");
            dev = dev.replace(b, gpu());
            check("grid 80x80 reweighted", dev, b, sources, REPEATS, "default");
            dev = dev.replace(c, gpu());
            check("grid 80x80 fractional weights", dev, c, sources, REPEATS, "default");
        } finally {
            dev.close();
        }
    }

    private static CsrGraph reweighted(CsrGraph a, java.util.function.DoubleUnaryOperator f) {
        EdgeList e = new EdgeList(a.vertexCount(), true, a.arcCount());
        for (int v = 0; v < a.vertexCount(); v++) {
            for (int k = a.rowStart(v); k < a.rowEnd(v); k++) e.add(v, a.columns()[k], f.applyAsDouble(a.weights()[k]));
        }
        return GraphBuilder.build(e);
    }

    // ---------------------------------------------------------------- real graphs (and what a batch costs)

    /** 32 sources in one pass against one by one: exact answers, and the time each took (printed). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void realGraphs(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), file + " not found under ../shared/datasets");
        int[] sources = TestGraphs.sources(g.get(), 32, 43);
        try (ResidentGraph dev = gpu().load(g.get())) {
            SsspSummaries together = check(file, dev, g.get(), sources, 2, "default,way=multi");
            SsspSummaries each = check(file, dev, g.get(), sources, 1, "default,pass=1");
            System.out.printf("[multi-sssp] %s: %d sources, %.3f ms in %d pass(es) (%s), one by one %.3f ms%n", file,
                    sources.length, together.timing().computeNanos() / 1e6, together.timing().counter("passes"),
                    together.timing().counters(), each.timing().computeNanos() / 1e6);
        }
    }
}
