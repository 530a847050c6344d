package org.frontiergraph.kernels.sssp;

import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Checks an SSSP answer. Distances are unique (every correct implementation computes the minimum over paths of
 * the same double additions), so they must equal {@link DijkstraReference}'s exactly, infinity for unreachable
 * vertices. Parents are checked by rules:
 * <ul>
 *   <li>parent[source] = source and dist[source] = 0;</li>
 *   <li>parent[v] = u (v != source) => the arc u->v exists and dist[u] + w(u,v) == dist[v] in double arithmetic
 *       (the CSR merges parallel arcs to the smallest weight, so w(u,v) is unique);</li>
 *   <li>unreachable vertices have parent {@link SsspResult#NO_PARENT}; reachable ones have a parent.</li>
 * </ul>
 * The message names the first violating vertex.
 */
public final class SsspVerifier {
    private SsspVerifier() {}

    public static Verification verify(CsrGraph g, int source, SsspResult r) {
        return verify(g, source, r, DijkstraReference.run(g, source));
    }

    /** As {@link #verify(CsrGraph, int, SsspResult)} with a precomputed reference answer for the same source. */
    public static Verification verify(CsrGraph g, int source, SsspResult r, SsspResult reference) {
        int n = g.vertexCount();
        if (r == null) return Verification.fail("no result");
        if (reference.source() != source) {
            return Verification.fail("reference is for source " + reference.source() + ", not " + source);
        }
        if (r.source() != source) return Verification.fail("result is for source " + r.source() + ", not " + source);
        double[] dist = r.distances(), expected = reference.distances();
        int[] parents = r.parents();
        if (dist == null || dist.length != n) {
            return Verification.fail("distances has length " + (dist == null ? "null" : dist.length)
                    + ", expected " + n);
        }
        if (parents == null || parents.length != n) {
            return Verification.fail("parents has length " + (parents == null ? "null" : parents.length)
                    + ", expected " + n);
        }
        for (int v = 0; v < n; v++) {
            // == (not Double.compare): 0.0 and -0.0 cannot arise, NaN must fail
            if (!(dist[v] == expected[v])) {
                return Verification.fail("vertex " + v + ": distance " + dist[v] + ", reference " + expected[v]
                        + " (source " + source + ")");
            }
        }
        if (parents[source] != source) {
            return Verification.fail("source " + source + " has parent " + parents[source] + ", expected itself");
        }
        double[] w = g.weights();
        for (int v = 0; v < n; v++) {
            if (v == source) continue;
            int u = parents[v];
            if (dist[v] == Double.POSITIVE_INFINITY) {
                if (u != SsspResult.NO_PARENT) {
                    return Verification.fail("vertex " + v + " is unreachable but has parent " + u);
                }
                continue;
            }
            if (u < 0 || u >= n) {
                return Verification.fail("vertex " + v + " is reachable (distance " + dist[v] + ") but has parent " + u);
            }
            int arc = g.findArc(u, v);
            if (arc < 0) {
                return Verification.fail("vertex " + v + " has parent " + u + " but there is no arc " + u + "->" + v);
            }
            if (!(dist[u] + w[arc] == dist[v])) {
                return Verification.fail("vertex " + v + " (distance " + dist[v] + ") has parent " + u
                        + " with distance " + dist[u] + " over an arc of weight " + w[arc]);
            }
        }
        return Verification.passed();
    }
}
