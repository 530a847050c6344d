package org.frontiergraph.kernels.io;

import static org.frontiergraph.kernels.io.GraphTexts.describe;
import static org.frontiergraph.kernels.io.GraphTexts.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SnapReaderTest {
    private static final GraphFormat F = GraphFormat.SNAP;

    @Test
    void tabsSpacesCommentsCrlfAndVertexCountFromLargestId() throws Exception {
        String text = "# Directed graph\r\n# FromNodeId\tToNodeId\r\n0\t1\r\n1  0\r\n\r\n% konect style comment\r\n"
                + "3 3\r\n0 1\r\n   2\t 5   \r\n# trailing comment";
        LoadedGraph g = read(text, F);
        assertEquals(6, g.vertexCount());
        assertEquals("0->1:1 1->0:1 3->3:1 0->1:1 2->5:1", describe(g.edges()));
        assertFalse(g.weighted());
        assertEquals(0, g.firstVertexId());
        assertEquals(4, g.commentLines());
        assertEquals(1, g.blankLines());
        assertEquals(1, g.selfLoops());
        assertEquals(10, g.lines());
        assertEquals(3, g.toCsr().edgeCount()); // 0->1 merged, 3->3 dropped
    }

    @Test
    void optionalWeightColumnMissingWeightsAreOne() throws Exception {
        LoadedGraph g = read("0 1 2.5\n1 2\n2 0 7\n", F);
        assertTrue(g.weighted());
        assertEquals("0->1:2.5 1->2:1 2->0:7", describe(g.edges()));
    }

    @Test
    void undirectedFlag() throws Exception {
        LoadedGraph g = read("0 1\n1 2\n", F, true);
        assertFalse(g.edges().directed());
        assertEquals(4, g.toCsr().arcCount());
    }

    @Test
    void emptyFileIsAnEmptyGraph() throws Exception {
        LoadedGraph g = read("# nothing here\n", F);
        assertEquals(0, g.vertexCount());
        assertEquals(0, g.edgeCount());
    }

    @Test
    void malformedLinesNameTheLine() {
        assertError("0 1\n1\n", 2, "missing target vertex");
        assertError("0 1\n1,2\n", 2, "expected an integer source vertex, found '1,2'");
        assertError("0 -1\n", 1, "vertex -1 outside 0.." + (GraphFiles.MAX_VERTICES - 1));
        assertError("0 1\n\n0 3000000000\n", 3, "vertex 3000000000 outside 0.." + (GraphFiles.MAX_VERTICES - 1));
        assertError("0 1 2 3\n", 1, "unexpected '3' after the edge weight");
        assertError("0 1 # comment\n", 1, "expected a number for edge weight, found '#'");
    }

    static void assertError(String text, long line, String reason) {
        GraphFileException e = assertThrows(GraphFileException.class, () -> read(text, F), text);
        assertEquals(reason, e.reason(), text);
        assertEquals(line, e.line(), text);
    }
}
