package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.Changes;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The device's structural catch-up, on host arrays: a copy of the first version follows random update streams by
 * the host's merges alone (each {@link MergePlan} moving the untouched rows and writing the touched ones) and the
 * re-weights listed after them, and equals the host's version after every catch-up, array for array; the merged
 * version equals the graph built from scratch from the same edges (edge ids included), and so does its MST edge list
 * (moved from the previous version's on undirected graphs). Several merges may pile up
 * between two catch-ups, with re-weights between them; beyond the limit the copy is made afresh.
 */
class MergePlanTest {
    /** A copy that follows the host as the device does (CompactCopy.catchUp). */
    private static final class Copy {
        CsrGraph version;
        int[] rows, cols;
        double[] w;
        int planned, afresh;

        Copy(CsrGraph g) { load(g); }

        void load(CsrGraph g) {
            version = g;
            rows = g.rowOffsets().clone();
            cols = g.columns().clone();
            w = g.weights().clone();
        }

        void catchUp(MutableGraph host, ChangeLog.Cursor cursor) {
            CsrGraph now = host.current();
            Changes read = cursor.read();
            if (read.restart()) {
                afresh++;
                load(now);
                return;
            }
            ChangeLog.WeightChanges changes = read.reweighted();
            for (ChangeLog.Merge m : read.merges()) {
                assertSame(version, m.before(), "merges chain from the copy's version");
                MergePlan plan = MergePlan.of(m);
                int[] c = new int[m.after().arcCount()];
                double[] x = new double[c.length];
                plan.applyTo(cols, w, c, x);
                version = m.after();
                rows = version.rowOffsets().clone();
                cols = c;
                w = x;
                planned++;
            }
            assertSame(now, version);
            if (changes.all()) w = now.weights().clone();
            else for (int a : changes.arcs()) w[a] = now.weights()[a];
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCopyFollowsByMergePlansAndReweights(boolean directed) {
        Random rnd = new Random(directed ? 17 : 18);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(2_000, 8_000, directed ? 7 : 8, 30, directed));
        MutableGraph host = new MutableGraph(start);
        ChangeLog.Cursor cursor = host.log().cursor(ChangeLog.Detail.VERSIONS);
        Copy copy = new Copy(start);
        CsrGraph reference = start;
        for (int batch = 0; batch < 80; batch++) {
            int merges = batch % 10 == 9 ? ChangeLog.MAX_MERGES + 1 : 1 + rnd.nextInt(3);
            for (int step = 0; step < merges; step++) {
                int updates = 1 + rnd.nextInt(batch % 4 == 0 ? 200 : 20);
                for (int i = 0; i < updates; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, reference, rnd.nextInt(4) != 0);
                    try {
                        host.apply(e, 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException x) {
                        continue;
                    }
                }
                reference = host.current();   // one merge per step: the next step's updates name its edges
                CsrGraph now = reference;
                CsrGraph scratch = UpdateStreams.rebuilt(now, now.vertexCount());
                assertArrayEquals(scratch.rowOffsets(), now.rowOffsets(), "rows, batch " + batch);
                assertArrayEquals(scratch.columns(), now.columns(), "columns, batch " + batch);
                assertArrayEquals(scratch.weights(), now.weights(), "weights, batch " + batch);
                assertArrayEquals(scratch.arcEdgeIds(), now.arcEdgeIds(), "edge ids, batch " + batch);
                assertEquals(scratch.integralWeights(), now.integralWeights(), "integral, batch " + batch);
                assertEquals(scratch.weightSum(), now.weightSum(), 1e-6 * Math.max(1, scratch.weightSum()), "sum, batch " + batch);
                // the MST edge list, moved from the previous version's (cached there by the last step)
                assertArrayEquals(scratch.undirectedEdges().u, now.undirectedEdges().u, "edge list u, batch " + batch);
                assertArrayEquals(scratch.undirectedEdges().v, now.undirectedEdges().v, "edge list v, batch " + batch);
                assertArrayEquals(scratch.undirectedEdges().w, now.undirectedEdges().w, "edge list w, batch " + batch);
            }
            copy.catchUp(host, cursor);
            CsrGraph now = host.current();
            assertArrayEquals(now.rowOffsets(), copy.rows, "copy rows, batch " + batch);
            assertArrayEquals(now.columns(), copy.cols, "copy columns, batch " + batch);
            assertArrayEquals(now.weights(), copy.w, "copy weights, batch " + batch);
        }
        assertTrue(copy.planned > 50, "merged by plans: " + copy.planned);
        assertTrue(copy.afresh > 0, "made afresh after too many merges: " + copy.afresh);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void untouchedRowsMoveInLongPieces(boolean directed) {
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(50_000, 400_000, 5, 9, directed));
        MutableGraph host = new MutableGraph(start);
        ChangeLog.Cursor cursor = host.log().cursor(ChangeLog.Detail.VERSIONS);
        int u = 25_000, v = start.columns()[start.rowStart(u)];
        host.apply(new EdgeEdits(0, new int[] {u}, new int[] {v}, new int[0], new int[0], new double[0],
                new int[] {7}, new int[] {40_000}, new double[] {3}), 0, Long.MAX_VALUE);
        CsrGraph now = host.current();
        List<ChangeLog.Merge> merges = cursor.read().merges();
        assertEquals(1, merges.size());
        int touched = directed ? 2 : 4;
        assertEquals(touched, merges.get(0).touchedRows().length, "rows of the removed and the added edge");
        MergePlan plan = MergePlan.of(merges.get(0));
        long arcs = 0;
        for (int i = 2; i < plan.kept.length; i += 3) arcs += plan.kept[i];
        for (int i = 2; i < plan.written.length; i += 3) arcs += plan.written[i];
        assertEquals(now.arcCount(), arcs, "every arc placed once");
        assertTrue(plan.keptPieces() <= now.arcCount() / MergePlan.PIECE + touched + 1, "pieces: " + plan.keptPieces());
        assertTrue(plan.packedColumns.length < 100, "only the touched rows are uploaded: " + plan.packedColumns.length);
    }
}
