package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.Backends;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsAtTargets;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsSummaries;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstSummary;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspAtTargets;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspSummaries;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Resident graphs on lanes of their own, worked from several threads at once: two static graphs (a Kronecker graph,
 * dense and undirected; a grid road graph, sparse) each queried by two threads (so a lane's lock is contended too),
 * and two graphs (uniform random, one undirected, one directed) each updated and queried by its own thread, as a
 * partition's thread does. Every answer (BFS, SSSP and MST in full, BFS and SSSP summaries of several sources, MST
 * summaries, BFS and SSSP at targets) is checked against the CPU reference on the version it was asked on, and full
 * answers by the verifiers. The same workload on one shared lane ({@link GpuSettings#lanes()} off) gives the same
 * answers with never two calls at once. A graph that does not fit what is left of the device is refused with
 * {@link GraphTooLargeException} (two loaded at once with room for one: exactly one refused) while a loaded one keeps
 * answering. Seeds are fixed (printed in the failure messages); skipped without a GPU.
 */
@Tag("gpu")
class ConcurrentLanesGpuTest extends GpuTests {
    private static final long SEED = 20_261_130L;
    private static final int SOURCES = 4;
    private static final long TIMEOUT_MINUTES = 5;

    @Test
    void graphsOnTheirOwnLanesAnswerConcurrently() throws Exception {
        assertTrue(gpu.context().lanes(), "lanes are on by default");
        workload(gpu, 6);
        assertTrue(gpu.context().peakConcurrentCalls() >= 2,
                "device work of several graphs ran at once: peak " + gpu.context().peakConcurrentCalls());
    }

    @Test
    void oneSharedLaneGivesTheSameAnswersOneCallAtATime() throws Exception {
        try (GpuBackend one = Backends.gpu(GpuSettings.DEFAULTS.withLanes(false))) {
            assertFalse(one.context().lanes());
            workload(one, 2);
            assertEquals(1, one.context().peakConcurrentCalls(), "one lane: one call at a time");
        }
    }

    /** Six threads on four graphs for {@code rounds} rounds each; fails with the first wrong answer or error. */
    private static void workload(GpuBackend engine, int rounds) throws Exception {
        CsrGraph kron = GraphBuilder.build(KroneckerGraph.generate(14, 16, SEED + 1));
        CsrGraph grid = GraphBuilder.build(GridRoadGraph.generate(150, 150, SEED + 2, 1000));
        CsrGraph undirected = GraphBuilder.build(UniformRandomGraph.generate(20_000, 120_000, SEED + 3, 50, false));
        CsrGraph directed = GraphBuilder.build(UniformRandomGraph.generate(10_000, 60_000, SEED + 4, 50, true));
        List<ResidentGraph> held = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            ResidentGraph rk = load(engine, kron, held), rg = load(engine, grid, held);
            ResidentGraph ru = load(engine, undirected, held), rd = load(engine, directed, held);
            Expected ek = new Expected(kron, sources(kron, SEED + 1)), eg = new Expected(grid, sources(grid, SEED + 2));
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                ResidentGraph r = t < 2 ? rk : rg;
                Expected e = t < 2 ? ek : eg;
                int first = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < rounds; round++) {
                        for (Query q : Query.values()) q.check(r, e, "static " + e.name + ", thread " + first + ", round " + round);
                    }
                    return rounds * Query.values().length;
                }));
            }
            done.add(pool.submit(updating(ru, undirected, SEED + 3, rounds, start)));
            done.add(pool.submit(updating(rd, directed, SEED + 4, rounds, start)));
            start.countDown();
            int answers = 0;
            for (Future<Integer> f : done) answers += result(f);
            assertEquals(6 * rounds * Query.values().length, answers);
        } finally {
            pool.shutdownNow();
            held.forEach(ResidentGraph::close);
        }
    }

    /** A thread that applies random update runs to {@code r} and checks every query kind after each run. */
    private static Callable<Integer> updating(ResidentGraph r, CsrGraph start, long seed, int rounds, CountDownLatch go) {
        return () -> {
            go.await();
            Random rnd = new Random(seed);
            CsrGraph reference = start;
            for (int round = 0; round < rounds; round++) {
                boolean structural = round % 2 == 1;
                for (int i = 0, k = 1 + rnd.nextInt(30); i < k; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, reference, structural);
                    reference = UpdateStreams.applyBoth(r.mutable(), reference, e, "seed " + seed + ", round " + round);
                }
                Expected e = new Expected(reference, sources(reference, seed + round));
                for (Query q : Query.values()) q.check(r, e, "updated " + e.name + ", round " + round);
            }
            return rounds * Query.values().length;
        };
    }

    private static ResidentGraph load(GpuBackend engine, CsrGraph g, List<ResidentGraph> held) {
        ResidentGraph r = engine.load(g);
        held.add(r);
        return r;
    }

    private static int result(Future<Integer> f) throws Exception {
        try {
            return f.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error err) throw err;   // an assertion of a worker thread
            throw (Exception) e.getCause();
        }
    }

    /** {@code SOURCES} seeded sources with out-arcs (distinct where the graph has enough). */
    private static int[] sources(CsrGraph g, long seed) {
        int[] withArcs = IntStream.range(0, g.vertexCount()).filter(v -> g.degree(v) > 0).toArray();
        Random rnd = new Random(seed);
        return IntStream.range(0, SOURCES).map(i -> withArcs[rnd.nextInt(withArcs.length)]).toArray();
    }

    /** The CPU's answers on one version of a graph, for a few sources. */
    private static final class Expected {
        final CsrGraph graph;
        final String name;
        final int[] sources;
        final BfsResult[] bfs;
        final SsspResult[] sssp;
        final MstResult mst;

        Expected(CsrGraph graph, int[] sources) {
            this.graph = graph;
            this.name = (graph.directed() ? "directed" : "undirected") + " n=" + graph.vertexCount() + " m="
                    + graph.edgeCount();
            this.sources = sources;
            bfs = new BfsResult[sources.length];
            sssp = new SsspResult[sources.length];
            for (int i = 0; i < sources.length; i++) {
                bfs[i] = BfsReference.run(graph, sources[i]);
                sssp[i] = DijkstraReference.run(graph, sources[i]);
            }
            mst = KruskalReference.run(graph);
        }

        /** A few targets: the sources, the last vertex, one in the middle. */
        int[] targets() {
            int[] t = IntStream.concat(IntStream.of(sources), IntStream.of(graph.vertexCount() - 1, graph.vertexCount() / 2)).toArray();
            return t;
        }
    }

    /** The queries each thread asks, each checked against {@link Expected}. */
    private enum Query {
        BFS {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                int i = 0;
                BfsResult got = Bfs.run(r, e.sources[i], null);
                assertArrayEquals(e.bfs[i].hops(), got.hops(), what + ": BFS hops from " + e.sources[i]);
                assertTrue(BfsVerifier.verify(e.graph, e.sources[i], got, e.bfs[i]).ok(), what + ": BFS verified");
            }
        },
        SSSP {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                int i = 1;
                SsspResult got = Sssp.run(r, e.sources[i], null);
                assertArrayEquals(e.sssp[i].distances(), got.distances(), what + ": SSSP distances from " + e.sources[i]);
                assertTrue(SsspVerifier.verify(e.graph, e.sources[i], got, e.sssp[i]).ok(), what + ": SSSP verified");
            }
        },
        MST {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                MstResult got = Mst.run(r, null);
                assertArrayEquals(e.mst.edgeIds(), got.edgeIds(), what + ": MST edges");
                assertTrue(MstVerifier.verify(e.graph, got, e.mst).ok(), what + ": MST verified");
            }
        },
        BFS_SUMMARIES {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                BfsSummaries want = BfsSummaries.of(e.bfs);
                BfsSummaries got = r.run(Bfs.SUMMARIES, new Sources(e.sources), null);
                assertArrayEquals(want.reached(), got.reached(), what + ": BFS summaries, reached");
                assertArrayEquals(want.maxHops(), got.maxHops(), what + ": BFS summaries, max hops");
                BfsSummaries one = r.run(Bfs.SUMMARIES, new Sources(new int[] {e.sources[2]}), null);
                assertEquals(want.reached()[2], one.reached()[0], what + ": BFS summary of one source");
                assertEquals(want.maxHops()[2], one.maxHops()[0], what + ": BFS summary of one source, max hops");
            }
        },
        SSSP_SUMMARIES {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                SsspSummaries want = SsspSummaries.of(e.sssp);
                SsspSummaries got = r.run(Sssp.SUMMARIES, new Sources(e.sources), null);
                assertArrayEquals(want.reached(), got.reached(), what + ": SSSP summaries, reached");
                assertArrayEquals(want.maxDistances(), got.maxDistances(), what + ": SSSP summaries, max distance");
                SsspSummaries one = r.run(Sssp.SUMMARIES, new Sources(new int[] {e.sources[3]}), null);
                assertEquals(want.maxDistances()[3], one.maxDistances()[0], what + ": SSSP summary of one source");
            }
        },
        MST_SUMMARY {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                MstSummary want = MstSummary.of(e.mst);
                MstSummary got = r.run(Mst.SUMMARY, WholeGraph.QUERY, null);
                assertEquals(want.totalWeight(), got.totalWeight(), what + ": MST summary, weight");
                assertEquals(want.edges(), got.edges(), what + ": MST summary, edges");
                assertEquals(want.components(), got.components(), what + ": MST summary, components");
            }
        },
        TARGETS {
            @Override
            void check(ResidentGraph r, Expected e, String what) {
                int[] targets = e.targets();
                BfsAtTargets b = r.run(Bfs.AT_TARGETS, new Targets(e.sources[0], targets), null);
                assertArrayEquals(BfsAtTargets.of(e.bfs[0], targets).hops(), b.hops(), what + ": BFS at targets");
                SsspAtTargets s = r.run(Sssp.AT_TARGETS, new Targets(e.sources[1], targets), null);
                assertArrayEquals(SsspAtTargets.of(e.sssp[1], targets).distances(), s.distances(),
                        what + ": SSSP at targets");
            }
        };

        abstract void check(ResidentGraph r, Expected e, String what);
    }

    @Test
    void aGraphTooLargeForWhatIsLeftIsRefusedWhileOthersKeepAnswering() throws Exception {
        CsrGraph small = GraphBuilder.build(UniformRandomGraph.generate(20_000, 160_000, SEED + 5, 100, false));
        CsrGraph big = GraphBuilder.build(UniformRandomGraph.generate(300_000, 3_000_000, SEED + 6, 100, true));
        long needBig;
        try (ResidentGraph probe = gpu.load(big)) {
            needBig = probe.residentBytes();   // the CSR and the at-load launchers: what a load checks for
        }
        CudaContext c = gpu.context();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger answered = new AtomicInteger();
        DeviceBuffer ballast = null;
        try (ResidentGraph r = gpu.load(small)) {
            Expected e = new Expected(small, sources(small, SEED + 5));
            for (Query q : Query.values()) q.check(r, e, "warm-up");   // every launcher open before memory runs short
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                readers.add(pool.submit(() -> {
                    while (!stop.get()) {
                        for (Query q : Query.values()) q.check(r, e, "while memory is short");
                        answered.incrementAndGet();
                    }
                    return 0;
                }));
            }
            // leave room for one big graph and a half, above the reserve
            ballast = c.call(() -> c.allocating(() -> DeviceBuffer.allocate(c, null,
                    c.freeBytes() - GpuBackend.RESERVE_BYTES - needBig - needBig / 2)));
            int before = answered.get();
            List<Future<ResidentGraph>> loads = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int t = 0; t < 2; t++) {
                loads.add(pool.submit(() -> {
                    go.await();
                    return gpu.load(big);
                }));
            }
            go.countDown();
            ResidentGraph loaded = null;
            int refused = 0;
            for (Future<ResidentGraph> f : loads) {
                try {
                    ResidentGraph got = f.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
                    assertTrue(loaded == null, "room for one big graph, both loaded");
                    loaded = got;
                } catch (ExecutionException x) {
                    assertInstanceOf(GraphTooLargeException.class, x.getCause(), "refused as too large: " + x.getCause());
                    refused++;
                }
            }
            assertEquals(1, refused, "two big graphs at once, room for one: exactly one refused");
            assertNotNull(loaded);
            try (ResidentGraph one = loaded) {
                int s = sources(big, SEED + 6)[0];
                assertArrayEquals(DijkstraReference.run(big, s).distances(), Sssp.run(one, s, null).distances(),
                        "the big graph that fitted answers");
            }
            try {
                ResidentGraph none = gpu.load(GraphBuilder.build(UniformRandomGraph.generate(600_000, 6_000_000, SEED + 7, 100, true)));
                none.close();
                throw new AssertionError("a graph twice the room left was loaded");
            } catch (GraphTooLargeException expected) {
                assertTrue(expected.getMessage().contains("needs"), expected.getMessage());
            }
            stop.set(true);
            for (Future<Integer> f : readers) result(f);
            assertTrue(answered.get() > before, "the small graph kept answering: " + (answered.get() - before)
                    + " rounds while memory was short");
        } finally {
            stop.set(true);
            pool.shutdownNow();
            DeviceBuffer b = ballast;
            if (b != null) c.run(b::close);
        }
        try (ResidentGraph again = gpu.load(big)) {
            assertEquals(needBig, again.residentBytes(), "with the memory back, the big graph loads");
        }
    }
}
