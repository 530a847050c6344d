package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.CudaCounters;
import org.frontiergraph.kernels.contract.GpuOrSkip;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.DeviceBuffer;
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
 * The asynchronous SSSP ({@link AsyncSssp}, variant {@code async}) against Dijkstra: distances equal exactly and
 * parents pass {@link SsspVerifier}, from several sources, every run repeated (a race in a barrier-free kernel shows
 * up only now and then), on the contract's graphs, grids, fractional and zero weights, disconnected graphs, stars,
 * long paths and the real datasets, with the defaults and with option values that drive the kernel through its
 * rarer paths (full rings spilling to the far list, a window narrower than the weights, split hubs, one worker).
 * Skipped where no GPU is present, except the check that the host reads the kernel's counter slots and sizes.
 */
@Tag("gpu")
class AsyncSsspGpuTest {
    /** Runs of each (graph, source, variant). */
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

    /** Runs {@code variants} from each source, {@code repeats} times each, and checks every answer. Returns the last. */
    private static SsspResult check(String name, CsrGraph g, int[] sources, int repeats, String... variants) {
        SsspResult last = null;
        try (ResidentGraph dev = gpu().load(g)) {
            for (int s : sources) {
                SsspResult expected = TestGraphs.ssspReference(g, s);
                for (String v : variants) {
                    for (int i = 0; i < repeats; i++) {
                        SsspResult r = Sssp.run(dev, s, v);
                        String what = name + ", " + v + ", source " + s + ", run " + i;
                        assertArrayEquals(expected.distances(), r.distances(), what);
                        Verification ver = SsspVerifier.verify(g, s, r, expected);
                        assertTrue(ver.ok(), () -> what + ": " + ver.message());
                        last = r;
                    }
                }
            }
        }
        return last;
    }

    private static int[] sources(CsrGraph g, int count) {
        return g.vertexCount() <= 20 ? IntStream.range(0, g.vertexCount()).toArray()
                : TestGraphs.sources(g, count, 17);
    }

    // ---------------------------------------------------------------- host side (no GPU needed)

    @Test
    void hostMirrorsTheKernelsSlotsAndSizes() {
        Map<String, Integer> c = CudaCounters.slots("sssp_async.cu", "AsyncCounter");
        assertEquals(AsyncSssp.PHASES, c.get("ASYNC_PHASES"));
        assertEquals(AsyncSssp.BUCKETS, c.get("ASYNC_BUCKETS"));
        assertEquals(AsyncSssp.ITEMS, c.get("ASYNC_ITEMS"));
        assertEquals(AsyncSssp.STALE, c.get("ASYNC_STALE"));
        assertEquals(AsyncSssp.RELAXED, c.get("ASYNC_RELAXED"));
        assertEquals(AsyncSssp.RING, c.get("ASYNC_RING"));
        assertEquals(AsyncSssp.FAR, c.get("ASYNC_FAR"));
        assertEquals(AsyncSssp.OVERFLOW, c.get("ASYNC_OVERFLOW"));
        assertEquals(AsyncSssp.PIECES, c.get("ASYNC_PIECES"));
        assertEquals(AsyncSssp.CLAIMS, c.get("ASYNC_CLAIMS"));
        assertEquals(AsyncSssp.REACHED, c.get("ASYNC_REACHED"));
        assertEquals(AsyncSssp.COUNTERS, c.get("ASYNC_COUNTERS"));
        c.forEach((name, slot) -> assertTrue(slot <= AsyncSssp.COUNTERS, name + " = " + slot));
        Map<String, Integer> layout = CudaCounters.slots("sssp_async.cu", "AsyncLayout");
        assertEquals(AsyncSssp.SLOTS, layout.get("ASYNC_SLOTS"));
        assertEquals(AsyncSssp.STATE_WORDS, layout.get("ASYNC_STATE_WORDS"));
        assertEquals(AsyncSssp.MAX_AHEAD, layout.get("ASYNC_MAX_AHEAD"));
        assertEquals(AsyncSssp.LOCAL_CAPACITY, layout.get("ASYNC_LOCAL_CAPACITY"));
    }

    @Test
    void ringsAndBucketWidthsAreSizedFromTheGraph() {
        assertEquals(AsyncSssp.MIN_RING_LOG, AsyncSssp.ringLog(1, true));
        assertEquals(AsyncSssp.MIN_RING_LOG, AsyncSssp.ringLog(16 * 1024, true));
        assertEquals(AsyncSssp.MIN_RING_LOG, AsyncSssp.ringLog(4 * 1024, false));
        assertEquals(15, AsyncSssp.ringLog(264_346, true));  // USA-road-d.NY: 32768 entries per slot, 16 MiB in all
        assertEquals(20, AsyncSssp.ringLog(1 << 22, false));  // Kronecker 22: 2^20 per slot, 512 MiB in all
        assertEquals(AsyncSssp.MAX_RING_LOG, AsyncSssp.ringLog(Integer.MAX_VALUE, true));
        assertTrue(SeedSssp.sparse(TestGraphs.path(10)));
        assertTrue(!SeedSssp.sparse(TestGraphs.kronecker().graph()));
        assertEquals(1, AsyncSssp.intDelta(0.3));
        assertEquals(1, AsyncSssp.intDelta(Double.NaN));
        assertEquals(16384, AsyncSssp.intDelta(14_984));
        assertEquals(8, AsyncSssp.intDelta(7));
        long n = 264_346;  // dist, parents, rings, two far lists, far marks, state, counters, the reached list
        assertEquals(8 * n + 4 * n + 8L * 64 * 32768 + 8 * n + 4 * n + 8 * 592 + 8 * 16 + 4 * n,
                DeviceBuffer.total(AsyncSssp.sizes(TestGraphs.path(264_346))));
    }

    // ---------------------------------------------------------------- graphs

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#tiny")
    void tinyGraphs(Fixture f) {
        check(f.name(), f.graph(), sources(f.graph(), 4), REPEATS, "async");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#random")
    void seededRandomGraphs(Fixture f) {
        check(f.name(), f.graph(), sources(f.graph(), 3), REPEATS, "async");
    }

    @Test
    void kroneckerGraph() {
        Fixture f = TestGraphs.kronecker();
        SsspResult r = check(f.name(), f.graph(), sources(f.graph(), 4), REPEATS, "async");
        System.out.printf("[async] %s: %.3f ms, %s%n", f.name(), r.timing().computeNanos() / 1e6, r.timing().counters());
    }

    static Stream<Fixture> generated() {
        List<Fixture> l = new ArrayList<>();
        l.add(new Fixture("grid road 300x300 w<=1000 seed=3",
                GraphBuilder.build(GridRoadGraph.generate(300, 300, 3, 1000))));
        l.add(new Fixture("grid road 2000x16 w<=100 seed=4 (deep)",
                GraphBuilder.build(GridRoadGraph.generate(2000, 16, 4, 100))));
        l.add(new Fixture("fractional weights directed n=3000 m=30000 seed=24", fractional(3_000, 30_000, 24, true)));
        l.add(new Fixture("fractional weights undirected n=20000 m=80000 seed=25",
                fractional(20_000, 80_000, 25, false)));
        l.add(new Fixture("zero weights undirected n=2000 m=10000 seed=26", zeroWeights(2_000, 10_000, 26, false)));
        l.add(new Fixture("zero weights directed n=20000 m=100000 seed=27", zeroWeights(20_000, 100_000, 27, true)));
        l.add(new Fixture("all weights zero n=500 m=3000 seed=28", allZero(500, 3_000, 28)));
        l.add(new Fixture("disconnected: sparse uniform n=30000 m=36000 w<=9 seed=29",
                GraphBuilder.build(UniformRandomGraph.generate(30_000, 36_000, 29, 9, false))));
        l.add(new Fixture("disconnected: two grids side by side", twoGrids(120, 120, 30)));
        l.add(new Fixture("star with 100000 leaves (split hub)", TestGraphs.star(100_000)));
        l.add(new Fixture("two hubs of 20000 leaves joined by an edge", twoHubs(20_000)));
        l.add(new Fixture("long path, 100000 vertices", TestGraphs.path(100_000)));
        l.add(new Fixture("heavy-tailed weights n=20000 m=120000 w in 1..2^30 seed=31", heavyTailed(20_000, 120_000, 31)));
        return l.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generated")
    void generatedGraphs(Fixture f) {
        check(f.name(), f.graph(), sources(f.graph(), 3), REPEATS, "async");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void realGraphs(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), file + " not found under ../shared/datasets");
        SsspResult r = check(file, g.get(), TestGraphs.sources(g.get(), 3, 17), 5, "async");
        System.out.printf("[async] %s: %.3f ms, %s%n", file, r.timing().computeNanos() / 1e6, r.timing().counters());
    }

    // ---------------------------------------------------------------- options: every path of the kernel

    /** Option values that move the work through the kernel's other paths; all must give the same answers. */
    private static final String[] OPTIONS = {
        "async,local=0",               // no local queue: every improved vertex through the rings
        "async,local=64,ahead=32",     // largest local queue and window
        "async,ahead=1",               // one bucket at a time
        "async,batch=1",               // claims of one item
        "async,piece=32",              // split every vertex of degree >= 64
        "async,check=1",
        "async,check=0",
        "async,df=0.01",               // narrow buckets: vertices beyond the window go through the far list
        "async,delta=1",
        "async,df=1000000",            // one bucket holds everything
        "async,bps=2",
        "async,warps=1",               // one worker (and the manager)
        "async,warps=3",
        "async,ahead=2,local=1,batch=2,piece=32,check=1",
    };

    @ParameterizedTest(name = "{0}")
    @MethodSource("optionGraphs")
    void optionsKeepTheAnswersExact(Fixture f) {
        check(f.name(), f.graph(), sources(f.graph(), 2), 2, OPTIONS);
    }

    static Stream<Fixture> optionGraphs() {
        return Stream.of(
                new Fixture("grid road 100x100 w<=1000 seed=5", GraphBuilder.build(GridRoadGraph.generate(100, 100, 5, 1000))),
                TestGraphs.random(3_000, 30_000, 2, 10, true),
                new Fixture("fractional weights undirected n=4000 m=30000 seed=32", fractional(4_000, 30_000, 32, false)),
                new Fixture("zero weights directed n=3000 m=20000 seed=33", zeroWeights(3_000, 20_000, 33, true)),
                new Fixture("star with 5000 leaves", TestGraphs.star(5_000)),
                TestGraphs.kronecker());
    }

    /** Small graphs have rings of 1024 entries: one bucket holding everything overflows them into the far list. */
    @Test
    void fullRingsSpillToTheFarList() {
        CsrGraph star = TestGraphs.star(5_000);
        SsspResult r = check("star with 5000 leaves, one bucket", star, new int[] {0, 17}, REPEATS, "async,df=1000000");
        assertTrue(r.timing().counter("overflow") > 0, () -> "a full ring: " + r.timing().counters());
        assertTrue(r.timing().counter("phases") > 1, () -> "far-list splits: " + r.timing().counters());
        CsrGraph dense = TestGraphs.random(3_000, 30_000, 3, 10, false).graph();
        SsspResult d = check("random 3000/30000, one bucket", dense, sources(dense, 2), REPEATS, "async,df=1000000");
        assertTrue(d.timing().counter("overflow") > 0, () -> "a full ring: " + d.timing().counters());
    }

    /** Buckets of width 1 and weights up to 1000: most vertices land beyond the 64-bucket window. */
    @Test
    void verticesBeyondTheWindowWaitInTheFarList() {
        CsrGraph grid = GraphBuilder.build(GridRoadGraph.generate(60, 60, 6, 1000));
        SsspResult r = check("grid road 60x60, delta=1", grid, sources(grid, 2), REPEATS, "async,delta=1");
        assertTrue(r.timing().counter("far") > 0, () -> "far list used: " + r.timing().counters());
        assertTrue(r.timing().counter("phases") > 1, () -> "several phases: " + r.timing().counters());
    }

    @Test
    void hubsAreSplitIntoPieces() {
        CsrGraph star = TestGraphs.star(100_000);
        SsspResult r = check("star with 100000 leaves", star, new int[] {0}, REPEATS, "async");
        assertTrue(r.timing().counter("pieces") > 0, () -> "pieces: " + r.timing().counters());
    }

    @Test
    void countersAreReported() {
        CsrGraph grid = GraphBuilder.build(GridRoadGraph.generate(50, 50, 7, 100));
        SsspResult r = check("grid road 50x50", grid, new int[] {0}, 1, "async");
        assertTrue(r.timing().counter("phases") >= 1, () -> r.timing().counters().toString());
        assertTrue(r.timing().counter("items") >= grid.vertexCount(), () -> r.timing().counters().toString());
        assertTrue(r.timing().counter("relaxed") >= grid.vertexCount() - 1,
                () -> "every vertex but the source is lowered at least once: " + r.timing().counters());
        assertTrue(r.timing().computeNanos() > 0);
    }

    /** New weights on the same arcs: the launcher's mean weight (its delta) follows, and the answers are exact. */
    @Test
    void reweightedGraphsAreFollowed() {
        CsrGraph a = GraphBuilder.build(GridRoadGraph.generate(80, 80, 8, 1000));
        EdgeList e = new EdgeList(a.vertexCount(), true, a.arcCount());
        for (int v = 0; v < a.vertexCount(); v++) {
            for (int k = a.rowStart(v); k < a.rowEnd(v); k++) e.add(v, a.columns()[k], 1 + (a.weights()[k] * 7) % 13);
        }
        CsrGraph b = GraphBuilder.build(e);
        ResidentGraph dev = gpu().load(a);
        try {
            for (int s : new int[] {0, 4321}) {
                assertArrayEquals(TestGraphs.ssspReference(a, s).distances(), Sssp.run(dev, s, "async").distances());
            }
            dev = dev.replace(b, gpu());
            for (int s : new int[] {0, 4321}) {
                SsspResult expected = TestGraphs.ssspReference(b, s);
                for (int i = 0; i < REPEATS; i++) {
                    SsspResult r = Sssp.run(dev, s, "async");
                    assertArrayEquals(expected.distances(), r.distances(), "reweighted, source " + s);
                    assertTrue(SsspVerifier.verify(b, s, r, expected).ok(), "reweighted, source " + s);
                }
            }
        } finally {
            dev.close();
        }
    }

    /** Async is the default on sparse graphs (mean degree below 8, the road networks), near-far on the others. */
    @Test
    void asyncIsTheDefaultOnSparseGraphsNotOnSmallDenseOnes() {
        try (ResidentGraph dev = gpu().load(TestGraphs.path(100))) {
            SsspResult r = Sssp.run(dev, 0, null);
            assertTrue(r.timing().counter("items") > 0, "async reports the items it took from its work lists");
        }
        CsrGraph dense = TestGraphs.kronecker().graph();
        try (ResidentGraph dev = gpu().load(dense)) {
            SsspResult r = Sssp.run(dev, 0, null);
            assertTrue(r.timing().counter("iterations") >= 0, "near-far reports iterations");
            assertEquals(-1, r.timing().counter("items"));
            assertTrue(Sssp.run(dev, 0, "async").timing().counter("items") > 0);
        }
    }

    // ---------------------------------------------------------------- generators

    static CsrGraph fractional(int n, int m, long seed, boolean directed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList list = new EdgeList(n, directed, m);
        for (int i = 0; i < m; i++) list.add(r.nextInt(n), r.nextInt(n), r.nextInt(1, 1000) / 7.0 + r.nextDouble());
        return GraphBuilder.build(list);
    }

    static CsrGraph zeroWeights(int n, int m, long seed, boolean directed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList list = new EdgeList(n, directed, m);
        for (int i = 0; i < m; i++) list.add(r.nextInt(n), r.nextInt(n), r.nextInt(4) == 0 ? 0 : r.nextInt(1, 20));
        return GraphBuilder.build(list);
    }

    static CsrGraph allZero(int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList list = new EdgeList(n, true, m);
        for (int i = 0; i < m; i++) list.add(r.nextInt(n), r.nextInt(n), 0);
        return GraphBuilder.build(list);
    }

    static CsrGraph twoGrids(int rows, int cols, long seed) {
        EdgeList one = GridRoadGraph.generate(rows, cols, seed, 500);
        int half = rows * cols;
        EdgeList both = new EdgeList(2 * half, false, 2 * one.size());
        for (int i = 0; i < one.size(); i++) {
            both.add(one.source(i), one.target(i), one.weight(i));
            both.add(half + one.source(i), half + one.target(i), one.weight(i) + 1);
        }
        return GraphBuilder.build(both);
    }

    static CsrGraph twoHubs(int leaves) {
        EdgeList e = new EdgeList(2 * leaves + 2, false, 2 * leaves + 1);
        int hubA = 0, hubB = leaves + 1;
        for (int i = 1; i <= leaves; i++) {
            e.add(hubA, i, 1 + i % 11);
            e.add(hubB, hubB + i, 1 + i % 5);
        }
        e.add(hubA, hubB, 1000);
        return GraphBuilder.build(e);
    }

    static CsrGraph heavyTailed(int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList list = new EdgeList(n, true, m);
        for (int i = 0; i < m; i++) list.add(r.nextInt(n), r.nextInt(n), 1 << r.nextInt(31));
        return GraphBuilder.build(list);
    }
}
