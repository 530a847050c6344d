package org.frontiergraph.kernels.io;

import java.util.Arrays;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;

/** Compares edge lists by the graph they build. */
final class GraphFilesTestSupport {
    private GraphFilesTestSupport() {}

    static String csrSignature(EdgeList e) {
        CsrGraph g = GraphBuilder.build(e);
        return g + Arrays.toString(g.rowOffsets()) + Arrays.toString(g.columns()) + Arrays.toString(g.weights());
    }

    static EdgeList asDirected(EdgeList e) {
        EdgeList out = new EdgeList(e.vertexCount(), true);
        for (int i = 0; i < e.size(); i++) {
            out.add(e.source(i), e.target(i), e.weight(i));
            out.add(e.target(i), e.source(i), e.weight(i));
        }
        return out;
    }
}
