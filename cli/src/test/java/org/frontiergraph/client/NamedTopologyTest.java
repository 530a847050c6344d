package org.frontiergraph.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.junit.jupiter.api.Test;

/** Named vertices (a small network topology) numbered by {@link VertexNames}, computed on by the engine, named back. */
class NamedTopologyTest {
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
