package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Checks a BFS answer. Hop counts are unique, so they must equal {@link BfsReference}'s exactly; parents have many
 * valid forms and are checked by rules (as gapbs {@code bfs.cc} does):
 * <ul>
 *   <li>parent[source] = source and hops[source] = 0;</li>
 *   <li>parent[v] = u (v != source) => the arc u->v exists and hops[v] = hops[u] + 1;</li>
 *   <li>every reached vertex has a parent; unreached vertices have hops and parent {@link BfsResult#UNREACHED}.</li>
 * </ul>
 * The message names the first violating vertex.
 */
public final class BfsVerifier {
    private BfsVerifier() {}

    public static Verification verify(CsrGraph g, int source, BfsResult r) {
        return verify(g, source, r, BfsReference.run(g, source));
    }

    /** As {@link #verify(CsrGraph, int, BfsResult)} with a precomputed reference answer for the same source. */
    public static Verification verify(CsrGraph g, int source, BfsResult r, BfsResult reference) {
        int n = g.vertexCount();
        if (r == null) return Verification.fail("no result");
        if (reference.source() != source) {
            return Verification.fail("reference is for source " + reference.source() + ", not " + source);
        }
        if (r.source() != source) return Verification.fail("result is for source " + r.source() + ", not " + source);
        int[] hops = r.hops(), parents = r.parents(), expected = reference.hops();
        if (hops == null || hops.length != n) {
            return Verification.fail("hops has length " + (hops == null ? "null" : hops.length) + ", expected " + n);
        }
        if (parents == null || parents.length != n) {
            return Verification.fail("parents has length " + (parents == null ? "null" : parents.length)
                    + ", expected " + n);
        }
        for (int v = 0; v < n; v++) {
            if (hops[v] != expected[v]) {
                return Verification.fail("vertex " + v + ": hops " + hops[v] + ", reference " + expected[v]
                        + " (source " + source + ")");
            }
        }
        if (parents[source] != source) {
            return Verification.fail("source " + source + " has parent " + parents[source] + ", expected itself");
        }
        for (int v = 0; v < n; v++) {
            if (v == source) continue;
            int u = parents[v];
            if (hops[v] == BfsResult.UNREACHED) {
                if (u != BfsResult.UNREACHED) {
                    return Verification.fail("vertex " + v + " is unreached but has parent " + u);
                }
                continue;
            }
            if (u < 0 || u >= n) {
                return Verification.fail("vertex " + v + " is reached (hops " + hops[v] + ") but has parent " + u);
            }
            if (g.findArc(u, v) < 0) {
                return Verification.fail("vertex " + v + " has parent " + u + " but there is no arc " + u + "->" + v);
            }
            if (hops[v] != hops[u] + 1) {
                return Verification.fail("vertex " + v + " (hops " + hops[v] + ") has parent " + u + " with hops "
                        + hops[u] + "; expected " + (hops[v] - 1));
            }
        }
        return Verification.passed();
    }
}
