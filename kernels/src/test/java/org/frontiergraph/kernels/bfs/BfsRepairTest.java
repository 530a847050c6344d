package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.standing.BfsRepair;
import org.frontiergraph.kernels.standing.TreeRepair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * BfsRepair through random update streams (see {@link RepairStreams}): after every batch the repaired answer passes
 * BfsVerifier, equals BfsReference's hops exactly, has acyclic parents, and lists exactly the vertices that changed.
 */
public class BfsRepairTest {
    /** BfsRepair as the stream driver sees it; hops are compared as doubles (unreached: +Inf). */
    public static final Adapter BFS = new Adapter(false);

    public record Adapter(boolean unlimited) implements RepairStreams.Algorithm<BfsResult> {
        @Override
        public BfsResult reference(CsrGraph g, int source) { return BfsReference.run(g, source); }

        @Override
        public BfsResult copy(BfsResult r) {
            return new BfsResult(r.source(), r.hops().clone(), r.parents().clone(), r.timing());
        }

        @Override
        public RepairStreams.View view(BfsResult r) {
            double[] values = new double[r.hops().length];
            for (int v = 0; v < values.length; v++) {
                values[v] = r.hops()[v] == BfsResult.UNREACHED ? Double.POSITIVE_INFINITY : r.hops()[v];
            }
            return new RepairStreams.View(values, r.parents());
        }

        @Override
        public RepairStreams.Repaired<BfsResult> repair(CsrGraph g, BfsResult previous, ChangedEdges changes) {
            TreeRepair.Repaired<BfsResult> r = unlimited ? BfsRepair.repair(g, previous, changes, Long.MAX_VALUE)
                    : BfsRepair.repair(g, previous, changes);
            return r == null ? null : new RepairStreams.Repaired<>(r.result(), r.changed());
        }

        @Override
        public Verification verify(CsrGraph g, int source, BfsResult r, BfsResult reference) {
            return BfsVerifier.verify(g, source, r, reference);
        }
    }

    @ParameterizedTest
    @CsvSource({"true, false", "false, false", "true, true", "false, true"})
    void randomStreamsRepairExactlyAfterEveryBatch(boolean directed, boolean unlimited) {
        Random rnd = new Random((directed ? 41 : 42) + (unlimited ? 10 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        int[] sources = {0, 777, 2_000 - 1};   // the last: the end of a pendant path
        int[] sizes = {1, 10, 100};
        RepairStreams.Stats stats = RepairStreams.run(new Adapter(unlimited), start, sources, sizes, 25, rnd);
        RepairStreams.assertRepairedWithinBudget(stats, sources.length, 25, sizes, unlimited);
    }

    /** {@link BfsRepair#repairAll} as the stream driver sees it (each entry also compared with the repair alone). */
    static final RepairStreams.Together<BfsResult> TOGETHER = RepairStreams.together(BFS, (g, previous, changes) -> {
        TreeRepair.Repaired<BfsResult>[] all = BfsRepair.repairAll(g, previous.toArray(new BfsResult[0]), changes, BfsRepair.defaultBudget(g));
        java.util.List<RepairStreams.Repaired<BfsResult>> out = new java.util.ArrayList<>();
        for (TreeRepair.Repaired<BfsResult> r : all) out.add(r == null ? null : new RepairStreams.Repaired<>(r.result(), r.changed()));
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
        Random rnd = new Random(directed ? 46 : 47);
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        int[] sources = new int[24];
        for (int i = 0; i < sources.length; i++) sources[i] = i < 3 ? new int[] {0, 1_234, 2_000 - 3}[i] : 7 + 83 * i;
        int[] sizes = {1, 10, 100};
        RepairStreams.Stats stats = RepairStreams.run(TOGETHER, start, sources, sizes, 12, rnd);
        RepairStreams.assertEveryKind(stats);
        assertTrue(stats.repaired(1) >= 0.9 * 12 * sources.length, "single updates repaired: " + stats);
    }

    @Test
    void reweightsChangeNothing() {
        Random rnd = new Random(43);
        CsrGraph start = RepairStreams.graph(rnd, 1_000, false);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        BfsResult previous = BfsReference.run(start, 5);
        int[] hops = previous.hops().clone();
        for (int i = 0; i < 50; i++) {
            int arc = rnd.nextInt(start.arcCount());
            g.apply(EdgeEdits.reweight(start.sourceOf(arc), start.columns()[arc], rnd.nextInt(9)), 0, Long.MAX_VALUE);
        }
        TreeRepair.Repaired<BfsResult> r = BfsRepair.repair(g.current(), previous, seen.read().edges());
        assertEquals(0, r.changed().length);
        assertArrayEquals(hops, r.result().hops());
        assertEquals(0, r.result().timing().counter("settled"));
    }

    @Test
    void aSelfLoopAtTheSourceIsDroppedAndChangesNothing() {
        CsrGraph start = TestGraphs.path(10);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        BfsResult previous = BfsReference.run(start, 4);
        BfsResult before = BFS.copy(previous);
        g.apply(EdgeEdits.add(new int[] {4}, new int[] {4}, new double[] {1}), 0, Long.MAX_VALUE);
        assertEquals(0, seen.read().edges().size(), "the storage policy drops the loop, so it is not recorded");
        ChangedEdges changes = new ChangedEdges(10, new int[] {4}, new int[] {4});   // a pair (s, s) handed in anyway
        TreeRepair.Repaired<BfsResult> r = BfsRepair.repair(g.current(), previous, changes);
        RepairStreams.check(BFS, g.current(), 4, before, new RepairStreams.Repaired<>(r.result(), r.changed()), "loop");
        assertEquals(0, r.changed().length);
    }

    @Test
    void newVerticesGetNewArraysAndCountOnlyWhenReached() {
        CsrGraph start = TestGraphs.path(10);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        BfsResult previous = BfsReference.run(start, 0);
        int[] none = {};
        g.apply(new EdgeEdits(3, none, none, none, none, new double[0], new int[] {9, 10}, new int[] {10, 11},
                new double[] {1, 1}), 0, Long.MAX_VALUE);   // 10 and 11 hang off the end, 12 stays alone
        TreeRepair.Repaired<BfsResult> r = BfsRepair.repair(g.current(), previous, seen.read().edges());
        assertNotSame(previous.hops(), r.result().hops());
        assertEquals(10, previous.hops().length, "previous untouched");
        assertArrayEquals(new int[] {10, 11}, r.changed());
        assertEquals(11, r.result().hops()[11]);
        assertEquals(BfsResult.UNREACHED, r.result().hops()[12]);
    }

    @Test
    void aCorruptedPreviousAnswerGivesAnAnswerTheChecksRefuse() {
        // the repair trusts the previous answer: one it was not given (vertex 3 claims 1 hop on a path) stays wrong
        CsrGraph start = TestGraphs.path(8);
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        BfsResult previous = BfsReference.run(start, 0);
        previous.hops()[3] = 1;
        BfsResult before = BFS.copy(previous);
        g.apply(EdgeEdits.add(new int[] {5}, new int[] {7}, new double[] {1}), 0, Long.MAX_VALUE);
        CsrGraph now = g.current();
        TreeRepair.Repaired<BfsResult> r = BfsRepair.repair(now, previous, seen.read().edges());
        assertFalse(BfsVerifier.verify(now, 0, r.result()).ok());
        assertThrows(AssertionError.class, () -> RepairStreams.check(BFS, now, 0, before,
                new RepairStreams.Repaired<>(r.result(), r.changed()), "corrupted"));
    }
}
