package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The 64-bit arc arithmetic past 2^31, without allocating 2^31 arcs: page and slot of an arc, the row holding an arc
 * over a degree layout described by its offsets only, and a real wide {@link CsrGraph} of 2^31 + 2^20 arcs whose
 * pages are one shared page of 2^20 arcs (every row is one page long, so each row's columns are that page's 0 ..
 * 2^20 - 1): its rows, arcs found by their endpoints, per-arc reads and an in-place re-weight of an arc past 2^31.
 */
class WideIndexTest {
    private static final long TWO_31 = 1L << 31;

    @Test
    void anArcsPageAndSlot() {
        assertEquals(2, WideArcs.page(TWO_31 + 3, 1 << 30));
        assertEquals(3, WideArcs.slot(TWO_31 + 3, 1 << 30));
        assertEquals(1, WideArcs.page(TWO_31 - 1, 1 << 30));
        assertEquals((1 << 30) - 1, WideArcs.slot(TWO_31 - 1, 1 << 30));
        long far = 3 * TWO_31 + 11;   // 7 * 920350134 = 3 * 2^31 - 6, so far is 17 = 2 * 7 + 3 arcs past that page
        assertEquals(920350134 + 2, WideArcs.page(far, 7));
        assertEquals(3, WideArcs.slot(far, 7));
        assertEquals(far, (long) WideArcs.page(far, 7) * 7 + WideArcs.slot(far, 7));
        ArcPages p = new ArcPages(1 << 30, new int[3][0], new double[3][0], new int[3][0]);
        assertEquals(TWO_31, p.firstArc(2));
    }

    @Test
    void theRowOfAnArcOverALayoutPast2To31() {
        long[] degrees = {(1L << 30) + 3, 0, 5, 1L << 30, 0, 0, (1L << 30) - 1, 7, 0};
        int n = degrees.length;
        long[] off = new long[n + 1];
        for (int v = 0; v < n; v++) off[v + 1] = off[v] + degrees[v];
        assertTrue(off[n] > 3 * (1L << 30) && off[n] > TWO_31);
        for (int v = 0; v < n; v++) {
            if (degrees[v] == 0) continue;
            assertEquals(v, WideArcs.sourceOf(off, n, off[v]), "first arc of row " + v);
            assertEquals(v, WideArcs.sourceOf(off, n, off[v + 1] - 1), "last arc of row " + v);
            assertEquals(v, WideArcs.sourceOf(off, n, off[v] + degrees[v] / 2), "middle of row " + v);
        }
        assertEquals(3, WideArcs.sourceOf(off, n, TWO_31 - 1));
        assertEquals(3, WideArcs.sourceOf(off, n, TWO_31));
        assertThrows(IndexOutOfBoundsException.class, () -> WideArcs.sourceOf(off, n, off[n]));
        assertThrows(IndexOutOfBoundsException.class, () -> WideArcs.sourceOf(off, n, -1));
    }

    /** Rows {@code first .. first + rows - 1} of {@code pageArcs} arcs each, to targets 0 .. pageArcs - 1; weights = target. */
    private static CsrGraph sharedPages(int pageArcs, int first, int rows, int trailing) {
        int n = first + rows + trailing;
        long[] off = new long[n + 1];
        for (int v = 0; v < n; v++) off[v + 1] = off[v] + (v >= first && v < first + rows ? pageArcs : 0);
        int[] cols = new int[pageArcs], ids = new int[pageArcs];
        double[] w = new double[pageArcs];
        for (int i = 0; i < pageArcs; i++) {
            cols[i] = i;
            ids[i] = i;
            w[i] = i;
        }
        int[][] c = new int[rows][], e = new int[rows][];
        double[][] ws = new double[rows][];
        Arrays.fill(c, cols);
        Arrays.fill(e, ids);
        Arrays.fill(ws, w);
        // a directed layout of more arcs than an int counts edges: its edge count is a placeholder, never read here
        return new CsrGraph(n, true, off, new ArcPages(pageArcs, c, ws, e), Integer.MAX_VALUE - 8, true);
    }

    @Test
    void aWideGraphOfMoreThan2To31ArcsIsReadByLongArc() {
        int page = 1 << 20, first = page, rows = 2049;   // 2049 * 2^20 = 2^31 + 2^20 arcs
        CsrGraph g = sharedPages(page, first, rows, 3);
        long arcs = (long) rows * page;
        assertTrue(g.wide());
        assertEquals(arcs, g.arcs());
        assertTrue(arcs > CsrGraph.MAX_INT_ARCS);
        int last = first + rows - 1;
        assertEquals(TWO_31, g.rowStartLong(last));
        assertEquals(arcs, g.rowEndLong(last));
        assertEquals(page, g.degree(last));
        assertEquals(0, g.degree(last + 1));
        assertEquals(page, g.maxDegree());
        assertEquals(last, g.sourceOf(TWO_31));
        assertEquals(last - 1, g.sourceOf(TWO_31 - 1));
        assertEquals(last, g.sourceOf(arcs - 1));
        assertEquals(TWO_31 + 5, g.findArcLong(last, 5));
        assertEquals(arcs - 1, g.findArcLong(last, page - 1));
        assertEquals(TWO_31 - page, g.findArcLong(last - 1, 0));
        assertEquals(-1, g.findArcLong(last, page));   // past the row's columns
        assertEquals(-1, g.findArcLong(0, 1));          // an empty row
        assertTrue(g.hasArc(last, 77));
        assertEquals(77, g.targetAt(TWO_31 + 77));
        assertEquals(77.0, g.weightAt(TWO_31 + 77));
        assertEquals(77, g.edgeIdAt(TWO_31 + 77));
        assertEquals(8L * (g.vertexCount() + 1) + 16L * arcs, g.bytes());
        assertTrue(g.toString().contains("arcs=" + arcs), g.toString());
        WideGraphException x = assertThrows(WideGraphException.class, g::columns);
        assertEquals("CsrGraph.columns() needs int32 arc indexes, but the graph has " + arcs + " arcs held in the wide (64-bit)"
                + " form (an int32 arc index holds at most 2147483639): read it through arcs(), rowOffsetsLong() and pages()"
                + " (or the long accessors rowStartLong, findArcLong, sourceOf(long), targetAt, weightAt, edgeIdAt)", x.getMessage());
        assertThrows(WideGraphException.class, g::arcCount);
        assertThrows(WideGraphException.class, () -> g.findArc(last, 5));
    }

    @Test
    void aReweightPast2To31AppliesInPlaceAndIsLoggedByLongArc() {
        int page = 1 << 20, first = page, rows = 2049;
        CsrGraph g = sharedPages(page, first, rows, 0);
        int last = first + rows - 1;
        MutableGraph m = new MutableGraph(g);
        ChangeLog.Cursor c = m.log().cursor(ChangeLog.Detail.VERSIONS);
        m.apply(new EdgeEdits(0, new int[0], new int[0], new int[] {last}, new int[] {77}, new double[] {0.25},
                new int[0], new int[0], new double[0]), 0, Long.MAX_VALUE);
        assertEquals(0.25, m.weightOf(last, 77));
        assertEquals(0.25, m.current().weightAt(TWO_31 + 77));
        assertFalse(m.current().integralWeights());
        ChangeLog.WeightChanges w = c.read().reweighted();
        assertArrayEquals(new long[] {TWO_31 + 77}, w.wideArcs());
        assertArrayEquals(new long[] {TWO_31 + 77}, w.arcsLong());
        assertThrows(WideGraphException.class, w::arcs);
    }
}
