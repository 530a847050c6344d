package org.frontiergraph.kernels.io;

import static org.frontiergraph.kernels.io.GraphTexts.describe;
import static org.frontiergraph.kernels.io.GraphTexts.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MatrixMarketReaderTest {
    private static final GraphFormat F = GraphFormat.MATRIX_MARKET;

    @Test
    void patternSymmetricIsUndirectedWithWeightOne() throws Exception {
        String text = "%%MatrixMarket matrix coordinate pattern symmetric\r\n% comment\r\n\r\n4 4 4\r\n"
                + "2 1\r\n% comment among entries\r\n3 2\r\n3 3\r\n2 1\r\n";
        LoadedGraph g = read(text, F);
        assertFalse(g.edges().directed());
        assertFalse(g.weighted());
        assertEquals(4, g.vertexCount());
        assertEquals("1-0:1 2-1:1 2-2:1 1-0:1", describe(g.edges()));
        assertEquals(2, g.commentLines());
        assertEquals(1, g.blankLines());
        assertEquals(1, g.selfLoops());
        assertEquals(1, g.firstVertexId());
        assertEquals(2, g.toCsr().edgeCount());
    }

    @Test
    void realGeneralIsDirectedWithValuesAsWeights() throws Exception {
        LoadedGraph g = read("%%matrixmarket MATRIX Coordinate REAL General\n3 3 3\n1 2 0.5\n2 3 1e1\n3 1 -2\n", F);
        assertTrue(g.edges().directed());
        assertTrue(g.weighted());
        assertEquals("0->1:0.5 1->2:10 2->0:-2", describe(g.edges()));
        // negative values are kept by the reader and rejected by GraphBuilder, as documented
        assertThrows(IllegalArgumentException.class, g::toCsr);
    }

    @Test
    void integerField() throws Exception {
        LoadedGraph g = read("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n", F);
        assertEquals("0->1:7", describe(g.edges()));
    }

    @Test
    void errors() {
        assertError("", 1, "empty file; expected a %%MatrixMarket banner");
        assertError("3 3 1\n1 2\n", 1, "expected '%%MatrixMarket matrix coordinate <field> <symmetry>', found '3'");
        assertError("%%MatrixMarket matrix array real general\n", 1,
                "unsupported MatrixMarket format 'array'; only coordinate (sparse) is a graph");
        assertError("%%MatrixMarket matrix coordinate complex general\n", 1,
                "unsupported MatrixMarket field 'complex'; expected pattern, real or integer");
        assertError("%%MatrixMarket matrix coordinate real skew-symmetric\n", 1,
                "unsupported MatrixMarket symmetry 'skew-symmetric'; expected general or symmetric");
        assertError("%%MatrixMarket matrix coordinate real\n", 1, "banner is missing its symmetry (general or symmetric)");
        assertError("%%MatrixMarket matrix coordinate pattern general\n3 4 1\n", 2,
                "matrix is 3 x 4; a graph's adjacency matrix must be square");
        assertError("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3\n", 4,
                "missing entry value (the banner says real)");
        assertError("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 1\n", 3,
                "unexpected '1' after the column index (pattern entries have no value)");
        assertError("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n\n1 4\n", 4,
                "vertex 4 outside 1..3 (from the size line)");
        assertError("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", 4,
                "more entries than the 1 the size line promises");
        assertError("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", 0,
                "the size line promises 2 entries, found 1 (truncated file?)");
        assertError("%%MatrixMarket matrix coordinate pattern general\n% only comments\n", 0,
                "no size line '<rows> <cols> <entries>'");
    }

    static void assertError(String text, long line, String reason) {
        GraphFileException e = assertThrows(GraphFileException.class, () -> read(text, F), text);
        assertEquals(reason, e.reason(), text);
        assertEquals(line, e.line(), text);
    }
}
