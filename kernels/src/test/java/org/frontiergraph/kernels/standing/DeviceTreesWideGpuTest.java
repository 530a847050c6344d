package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsRepairTest;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cc.Cc;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.graph.WideGraphException;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.DeviceMirror;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspRepairTest;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Standing answers of a graph held on the GPU in the wide form (64-bit row offsets, its arcs in pages of a few arcs:
 * {@link CsrGraph#widen}; issue 29 item 2), through the random update streams of {@link RepairStreams} as
 * {@link DeviceTreesGpuTest} runs them: the device standings keep no tree there (the repair kernels read int32
 * offsets; no device memory taken), the host's repairs give up at once, the batch's screen sets aside the trees it
 * cannot touch, and each touched answer is recomputed on the GPU by its default there (near-far SSSP, BFS, ECL CC and
 * MST, all through the {@code _o64} entry points) and compared with the previous one, as the worker's recompute does:
 * every answer checked against a reference from scratch on the narrow copy (distances and hops exactly, parents by
 * the verifiers and free of cycles), its DELTA equal to the vertices that actually changed (CC: labels; MST: the
 * forest edges that left, joined or changed weight). Trees opened while the graph was narrow are freed at its first
 * wide batch, and {@link DeviceTrees#repair} refuses a wide copy. Graphs: random (directed and undirected), a road-like
 * grid, a Kronecker graph and USA-road-d.NY when the datasets are present.
 */
@Tag("gpu")
class DeviceTreesWideGpuTest extends GpuTests {
    /** Arcs a page holds in the wide copies (NY: more, so that its re-uploads after structural batches stay short). */
    static final int PAGE_ARCS = 7, NY_PAGE_ARCS = 61;

    static WideStream<SsspResult> sssp(CsrGraph start, int pageArcs) {
        ResidentGraph dev = gpu.load(DeviceMirror.copy(start).widen(pageArcs));
        return new WideStream<>(SsspRepairTest.SSSP, TreeKind.SSSP, dev, dev.mutable(), (s, now) -> Sssp.run(dev, s, null));
    }

    static WideStream<BfsResult> bfs(CsrGraph start, int pageArcs) {
        ResidentGraph dev = gpu.load(DeviceMirror.copy(start).widen(pageArcs));
        return new WideStream<>(BfsRepairTest.BFS, TreeKind.BFS, dev, dev.mutable(), (s, now) -> Bfs.run(dev, s, null));
    }

    private static void assertFollowed(WideStream<?> d, RepairStreams.Stats stats, String what) {
        System.out.println("[wide standing trees] " + what + ": " + d + "; " + stats);
        assertTrue(d.recomputed > 0, "recomputed on the device: " + d);
    }

    @ParameterizedTest
    @CsvSource({"false, MIXED", "true, MIXED", "false, INTEGER", "true, REAL"})
    void ssspAnswersFollowRandomStreams(boolean directed, RepairStreams.Weights weights) {
        Random rnd = new Random(401 + (directed ? 1 : 0) + 2 * weights.ordinal());
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed, weights);
        WideStream<SsspResult> d = sssp(start, PAGE_ARCS);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, start, new int[] {0, 555, 1_234, 1_997}, new int[] {1, 10, 100}, 6, rnd, weights);
            assertFollowed(d, stats, "SSSP, directed " + directed + ", " + weights);
            RepairStreams.assertEveryKind(stats);
        } finally {
            d.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void bfsAnswersFollowRandomStreams(boolean directed) {
        Random rnd = new Random(411 + (directed ? 1 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        WideStream<BfsResult> d = bfs(start, PAGE_ARCS);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, start, new int[] {0, 555, 1_234, 1_997}, new int[] {1, 10, 100}, 6, rnd);
            assertFollowed(d, stats, "BFS, directed " + directed);
            RepairStreams.assertEveryKind(stats);
        } finally {
            d.close();
        }
    }

    @Test
    void answersFollowStreamsOnARoadGridAKroneckerGraphAndNewYork() {
        Random rnd = new Random(421);
        CsrGraph grid = GraphBuilder.build(GridRoadGraph.generate(60, 60, 5, 100));
        WideStream<SsspResult> g = sssp(grid, PAGE_ARCS);
        try {
            RepairStreams.Stats stats = RepairStreams.run(g, grid, new int[] {0, 1_830, 3_599}, new int[] {1, 10, 100}, 6, rnd,
                    RepairStreams.Weights.INTEGER);
            assertFollowed(g, stats, "SSSP, grid 60 x 60");
            assertTrue(g.untouched > 0, "the screen sets trees aside on a wide graph too: " + g);
        } finally {
            g.close();
        }
        CsrGraph kron = GraphBuilder.build(KroneckerGraph.generate(12, 8, 7));
        int[] sources = TestGraphs.sources(kron, 3, 5);
        WideStream<SsspResult> k = sssp(kron, PAGE_ARCS);
        try {
            RepairStreams.Stats stats = RepairStreams.run(k, kron, sources, new int[] {1, 10, 100}, 5, rnd, RepairStreams.Weights.INTEGER);
            assertFollowed(k, stats, "SSSP, kronecker scale 12");
        } finally {
            k.close();
        }
        WideStream<BfsResult> b = bfs(kron, PAGE_ARCS);
        try {
            RepairStreams.Stats stats = RepairStreams.run(b, kron, sources, new int[] {1, 10, 100}, 5, rnd, RepairStreams.Weights.INTEGER);
            assertFollowed(b, stats, "BFS, kronecker scale 12");
        } finally {
            b.close();
        }
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        assumeTrue(ny.isPresent(), "USA-road-d.NY not in the datasets folder");
        WideStream<SsspResult> n = sssp(ny.get(), NY_PAGE_ARCS);
        try {
            RepairStreams.Stats stats = RepairStreams.run(n, ny.get(), TestGraphs.sources(ny.get(), 3, 9), new int[] {1, 10, 100}, 3, rnd,
                    RepairStreams.Weights.INTEGER);
            assertFollowed(n, stats, "SSSP, USA-road-d.NY");
        } finally {
            n.close();
        }
    }

    /**
     * Trees opened on the device while the graph was narrow are freed by its first batch in the wide form (the graph
     * grew past 2^31 - 8 arcs: here a wide host copy handed with the batch), their answers left intact for the
     * recompute, which keeps no tree on the wide copy; the device's repair refuses a wide copy by name.
     */
    @Test
    void treesOpenedWhileNarrowAreFreedWhenTheGraphIsWide() {
        Random rnd = new Random(431);
        CsrGraph start = RepairStreams.graph(rnd, 1_000, false, RepairStreams.Weights.INTEGER);
        MutableGraph host = new MutableGraph(start.widen(PAGE_ARCS)), reference = new MutableGraph(start);
        ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
        Standings standings = Standings.of(RepairPolicy.DEFAULTS, true);
        try (ResidentGraph narrow = gpu.load(DeviceMirror.copy(start))) {
            long before = narrow.residentBytes();
            List<Standing<?>> kept = new ArrayList<>();
            for (int s : new int[] {0, 500}) {
                kept.add(standings.open(TreeKind.SSSP, DijkstraReference.run(start, s), narrow));
                kept.add(standings.open(TreeKind.BFS, BfsReference.run(start, s), narrow));
            }
            for (Standing<?> s : kept) assertSame(Standing.Placed.TREE_OPENED, s.placed(), "a tree on the narrow copy");
            assertEquals(before + kept.size() * 12L * start.vertexCount(), narrow.residentBytes());
            int n = start.vertexCount();
            EdgeEdits grow = new EdgeEdits(1, new int[0], new int[0], new int[0], new int[0], new double[0], new int[] {0},
                    new int[] {n}, new double[] {3});   // a new vertex touches every tree
            host.apply(grow, 0, Long.MAX_VALUE);
            reference.apply(grow, 0, Long.MAX_VALUE);
            CsrGraph wide = host.current();
            assertTrue(wide.wide());
            Standings.Repairs r = standings.repair(kept, new Standings.Batch(wide, seen.read().edges(), narrow, () -> narrow));
            assertEquals(0, r.toDevice());
            assertNull(r.deviceFailure());
            for (Standings.Outcome<?> o : r.outcomes()) {
                assertNull(o.repaired(), "given up: recomputed by the caller");
                assertTrue(o.intact());
                assertNull(o.failure());
            }
            assertEquals(before, narrow.residentBytes(), "the trees' device memory freed");
            assertEquals(0, DeviceTreeAnswers.on(narrow, RepairPolicy.DEFAULTS).orElseThrow().trees().size());
            try (ResidentGraph onWide = gpu.load(wide)) {
                for (Standing<?> s : kept) {
                    TreeAnswer<?> a = (TreeAnswer<?>) s.answer();
                    TreeAnswer<?> fresh = a.unitWeights() ? Bfs.run(onWide, a.source(), null) : Sssp.run(onWide, a.source(), null);
                    TreeAnswer<?> ref = a.unitWeights() ? BfsReference.run(reference.current(), a.source())
                            : DijkstraReference.run(reference.current(), a.source());
                    for (int v = 0; v <= n; v++) assertEquals(ref.value(v), fresh.value(v), "recomputed on the wide copy, vertex " + v);
                    reset(standings, s, fresh, onWide);
                    assertSame(Standing.Placed.HOST, s.placed(), "no tree on the wide copy");
                }
                DeviceTrees trees = DeviceTrees.on(onWide, RepairPolicy.DEFAULTS).orElseThrow();
                DeviceTree t = trees.open(0, false, new double[n + 1], new int[n + 1]);
                ChangedEdges none = seen.read().edges();
                assertThrows(WideGraphException.class, () -> trees.repair(List.of(t), none, Screen.of(wide, none), (sc, x) -> true,
                        (g, x) -> { throw new AssertionError("no host repair"); }), "the repair kernels read int32 offsets");
                trees.close(t);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <A> void reset(Standings standings, Standing<A> s, Object fresh, ResidentGraph engine) {
        standings.reset(s, (A) fresh, engine);
    }

    /**
     * Standing CC and MST on a wide copy through random batches (re-weights, insertions, removals, new vertices):
     * each batch that touches them recomputed on the device (ECL CC, MST through the {@code _o64} entry points) and
     * compared with the previous answer: the labels and the forest equal the references on the narrow copy, and
     * the DELTAs list exactly what changed (MST: a DELTA too, its forests holding their edges on a wide graph).
     */
    @ParameterizedTest
    @CsvSource({"random, 441", "kronecker, 442"})
    void ccAndMstFollowRandomBatches(String shape, long seed) {
        Random rnd = new Random(seed);
        CsrGraph start = shape.equals("random") ? RepairStreams.graph(rnd, 2_000, false, RepairStreams.Weights.MIXED)
                : GraphBuilder.build(KroneckerGraph.generate(11, 8, seed));
        MutableGraph narrow = new MutableGraph(start);
        Standings standings = Standings.of(RepairPolicy.DEFAULTS, true);
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(start).widen(PAGE_ARCS))) {
            ChangeLog.Cursor seen = dev.mutable().log().cursor(ChangeLog.Detail.EDGES);
            Standing<CcResult> cc = standings.open(CcKind.CC, Cc.run(dev, null), dev);
            Standing<MstKind.Forest> mst = standings.open(MstKind.MST, MstKind.Forest.of(dev.graph(), Mst.run(dev, null)), dev);
            int recomputed = 0;
            for (int batch = 0; batch < 24; batch++) {
                int size = batch % 3 == 0 ? 1 : batch % 3 == 1 ? 8 : 60;
                for (int i = 0; i < size; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, narrow.current(), batch % 2 == 0);
                    try {
                        narrow.apply(e, 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException refused) {
                        continue;
                    }
                    dev.mutable().apply(e, 0, Long.MAX_VALUE);
                }
                CsrGraph ref = narrow.current(), held = dev.graph();
                String what = shape + ", batch " + batch;
                assertTrue(held.wide(), what);
                Standings.Repairs r = standings.repair(List.of(cc, mst), new Standings.Batch(held, seen.read().edges(), dev, () -> dev));
                assertEquals(0, r.toDevice(), what);
                for (Standings.Outcome<?> o : r.outcomes()) assertTrue(o.intact() && o.failure() == null && !o.onDevice(), what);
                if (r.outcomes().get(0).repaired() == null) {
                    recomputed++;
                    CcResult before = cc.answer(), fresh = Cc.run(dev, null);
                    assertArrayEquals(CcReference.run(ref).labels(), fresh.labels(), what + ": labels");
                    List<Integer> changed = new ArrayList<>();
                    for (int v = 0; v < fresh.labels().length; v++) {
                        if (v >= before.labels().length || before.labels()[v] != fresh.labels()[v]) changed.add(v);
                    }
                    assertArrayEquals(changed.stream().mapToInt(Integer::intValue).toArray(), CcKind.CC.compare(before, fresh).vertices(),
                            what + ": the CC DELTA");
                    standings.reset(cc, fresh, dev);
                } else {
                    assertArrayEquals(CcReference.run(ref).labels(), cc.answer().labels(), what + ": labels left as they were");
                }
                assertNull(r.outcomes().get(1).repaired(), what + ": MST is recomputed after every batch");
                MstResult forest = Mst.run(dev, null);
                assertArrayEquals(KruskalReference.run(ref).edgeIds(), forest.edgeIds(), what + ": the forest");
                MstKind.Forest next = MstKind.Forest.of(dev.graph(), forest);
                Delta d = MstKind.MST.compare(mst.answer(), next);
                assertNotNull(d, what + ": an MST DELTA, not a complete push");
                TreeMap<Long, Double> edges = edges(mst.answer().held());
                for (int i = 0; i < d.edges().length; i++) {
                    if (Double.isNaN(d.weights()[i])) assertNotNull(edges.remove(d.edges()[i]), what + ": a removed edge was held");
                    else edges.put(d.edges()[i], d.weights()[i]);
                }
                assertEquals(edges(next.held()), edges, what + ": the previous forest with the DELTA applied");
                standings.reset(mst, next, dev);
            }
            assertTrue(recomputed > 0, shape + ": CC recomputed after " + recomputed + " batches");
            standings.close(cc);
            standings.close(mst);
        }
    }

    private static TreeMap<Long, Double> edges(MstKind.Edges e) {
        TreeMap<Long, Double> m = new TreeMap<>();
        for (int i = 0; i < e.pairs().length; i++) m.put(e.pairs()[i], e.weights()[i]);
        return m;
    }
}
