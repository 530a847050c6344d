package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsRepairTest;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.sssp.DeviceMirror;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspRepairTest;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Standing answers of a graph held in the wide form, on the host's side (issue 29 item 2; seeds 71-74, 81): every
 * answer a batch touches is given up quietly (no repair reads the wide graph's int-indexed arrays: no exception, no
 * device, nothing built for the host's repairs), the batch's screen still sets aside the answers it cannot touch (left
 * exact), and the caller's recompute compared with the previous answer gives the exact DELTA of every kind: the tree
 * vertices whose value or parent changed, the CC vertices whose label changed or that are new, and the MST edges that
 * left, joined or changed weight (a forest computed on a wide graph holds its edges, {@link MstKind.Forest#held}).
 * The GPU engine stands here as the CPU engine holding the narrow copy (it cannot hold a wide graph); the device's
 * side is {@code DeviceTreesWideGpuTest}.
 */
class WideStandingsTest {
    @ParameterizedTest
    @CsvSource({"false, false", "false, true", "true, false", "true, true"})
    void touchedAnswersAreGivenUpAndTheirRecomputeGivesExactDeltas(boolean directed, boolean treesOnDevice) {
        Random rnd = new Random(71 + (directed ? 1 : 0) + (treesOnDevice ? 2 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 300, directed, RepairStreams.Weights.MIXED);
        MutableGraph narrow = new MutableGraph(start), wide = new MutableGraph(start.widen(7));
        ChangeLog.Cursor seen = wide.log().cursor(ChangeLog.Detail.EDGES);
        Standings standings = Standings.of(RepairPolicy.DEFAULTS, treesOnDevice);
        try (ResidentGraph cpu = new CpuBackend().load(start)) {
            List<Standing<?>> answers = new ArrayList<>();
            for (int s : new int[] {0, 150, 299}) {
                answers.add(standings.open(TreeKind.SSSP, DijkstraReference.run(start, s), cpu));
                answers.add(standings.open(TreeKind.BFS, BfsReference.run(start, s), cpu));
            }
            answers.add(standings.open(CcKind.CC, CcReference.run(start), cpu));
            if (!directed) answers.add(standings.open(MstKind.MST, MstKind.Forest.of(wide.current(), KruskalReference.run(start)), cpu));
            int untouched = 0, recomputed = 0;
            for (int batch = 0; batch < 30; batch++) {
                int size = batch % 3 == 0 ? 1 : batch % 3 == 1 ? 5 : 40;
                for (int i = 0; i < size; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, narrow.current(), batch % 2 == 0);
                    try {
                        narrow.apply(e, 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException refused) {
                        continue;   // a removal of an arc that is not there, say
                    }
                    wide.apply(e, 0, Long.MAX_VALUE);
                }
                ChangedEdges changes = seen.read().edges();
                CsrGraph now = wide.current(), ref = narrow.current();
                assertTrue(now.wide(), "merged into the wide form again");
                Standings.Repairs r = standings.repair(answers, new Standings.Batch(now, changes, cpu, () -> cpu));
                assertEquals(0, r.toDevice(), "nothing handed to the device");
                assertNull(r.deviceFailure());
                for (int i = 0; i < answers.size(); i++) {
                    Standing<?> s = answers.get(i);
                    Standings.Outcome<?> o = r.outcomes().get(i);
                    String what = "batch " + batch + ", answer " + i + " (" + s.answer().getClass().getSimpleName() + ")";
                    assertTrue(o.intact(), what);
                    assertNull(o.failure(), what);
                    assertFalse(o.onDevice(), what);
                    Object fresh = fromScratch(s.answer(), ref, now);
                    if (o.repaired() != null) {   // screened out: the answer as it was, still exact
                        untouched++;
                        assertTrue(o.delta().isEmpty(), what);
                        assertSameAnswer(fresh, s.answer(), what + ", untouched");
                        continue;
                    }
                    recomputed++;
                    Object before = s.answer();
                    Delta d = compare(s, fresh);
                    assertNotNull(d, what + ": a DELTA, not a complete push");
                    assertExactDelta(before, fresh, d, what);
                    reset(standings, s, fresh, cpu);
                }
            }
            assertTrue(untouched > 0 && recomputed > 0, untouched + " untouched, " + recomputed + " recomputed");
        }
    }

    /**
     * The harness of {@code DeviceTreesWideGpuTest} with the host's reference as the recompute: SSSP and BFS answers
     * through every kind of update of {@link RepairStreams}, the stream's graph mirrored into a wide copy.
     */
    @ParameterizedTest
    @CsvSource({"false, MIXED", "true, REAL"})
    void treeAnswersFollowRandomStreamsOnAWideMirror(boolean directed, RepairStreams.Weights weights) {
        Random rnd = new Random(91 + (directed ? 1 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 400, directed, weights);
        int[] sources = {0, 200, 399};
        WideStream<SsspResult> sssp = new WideStream<>(SsspRepairTest.SSSP, TreeKind.SSSP, new CpuBackend().load(start),
                new MutableGraph(DeviceMirror.copy(start).widen(7)), (s, now) -> DijkstraReference.run(now, s));
        try {
            RepairStreams.Stats stats = RepairStreams.run(sssp, start, sources, new int[] {1, 10, 100}, 4, rnd, weights);
            RepairStreams.assertEveryKind(stats);
            assertTrue(sssp.recomputed > 0 && sssp.untouched > 0, "SSSP: " + sssp);
        } finally {
            sssp.close();
        }
        WideStream<BfsResult> bfs = new WideStream<>(BfsRepairTest.BFS, TreeKind.BFS, new CpuBackend().load(start),
                new MutableGraph(DeviceMirror.copy(start).widen(7)), (s, now) -> BfsReference.run(now, s));
        try {
            RepairStreams.run(bfs, start, sources, new int[] {1, 10, 100}, 4, rnd, weights);
            assertTrue(bfs.recomputed > 0, "BFS: " + bfs);
        } finally {
            bfs.close();
        }
    }

    @Test
    void mstForestsCompareOnlyWhereBothHoldTheirEdges() {
        Random rnd = new Random(81);
        CsrGraph start = RepairStreams.graph(rnd, 200, false, RepairStreams.Weights.INTEGER);
        MstKind.Forest onNarrow = MstKind.Forest.of(start, KruskalReference.run(start));
        MstKind.Forest onWide = MstKind.Forest.of(start.widen(5), KruskalReference.run(start));
        assertNull(onNarrow.held(), "a narrow graph's forest is repaired: it keeps no edge list");
        assertNotNull(onWide.held());
        assertNull(MstKind.MST.compare(onNarrow, onWide), "a complete push");
        assertTrue(MstKind.MST.compare(onWide, MstKind.Forest.of(start.widen(9), KruskalReference.run(start))).isEmpty(),
                "the same forest: nothing changed");
    }

    private static Object fromScratch(Object answer, CsrGraph narrow, CsrGraph wide) {
        if (answer instanceof SsspResult r) return DijkstraReference.run(narrow, r.source());
        if (answer instanceof BfsResult r) return BfsReference.run(narrow, r.source());
        if (answer instanceof CcResult) return CcReference.run(narrow);
        return MstKind.Forest.of(wide, KruskalReference.run(narrow));
    }

    @SuppressWarnings("unchecked")
    private static <A> Delta compare(Standing<A> s, Object fresh) {
        return s.kind().compare(s.answer(), (A) fresh);
    }

    @SuppressWarnings("unchecked")
    private static <A> void reset(Standings standings, Standing<A> s, Object fresh, ResidentGraph engine) {
        standings.reset(s, (A) fresh, engine);
        assertEquals(Standing.Placed.HOST, s.placed());
    }

    /** Equal values (parents of a tree may differ: it is checked by its DELTA's rules only where recomputed). */
    private static void assertSameAnswer(Object fresh, Object answer, String what) {
        if (answer instanceof TreeAnswer<?> a) {
            TreeAnswer<?> f = (TreeAnswer<?>) fresh;
            assertEquals(f.vertexCount(), a.vertexCount(), what);
            for (int v = 0; v < f.vertexCount(); v++) assertEquals(f.value(v), a.value(v), what + ": vertex " + v);
        } else if (answer instanceof CcResult c) {
            assertArrayEquals(((CcResult) fresh).labels(), c.labels(), what);
        }
    }

    /** {@code d} lists exactly what differs between {@code before} and {@code after}. */
    private static void assertExactDelta(Object before, Object after, Delta d, String what) {
        List<Integer> expected = new ArrayList<>();
        if (after instanceof TreeAnswer<?> b) {
            TreeAnswer<?> a = (TreeAnswer<?>) before;
            for (int v = 0; v < b.vertexCount(); v++) {
                boolean old = v < a.vertexCount();
                double was = old ? a.value(v) : Double.POSITIVE_INFINITY;
                int parent = old ? a.parent(v) : -1;
                if (Double.compare(was, b.value(v)) != 0 || parent != b.parent(v)) expected.add(v);
            }
        } else if (after instanceof CcResult c) {
            int[] was = ((CcResult) before).labels();
            for (int v = 0; v < c.labels().length; v++) if (v >= was.length || was[v] != c.labels()[v]) expected.add(v);
        } else {
            TreeMap<Long, Double> held = edges(((MstKind.Forest) before).held()), want = edges(((MstKind.Forest) after).held());
            for (int i = 0; i < d.edges().length; i++) {
                long pair = d.edges()[i];
                double w = d.weights()[i];
                assertTrue(Double.isNaN(w) ? held.containsKey(pair) && !want.containsKey(pair)
                        : !Double.valueOf(w).equals(held.get(pair)), what + ": edge " + pair + " listed but unchanged");
                if (Double.isNaN(w)) held.remove(pair);
                else held.put(pair, w);
            }
            assertEquals(want, held, what + ": the previous forest with the DELTA applied");
            return;
        }
        assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), d.vertices(), what + ": the DELTA's vertices");
    }

    private static TreeMap<Long, Double> edges(MstKind.Edges e) {
        TreeMap<Long, Double> m = new TreeMap<>();
        for (int i = 0; i < e.pairs().length; i++) m.put(e.pairs()[i], e.weights()[i]);
        return m;
    }
}
