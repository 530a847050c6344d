package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The change log of a {@link MutableGraph}: entries numbered in order, each reader at its own cursor deriving what it
 * needs (edges, merges, re-weighted arcs), entries dropped once every cursor passed them, and a cursor that fell too
 * far behind told to start over instead of the log growing without bound.
 */
class ChangeLogTest {
    /** A path 0-1-2-...-(n-1), weight 1 each. */
    private static MutableGraph path(int n, boolean directed) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i + 1 < n; i++) e.add(i, i + 1, 1);
        return new MutableGraph(GraphBuilder.build(e));
    }

    private static EdgeEdits add(int u, int v, double w) {
        return new EdgeEdits(0, new int[0], new int[0], new int[0], new int[0], new double[0], new int[] {u}, new int[] {v},
                new double[] {w});
    }

    @Test
    void nothingIsRecordedWithoutACursor() {
        MutableGraph g = path(10, false);
        g.apply(add(0, 5, 2), 0, Long.MAX_VALUE);
        g.current();
        assertEquals(0, g.log().end(), "no reader, no entry");
        assertEquals(0, g.log().bytes());
    }

    @Test
    void eachCursorReadsTheEditsSinceItsLastReadInOrder() {
        MutableGraph g = path(10, false);
        ChangeLog.Cursor a = g.log().cursor(ChangeLog.Detail.EDGES);
        g.apply(EdgeEdits.reweight(1, 2, 5), 0, Long.MAX_VALUE);
        ChangeLog.Cursor b = g.log().cursor(ChangeLog.Detail.EDGES);
        g.apply(new EdgeEdits(2, new int[] {3}, new int[] {4}, new int[0], new int[0], new double[0], new int[] {10, 7},
                new int[] {11, 7}, new double[] {1, 1}), 0, Long.MAX_VALUE);
        assertEquals(2, g.log().end(), "two updates, numbered 0 and 1");
        ChangedEdges ea = a.read().edges();
        assertEquals(10, ea.vertexCountBefore());
        assertArrayEquals(new int[] {1, 3, 10}, ea.u(), "both updates, the self-loop left out");
        assertArrayEquals(new int[] {2, 4, 11}, ea.v());
        ChangedEdges eb = b.read().edges();
        assertEquals(10, eb.vertexCountBefore(), "the second update came after b was made");
        assertArrayEquals(new int[] {3, 10}, eb.u());
        assertTrue(a.read().edges().isEmpty(12), "nothing new");
        assertEquals(2, a.position());
    }

    @Test
    void entriesEveryCursorPassedAreDroppedAndCountInTheGraphsBytes() {
        MutableGraph g = path(50, false);
        long base = g.bytes();
        ChangeLog.Cursor a = g.log().cursor(ChangeLog.Detail.EDGES);
        ChangeLog.Cursor b = g.log().cursor(ChangeLog.Detail.EDGES);
        g.apply(EdgeEdits.reweight(1, 2, 5), 0, Long.MAX_VALUE);
        long held = g.log().bytes();
        assertTrue(held > 0);
        assertEquals(base + held, g.bytes(), "the log's entries count in the graph's bytes");
        a.read();
        assertEquals(held, g.log().bytes(), "b has not read it yet");
        b.read();
        assertEquals(0, g.log().bytes(), "both passed it: dropped");
        b.close();
        g.apply(EdgeEdits.reweight(2, 3, 5), 0, Long.MAX_VALUE);
        a.close();
        assertEquals(0, g.log().bytes(), "no open cursor holds anything");
        assertThrows(IllegalStateException.class, a::read, "a closed cursor reads nothing");
    }

    @Test
    void aCursorThatFallsTooFarBehindStartsOver() {
        MutableGraph g = path(100, false);
        ChangeLog.Cursor slow = g.log().cursor(ChangeLog.Detail.VERSIONS);
        ChangeLog.Cursor fast = g.log().cursor(ChangeLog.Detail.VERSIONS);
        for (int i = 0; i <= ChangeLog.MAX_MERGES; i++) {
            g.apply(add(0, 10 + i, 3), 0, Long.MAX_VALUE);
            g.current();   // one merge each
            Changes c = fast.read();
            assertFalse(c.restart());
            assertEquals(1, c.merges().size());
        }
        Changes lost = slow.read();
        assertTrue(lost.restart(), "more merges than the log keeps for one reader");
        assertThrows(IllegalStateException.class, lost::edges, "nothing to derive: start over");
        g.apply(add(0, 50, 3), 0, Long.MAX_VALUE);
        assertFalse(slow.read().restart(), "back on track after starting over");
        // edits beyond the graph's own size (at least 1 MiB) are dropped for a reader that does not read them
        for (int round = 0; round < 700; round++) {
            int[] u = new int[200], v = new int[200];
            double[] w = new double[200];
            for (int i = 0; i < 200; i++) {
                u[i] = i % 99;
                v[i] = i % 99 + 1;
                w[i] = 1 + (round + i) % 7;
            }
            g.apply(EdgeEdits.reweight(u, v, w), 0, Long.MAX_VALUE);
            fast.read();
        }
        assertTrue(slow.read().restart(), "more edit bytes than the log keeps");
        assertTrue(g.log().bytes() <= (1 << 20) + 4096, "bounded: " + g.log().bytes());
    }

    @Test
    void reweightedArcsAreRenumberedAcrossMerges() {
        MutableGraph g = path(20, false);
        CsrGraph g0 = g.current();
        ChangeLog.Cursor c = g.log().cursor(ChangeLog.Detail.VERSIONS);
        g.apply(EdgeEdits.reweight(15, 16, 9), 0, Long.MAX_VALUE);   // in place, in g0
        g.apply(add(0, 2, 4), 0, Long.MAX_VALUE);                     // rows 0 and 2 rebuilt at the merge
        CsrGraph g1 = g.current();
        Changes read = c.read();
        assertEquals(1, read.merges().size());
        assertSame(g0, read.merges().get(0).before());
        assertSame(g1, read.merges().get(0).after());
        assertTrue(read.structural());
        Set<Integer> arcs = new HashSet<>();
        for (int a : read.reweighted().arcs()) arcs.add(a);
        assertEquals(Set.of(g1.findArc(15, 16), g1.findArc(16, 15)), arcs, "numbered in the merged version");
        assertEquals(9, g1.weights()[g1.findArc(16, 15)]);
    }

    @Test
    void arcsAreListedOnlyForACursorThatReadsVersions() {
        MutableGraph g = path(20, false);
        ChangeLog.Cursor edges = g.log().cursor(ChangeLog.Detail.EDGES);
        g.apply(EdgeEdits.reweight(3, 4, 9), 0, Long.MAX_VALUE);
        g.apply(add(0, 2, 4), 0, Long.MAX_VALUE);
        g.current();
        Changes read = edges.read();
        assertTrue(read.merges().isEmpty(), "merges hold old bases: kept only for readers of versions");
        assertTrue(read.reweighted().isEmpty());
        assertEquals(2, read.edges().size());
    }
}
