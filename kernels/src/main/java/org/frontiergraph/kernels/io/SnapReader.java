package org.frontiergraph.kernels.io;

import java.io.IOException;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * SNAP edge list: {@code #} or {@code %} comment lines, then {@code u v [w]} separated by spaces or tabs,
 * 0-based ids. There is no header: the vertex count is the largest id + 1 (so ids never used below it become
 * isolated vertices). A missing weight reads as 1.
 */
final class SnapReader {
    private SnapReader() {}

    static LoadedGraph read(ByteScanner s, boolean undirected) throws IOException {
        EdgeList edges = new EdgeList(0, !undirected, 1 << 16);
        long selfLoops = 0;
        long maxId = -1;
        boolean weighted = false;
        while (true) {
            int c = s.nextContentLine("#%");
            if (c == ByteScanner.EOF) break;
            long u = s.readLong("source vertex");
            long v = s.readLong("target vertex");
            checkVertex(s, u);
            checkVertex(s, v);
            double w = 1.0;
            if (!s.atLineEnd()) {
                w = s.readNumber("edge weight");
                weighted = true;
            }
            s.endLine("the edge weight");
            if (u == v) selfLoops++;
            if (u > maxId) maxId = u;
            if (v > maxId) maxId = v;
            edges.add((int) u, (int) v, w);
        }
        edges.ensureVertexCount((int) (maxId + 1));
        return new LoadedGraph(edges, 0, GraphFormat.SNAP, weighted, s.lines, s.comments, s.blanks, selfLoops);
    }

    private static void checkVertex(ByteScanner s, long id) throws GraphFileException {
        if (id < 0 || id >= GraphFiles.MAX_VERTICES) {
            throw s.error("vertex " + id + " outside 0.." + (GraphFiles.MAX_VERTICES - 1));
        }
    }
}
