package org.frontiergraph.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.junit.jupiter.api.Test;

/** Named vertices (a small network topology) numbered densely, computed on, and named back. */
class VertexNamesTest {
    @Test
    void namesGetDenseIdsInFirstSeenOrderAndComeBack() {
        VertexNames n = new VertexNames(1);
        assertEquals(1, n.id("core-1"));
        assertEquals(2, n.id("10.0.0.2"));
        assertEquals(1, n.id("core-1"), "the same name, the same id");
        assertEquals(3, n.id("edge-7/eth0"));
        assertEquals(3, n.size());
        assertEquals("10.0.0.2", n.name(2));
        assertEquals(3, n.existingId("edge-7/eth0"));
        assertThrows(IllegalArgumentException.class, () -> n.existingId("nope"));
        assertThrows(IllegalArgumentException.class, () -> n.name(-1), "-1 (unreachable) names nothing");
        assertThrows(IllegalArgumentException.class, () -> n.name(4));
    }

    @Test
    void aNamedTopologyRoundTripsThroughTheEngine() {
        List<String[]> links = List.of(new String[] {"r1", "r2", "4"}, new String[] {"r2", "sw-a", "1"},
                new String[] {"r1", "sw-a", "7"}, new String[] {"sw-a", "host-9", "2"});
        VertexNames n = new VertexNames();
        EdgeList edges = new EdgeList(0, true);
        for (String[] l : links) edges.add(n.id(l[0]), n.id(l[1]), Double.parseDouble(l[2]));
        edges.ensureVertexCount(n.size());
        CsrGraph g = GraphBuilder.build(edges);
        double[] d = DijkstraReference.run(g, n.existingId("r1")).distances();
        assertEquals(7.0, d[n.existingId("host-9")], "r1 -4-> r2 -1-> sw-a -2-> host-9");
        int[] parents = DijkstraReference.run(g, n.existingId("r1")).parents();
        assertEquals("sw-a", n.name(parents[n.existingId("host-9")]));
    }
}
