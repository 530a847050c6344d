package org.frontiergraph.kernels.cc;

import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * The plain reference for CC, written to be obviously right and nothing else: a sequential breadth-first search of
 * the undirected graph underneath (out-arcs and, on a directed graph, the in-arcs of the transpose), started from
 * each unlabeled vertex in increasing id order, so each component is labeled by the vertex it was found from, its
 * smallest.
 */
public final class CcReference {
    private CcReference() {}

    public static CcResult run(CsrGraph g) {
        long t0 = System.nanoTime();
        int n = g.vertexCount();
        CsrGraph in = g.transpose();
        int[] label = new int[n];
        java.util.Arrays.fill(label, -1);
        int[] queue = new int[n];
        for (int s = 0; s < n; s++) {
            if (label[s] >= 0) continue;
            label[s] = s;
            int head = 0, tail = 0;
            queue[tail++] = s;
            while (head < tail) {
                int u = queue[head++];
                for (CsrGraph side : in == g ? new CsrGraph[] {g} : new CsrGraph[] {g, in}) {
                    for (int i = side.rowStart(u); i < side.rowEnd(u); i++) {
                        int v = side.columns()[i];
                        if (label[v] < 0) {
                            label[v] = s;
                            queue[tail++] = v;
                        }
                    }
                }
            }
        }
        return CcResult.of(label, Timing.since(t0));
    }
}
