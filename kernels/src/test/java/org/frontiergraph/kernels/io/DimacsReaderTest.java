package org.frontiergraph.kernels.io;

import static org.frontiergraph.kernels.io.GraphTexts.describe;
import static org.frontiergraph.kernels.io.GraphTexts.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.frontiergraph.kernels.graph.CsrGraph;
import org.junit.jupiter.api.Test;

class DimacsReaderTest {
    private static final GraphFormat F = GraphFormat.DIMACS;

    @Test
    void readsArcsOneBasedToZeroBased() throws Exception {
        LoadedGraph g = read("c tiny\np sp 3 3\na 1 2 5\na 2 3 7\na 3 1 1\n", F);
        assertEquals(3, g.vertexCount());
        assertTrue(g.edges().directed());
        assertEquals("0->1:5 1->2:7 2->0:1", describe(g.edges()));
        assertEquals(1, g.firstVertexId());
        assertEquals(GraphFormat.DIMACS, g.format());
        assertTrue(g.weighted());
        assertEquals(5, g.lines());
        assertEquals(1, g.commentLines());
        assertEquals(2, g.internalId(3));
        assertEquals(3, g.userId(2));
    }

    @Test
    void crlfBlankLinesCommentsAnywhereSelfLoopsDuplicatesMissingWeights() throws Exception {
        String text = "c header\r\np sp 4 6\r\n\r\na 1 2 9\r\nc a comment between arcs\r\n"
                + "a 1 2 4\r\n  a\t2 2 3  \r\na 3 4\r\n\r\na 4 3 2.5\r\n\ta 1 4 0\r\nc last line, no newline";
        LoadedGraph g = read(text, F);
        assertEquals("0->1:9 0->1:4 1->1:3 2->3:1 3->2:2.5 0->3:0", describe(g.edges()));
        assertEquals(3, g.commentLines());
        assertEquals(2, g.blankLines());
        assertEquals(1, g.selfLoops());
        assertEquals(12, g.lines());
        CsrGraph csr = g.toCsr(); // the storage policy: self-loop dropped, duplicate merged to the smaller weight
        assertEquals(4, csr.edgeCount());
        assertEquals(4.0, csr.weights()[csr.findArc(0, 1)]);
        assertEquals(-1, csr.findArc(1, 1));
    }

    @Test
    void unweightedWhenNoArcHasAWeight() throws Exception {
        LoadedGraph g = read("p sp 2 1\na 1 2\n", F);
        assertFalse(g.weighted());
        assertEquals(1.0, g.edges().weight(0));
    }

    @Test
    void undirectedOverride() throws Exception {
        LoadedGraph g = read("p sp 2 2\na 1 2 3\na 2 1 3\n", F, true);
        assertFalse(g.edges().directed());
        assertEquals(1, g.toCsr().edgeCount());
    }

    @Test
    void malformedLinesNameTheLine() {
        assertError("p sp 3 2\na 1 2 5\na 1 x 5\n", 3, "expected an integer target vertex, found 'x'");
        assertError("p sp 3 1\na 1 4 5\n", 2, "vertex 4 outside 1..3 (from the p line)");
        assertError("p sp 3 1\na 0 1 5\n", 2, "vertex 0 outside 1..3 (from the p line)");
        assertError("p sp 3 1\na 1\n", 2, "missing target vertex");
        assertError("p sp 3 1\na 1 2 5 6\n", 2, "unexpected '6' after the arc weight");
        assertError("p sp 3 1\na 1 2 five\n", 2, "expected a number for arc weight, found 'five'");
        assertError("p sp 3 1\na 1 2 NaN\n", 2, "arc weight must be a finite number, found 'NaN'");
        assertError("p sp 3 1\na 1 2 1e999\n", 2, "arc weight must be a finite number, found '1e999'");
        assertError("c\na 1 2 5\n", 2, "arc before the 'p sp <vertices> <arcs>' line");
        assertError("p sp 3 1\ne 1 2\n", 2, "unknown line type 'e'; expected c, p or a");
        assertError("p edge 3 1\n", 1, "expected 'p sp <vertices> <arcs>', found problem type 'edge'");
        assertError("p sp 3 1\np sp 3 1\n", 2, "a second 'p' line");
        assertError("p sp 3 1\na 1 2 1\na 2 3 1\n", 3, "more arcs than the 1 the p line promises");
        assertError("p sp 3 3\na 1 2 1\n", 0, "the p line promises 3 arcs, found 1 (truncated file?)");
        assertError("c nothing\n", 0, "no 'p sp <vertices> <arcs>' line");
        assertError("p sp 3 1\na 99999999999999999999 1 1\n", 2,
                "expected an integer source vertex, found '99999999999999999999'");
    }

    @Test
    void negativeWeightIsReadThenRejectedByGraphBuilder() throws Exception {
        LoadedGraph g = read("p sp 2 1\na 1 2 -3\n", F);
        assertEquals(-3.0, g.edges().weight(0));
        assertThrows(IllegalArgumentException.class, g::toCsr);
    }

    static void assertError(String text, long line, String reason) {
        GraphFileException e = assertThrows(GraphFileException.class, () -> read(text, F), text);
        assertEquals(reason, e.reason(), text);
        assertEquals(line, e.line(), text);
        assertEquals("inline.gr:" + line + ": " + reason, e.getMessage());
    }
}
