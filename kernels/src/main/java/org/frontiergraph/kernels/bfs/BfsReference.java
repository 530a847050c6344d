package org.frontiergraph.kernels.bfs;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/** Plain sequential queue BFS, written to be obviously right. The verifier's reference for hop counts. */
public final class BfsReference {
    private BfsReference() {}

    public static BfsResult run(CsrGraph g, int source) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        int[] hops = new int[n], parents = new int[n];
        Arrays.fill(hops, BfsResult.UNREACHED);
        Arrays.fill(parents, BfsResult.UNREACHED);
        int[] queue = new int[n];
        int head = 0, tail = 0;
        hops[source] = 0;
        parents[source] = source;
        queue[tail++] = source;
        int[] off = g.rowOffsets(), col = g.columns();
        while (head < tail) {
            int u = queue[head++];
            for (int e = off[u]; e < off[u + 1]; e++) {
                int v = col[e];
                if (hops[v] == BfsResult.UNREACHED) {
                    hops[v] = hops[u] + 1;
                    parents[v] = u;
                    queue[tail++] = v;
                }
            }
        }
        return new BfsResult(source, hops, parents, Timing.since(t0));
    }
}
