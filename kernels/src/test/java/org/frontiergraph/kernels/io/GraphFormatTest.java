package org.frontiergraph.kernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GraphFormatTest {
    @Test
    void formatFromFileName() {
        assertEquals(GraphFormat.DIMACS, GraphFormat.fromFileName("USA-road-d.NY.gr.gz"));
        assertEquals(GraphFormat.DIMACS, GraphFormat.fromFileName("rome99.gr"));
        assertEquals(GraphFormat.SNAP, GraphFormat.fromFileName("email-Enron.txt.gz"));
        assertEquals(GraphFormat.SNAP, GraphFormat.fromFileName("g.edges"));
        assertEquals(GraphFormat.SNAP, GraphFormat.fromFileName("G.EL.GZ"));
        assertEquals(GraphFormat.MATRIX_MARKET, GraphFormat.fromFileName("/tmp/luxembourg_osm.mtx.gz"));
        assertEquals(GraphFormat.MATRIX_MARKET, GraphFormat.fromFileName("a.mtx"));
    }

    @Test
    void unknownFileNameSaysWhatIsKnown() {
        for (String name : new String[] {"graph.csv", "graph.gz", "gr", ".gr", "graph.gr.bz2", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GraphFormat.fromFileName(name), name);
            assertTrue(e.getMessage().contains(".gr, .txt, .edges, .el or .mtx"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void formatFromFlag() {
        assertEquals(GraphFormat.DIMACS, GraphFormat.parse("dimacs"));
        assertEquals(GraphFormat.SNAP, GraphFormat.parse("SNAP"));
        assertEquals(GraphFormat.MATRIX_MARKET, GraphFormat.parse(" mtx "));
        for (GraphFormat f : GraphFormat.values()) assertEquals(f, GraphFormat.parse(f.flag()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GraphFormat.parse("csv"));
        assertEquals("unknown graph format 'csv': expected dimacs, snap or mtx", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> GraphFormat.parse(null));
    }

    @Test
    void firstVertexIds() {
        assertEquals(1, GraphFormat.DIMACS.firstVertexId());
        assertEquals(1, GraphFormat.MATRIX_MARKET.firstVertexId());
        assertEquals(0, GraphFormat.SNAP.firstVertexId());
    }
}
