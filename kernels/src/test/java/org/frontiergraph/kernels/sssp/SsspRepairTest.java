package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.standing.Screen;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeRepair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SsspRepair through random update streams (see {@link RepairStreams}): after every batch the repaired answer passes
 * SsspVerifier, equals DijkstraReference's distances exactly, has acyclic parents, and lists exactly the vertices that
 * changed. Hand-made cases cover zero-weight cycles, the budget and the checks themselves.
 */
public class SsspRepairTest {
    /** SsspRepair as the stream driver sees it. */
    public static final Adapter SSSP = new Adapter(false);

    public record Adapter(boolean unlimited) implements RepairStreams.Algorithm<SsspResult> {
        @Override
        public SsspResult reference(CsrGraph g, int source) { return DijkstraReference.run(g, source); }

        @Override
        public SsspResult copy(SsspResult r) {
            return new SsspResult(r.source(), r.distances().clone(), r.parents().clone(), r.timing());
        }

        @Override
        public RepairStreams.View view(SsspResult r) { return new RepairStreams.View(r.distances(), r.parents()); }

        @Override
        public RepairStreams.Repaired<SsspResult> repair(CsrGraph g, SsspResult previous, ChangedEdges changes) {
            TreeRepair.Repaired<SsspResult> r = unlimited ? SsspRepair.repair(g, previous, changes, Long.MAX_VALUE)
                    : SsspRepair.repair(g, previous, changes);
            return r == null ? null : wrap(r);
        }

        @Override
        public Verification verify(CsrGraph g, int source, SsspResult r, SsspResult reference) {
            return SsspVerifier.verify(g, source, r, reference);
        }
    }

    static RepairStreams.Repaired<SsspResult> wrap(TreeRepair.Repaired<SsspResult> r) {
        return new RepairStreams.Repaired<>(r.result(), r.changed());
    }

    @ParameterizedTest
    @CsvSource({"true, false", "false, false", "true, true", "false, true"})
    void randomStreamsRepairExactlyAfterEveryBatch(boolean directed, boolean unlimited) {
        Random rnd = new Random((directed ? 31 : 32) + (unlimited ? 10 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        int[] sources = {0, 1_234, 2_000 - 3};   // the last: on a pendant path, cut off with its bridge
        int[] sizes = {1, 10, 100};
        RepairStreams.Stats stats = RepairStreams.run(new Adapter(unlimited), start, sources, sizes, 25, rnd);
        RepairStreams.assertRepairedWithinBudget(stats, sources.length, 25, sizes, unlimited);
    }

    /** {@link SsspRepair#repairAll} as the stream driver sees it (each entry also compared with the repair alone). */
    static final RepairStreams.Together<SsspResult> TOGETHER = RepairStreams.together(SSSP, (g, previous, changes) -> {
        TreeRepair.Repaired<SsspResult>[] all = SsspRepair.repairAll(g, previous.toArray(new SsspResult[0]), changes, SsspRepair.defaultBudget(g));
        java.util.List<RepairStreams.Repaired<SsspResult>> out = new java.util.ArrayList<>();
        for (TreeRepair.Repaired<SsspResult> r : all) out.add(r == null ? null : new RepairStreams.Repaired<>(r.result(), r.changed()));
        return out;
    });

    /**
     * Many trees of one graph repaired together (the screen sets the untouched aside, the others are repaired side by
     * side on the common pool): through random streams, every entry equals the repair of that tree alone and the
     * fresh reference, after every batch.
     */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void manyTreesRepairedTogetherEqualEachAlone(boolean directed) {
        Random rnd = new Random(directed ? 36 : 37);
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        int[] sources = new int[24];
        for (int i = 0; i < sources.length; i++) sources[i] = i < 3 ? new int[] {0, 1_234, 2_000 - 3}[i] : 7 + 83 * i;
        int[] sizes = {1, 10, 100};
        RepairStreams.Stats stats = RepairStreams.run(TOGETHER, start, sources, sizes, 12, rnd);
        RepairStreams.assertEveryKind(stats);
        assertTrue(stats.repaired(1) >= 0.9 * 12 * sources.length, "single updates repaired: " + stats);
    }

    @Test
    void singleReweightsOnAGraphOfThousandsNeverGiveUp() {
        Random rnd = new Random(33);
        CsrGraph start = RepairStreams.graph(rnd, 5_000, true);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        SsspResult answer = DijkstraReference.run(start, 0);
        long work = 0;
        for (int i = 0; i < 200; i++) {
            int arc = rnd.nextInt(start.arcCount());
            int u = start.sourceOf(arc), v = start.columns()[arc];
            g.apply(EdgeEdits.reweight(u, v, start.weights()[arc] * (i % 2 == 0 ? 0.5 : 3) + 0.25), 0, Long.MAX_VALUE);
            SsspResult before = SSSP.copy(answer);
            TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(g.current(), answer, seen.read().edges());
            assertNotNull(r, "re-weight " + i + " of " + u + "->" + v + " gave up");
            RepairStreams.check(SSSP, g.current(), 0, before, wrap(r), "re-weight " + i);
            assertTrue(r.result().timing().computeNanos() > 0);
            work += r.result().timing().counter("work");
            answer = r.result();
        }
        assertTrue(work / 200 < start.vertexCount() / 10, "a re-weight touches a small region: " + work / 200);
    }

    @Test
    void zeroWeightCyclesGetNoParentCycle() {
        // s=0 -> a=1 (1); a -> b=2 -> c=3 -> a all 0; s -> c (2): the tree is s->a->b->c
        CsrGraph start = TestGraphs.build(4, true, 0, 1, 1, 1, 2, 0, 2, 3, 0, 3, 1, 0, 0, 3, 2);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        SsspResult previous = DijkstraReference.run(start, 0);
        SsspResult before = SSSP.copy(previous);
        g.apply(EdgeEdits.reweight(0, 1, 5), 0, Long.MAX_VALUE);   // a's subtree goes; c, then a and b, come via s->c
        TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(g.current(), previous, seen.read().edges());
        RepairStreams.check(SSSP, g.current(), 0, before, wrap(r), "cycle");
        assertArrayEquals(new double[] {0, 2, 2, 2}, r.result().distances());
        assertArrayEquals(new int[] {0, 3, 1, 0}, r.result().parents());
        assertArrayEquals(new int[] {1, 2, 3}, r.changed());
        assertSame(previous.distances(), r.result().distances(), "in place when no vertex was added");
        assertEquals(3, r.result().timing().counter("invalidated"));
    }

    /**
     * The screen's promise: a tree it sets aside is one the repair would leave alone (no work, no changed vertex); and
     * on a road-like grid it sets many aside (a single re-weight is a tree arc of about half the trees).
     */
    @Test
    void theScreenSetsAsideOnlyTreesTheRepairWouldLeaveAlone() {
        CsrGraph start = GraphBuilder.build(GridRoadGraph.generate(30, 30, 38, 255));
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        Random rnd = new Random(38);
        SsspResult[] trees = new SsspResult[20];
        for (int i = 0; i < trees.length; i++) trees[i] = DijkstraReference.run(start, 45 * i);
        int aside = 0, all = 0;
        for (int step = 0; step < 300; step++) {
            CsrGraph now = g.current();
            int arc = rnd.nextInt(now.arcCount());
            double w = now.weights()[arc];
            g.apply(EdgeEdits.reweight(now.sourceOf(arc), now.columns()[arc], step % 2 == 0 ? w + 1 + rnd.nextInt(50)
                    : Math.max(1, w - 1 - rnd.nextInt(50))), 0, Long.MAX_VALUE);
            ChangedEdges changes = seen.read().edges();
            now = g.current();
            Screen screen = Screen.of(now, changes);
            assertEquals(2, screen.arcs(), "an undirected pair: both arcs");
            for (int i = 0; i < trees.length; i++) {
                boolean touched = screen.touches(trees[i]);
                SsspResult before = SSSP.copy(trees[i]);
                TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(now, trees[i], changes, Long.MAX_VALUE);
                RepairStreams.check(SSSP, now, trees[i].source(), before, wrap(r), "step " + step + ", tree " + i);
                all++;
                if (!touched) {
                    aside++;
                    assertEquals(0, r.result().timing().counter("work"), "step " + step + ", tree " + i + ": set aside, yet work");
                    assertEquals(0, r.changed().length);
                }
                trees[i] = r.result();
            }
        }
        assertTrue(aside > all / 5 && aside < all, "trees set aside: " + aside + " of " + all);
    }

    /** A lighter tree arc lowers its subtree by settling it: nothing is invalidated and pulled again. */
    @Test
    void aLighterTreeArcInvalidatesNothing() {
        // the path 0 -> 1 -> ... -> 99 (weight 2 each) and a detour 0 -> 99 (weight 500)
        int[] us = new int[100], vs = new int[100];
        double[] ws = new double[100];
        for (int i = 0; i < 99; i++) {
            us[i] = i;
            vs[i] = i + 1;
            ws[i] = 2;
        }
        us[99] = 0;
        vs[99] = 99;
        ws[99] = 500;
        CsrGraph start = TestGraphs.build(100, true, interleave(us, vs, ws));
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        SsspResult previous = DijkstraReference.run(start, 0);
        SsspResult before = SSSP.copy(previous);
        g.apply(EdgeEdits.reweight(10, 11, 0.5), 0, Long.MAX_VALUE);
        TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(g.current(), previous, seen.read().edges());
        RepairStreams.check(SSSP, g.current(), 0, before, wrap(r), "lighter");
        assertEquals(0, r.result().timing().counter("invalidated"));
        assertEquals(89, r.changed().length, "11 .. 99 moved closer");
        assertEquals(2 * 10 + 0.5 + 2 * 88, r.result().distances()[99]);
    }

    private static double[] interleave(int[] us, int[] vs, double[] ws) {
        double[] out = new double[3 * us.length];
        for (int i = 0; i < us.length; i++) {
            out[3 * i] = us[i];
            out[3 * i + 1] = vs[i];
            out[3 * i + 2] = ws[i];
        }
        return out;
    }

    @Test
    void aRepairPastItsBudgetGivesUpAndLeavesThePreviousAnswer() {
        CsrGraph start = TestGraphs.path(5_000);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        SsspResult previous = DijkstraReference.run(start, 0);
        SsspResult before = SSSP.copy(previous);
        g.apply(EdgeEdits.remove(new int[] {0}, new int[] {1}), 0, Long.MAX_VALUE);   // everything but 0 is cut off
        ChangedEdges changes = seen.read().edges();
        assertNull(SsspRepair.repair(g.current(), previous, changes, 100));
        assertArrayEquals(before.distances(), previous.distances(), "restored");
        assertArrayEquals(before.parents(), previous.parents(), "restored");
        TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(g.current(), previous, changes, Long.MAX_VALUE);
        RepairStreams.check(SSSP, g.current(), 0, before, wrap(r), "cut");
        assertEquals(4_999, r.changed().length);
    }

    /**
     * The pull's work is charged while the subtree is invalidated (so a repair bound to pass its budget gives up before
     * it pulls and settles); the outcome still depends on the total work alone: a repair given exactly the work it
     * reports when unlimited succeeds with the same answer, one unit less gives up and restores the previous answer.
     */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void theBudgetDecidesByTheTotalWorkAlone(boolean directed) {
        Random rnd = new Random(directed ? 34 : 35);
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        SsspResult answer = DijkstraReference.run(start, 7);
        int invalidating = 0;
        for (int batch = 0; batch < 30; batch++) {
            CsrGraph now = g.current();
            for (int k = 0; k < 1 + batch % 5; k++) {   // heavier arcs, tree arcs among them: subtrees are invalidated
                int arc = rnd.nextInt(now.arcCount());
                g.apply(EdgeEdits.reweight(now.sourceOf(arc), now.columns()[arc], now.weights()[arc] * 4 + 1), 0, Long.MAX_VALUE);
            }
            ChangedEdges changes = seen.read().edges();
            now = g.current();
            SsspResult before = SSSP.copy(answer);
            TreeRepair.Repaired<SsspResult> unlimited = SsspRepair.repair(now, SSSP.copy(answer), changes, Long.MAX_VALUE);
            long work = unlimited.result().timing().counter("work");
            if (unlimited.result().timing().counter("invalidated") > 0) invalidating++;
            if (work > 0) {   // a batch that breaks no tree arc and shortens no path costs nothing
                assertNull(SsspRepair.repair(now, answer, changes, work - 1), "batch " + batch + ": one unit short of " + work);
                assertArrayEquals(before.distances(), answer.distances(), "batch " + batch + ": restored");
                assertArrayEquals(before.parents(), answer.parents(), "batch " + batch + ": restored");
            }
            TreeRepair.Repaired<SsspResult> exact = SsspRepair.repair(now, answer, changes, work);
            assertNotNull(exact, "batch " + batch + ": the budget of exactly " + work);
            assertEquals(work, exact.result().timing().counter("work"));
            assertArrayEquals(unlimited.result().distances(), exact.result().distances());
            assertArrayEquals(unlimited.changed(), exact.changed());
            RepairStreams.check(SSSP, now, 7, before, wrap(exact), "batch " + batch);
            answer = exact.result();
        }
        assertTrue(invalidating >= 5, "batches that invalidated a subtree: " + invalidating);
    }

    @Test
    void theChecksCatchWrongAnswers() {
        // 0 -> 1 -> 2 (1 each), 2 <-> 3 by zero-weight arcs; 0->1 is re-weighted to 2
        CsrGraph start = TestGraphs.build(4, true, 0, 1, 1, 1, 2, 1, 2, 3, 0, 3, 2, 0);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        SsspResult previous = DijkstraReference.run(start, 0);
        SsspResult before = SSSP.copy(previous);
        g.apply(EdgeEdits.reweight(0, 1, 2), 0, Long.MAX_VALUE);
        CsrGraph now = g.current();
        TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(now, previous, seen.read().edges());
        RepairStreams.Repaired<SsspResult> good = wrap(r);
        RepairStreams.check(SSSP, now, 0, before, good, "good");

        SsspResult wrongDistance = SSSP.copy(r.result());
        wrongDistance.distances()[3] = 2;   // the old distance, as a repair that missed the subtree would leave it
        assertThrows(AssertionError.class, () -> RepairStreams.check(SSSP, now, 0, before,
                new RepairStreams.Repaired<>(wrongDistance, r.changed()), "wrong distance"));
        SsspResult cycle = SSSP.copy(r.result());
        cycle.parents()[2] = 3;   // 2 and 3 share a distance over a zero-weight arc: the verifier passes this
        assertTrue(SsspVerifier.verify(now, 0, cycle).ok(), "a parent cycle the verifier alone cannot see");
        assertThrows(AssertionError.class, () -> RepairStreams.check(SSSP, now, 0, before,
                new RepairStreams.Repaired<>(cycle, r.changed()), "parent cycle"));
        assertThrows(AssertionError.class, () -> RepairStreams.check(SSSP, now, 0, before,
                new RepairStreams.Repaired<>(r.result(), new int[] {1, 2}), "changed list missing 3"));
    }
}
