package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * Checks a minimum spanning forest of the undirected graph underneath a graph. The forest is unique under the
 * (weight, edge id) tie-break, so the answer is compared with {@link KruskalReference}'s exactly. Checks, in order:
 * <ul>
 *   <li>edge ids ascending and within {@code 0..undirectedEdges().size()-1};</li>
 *   <li>the edges form a forest (union-find finds no cycle);</li>
 *   <li>components equals the number of connected components (isolated vertices included), and the edge count is
 *       vertexCount - components (so the forest spans every component);</li>
 *   <li>totalWeight equals the exact sum of the chosen weights and the reference's totalWeight (==);</li>
 *   <li>the edge set equals the reference's.</li>
 * </ul>
 */
public final class MstVerifier {
    private MstVerifier() {}

    public static Verification verify(CsrGraph g, MstResult r) {
        return verify(g, r, KruskalReference.run(g));
    }

    /** As {@link #verify(CsrGraph, MstResult)} with a precomputed reference answer. */
    public static Verification verify(CsrGraph g, MstResult r, MstResult reference) {
        if (r == null) return Verification.fail("no result");
        UndirectedEdges edges = g.undirectedEdges();
        int n = g.vertexCount(), m = edges.size();
        int[] ids = r.edgeIds();
        if (ids == null) return Verification.fail("edgeIds is null");
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0 || ids[i] >= m) {
                return Verification.fail("edgeIds[" + i + "] = " + ids[i] + " is not an edge id (0.." + (m - 1) + ")");
            }
            if (i > 0 && ids[i] <= ids[i - 1]) {
                return Verification.fail("edgeIds not strictly ascending at index " + i + ": " + ids[i - 1]
                        + " then " + ids[i]);
            }
        }
        int[] forest = identity(n);
        for (int id : ids) {
            int a = find(forest, edges.u[id]), b = find(forest, edges.v[id]);
            if (a == b) {
                return Verification.fail("edge " + id + " {" + edges.u[id] + "," + edges.v[id] + "} closes a cycle");
            }
            forest[a] = b;
        }
        int components = componentCount(edges, n);
        if (r.components() != components) {
            return Verification.fail("components " + r.components() + ", but the graph has " + components);
        }
        if (ids.length != n - components) {
            return Verification.fail(ids.length + " edges do not span " + n + " vertices in " + components
                    + " components (expected " + (n - components) + ")");
        }
        double exact = ExactSum.of(edges.w, ids);
        if (!(r.totalWeight() == exact)) {
            return Verification.fail("totalWeight " + r.totalWeight() + ", but the chosen edges sum to " + exact);
        }
        if (!(r.totalWeight() == reference.totalWeight())) {
            return Verification.fail("totalWeight " + r.totalWeight() + ", reference " + reference.totalWeight());
        }
        int[] expected = reference.edgeIds();
        if (!Arrays.equals(ids, expected)) {
            int i = Arrays.mismatch(ids, expected);
            String got = i < ids.length ? String.valueOf(ids[i]) : "(end)";
            String want = i < expected.length ? String.valueOf(expected[i]) : "(end)";
            return Verification.fail("edge set differs from the reference at index " + i + ": " + got
                    + ", reference " + want + " (ties are broken by (weight, edge id))");
        }
        return Verification.passed();
    }

    /** Connected components of the undirected graph, isolated vertices included. */
    static int componentCount(UndirectedEdges edges, int n) {
        int[] p = identity(n);
        int components = n;
        for (int i = 0; i < edges.size(); i++) {
            int a = find(p, edges.u[i]), b = find(p, edges.v[i]);
            if (a != b) {
                p[a] = b;
                components--;
            }
        }
        return components;
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        return p;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
