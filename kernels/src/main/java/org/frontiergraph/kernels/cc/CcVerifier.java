package org.frontiergraph.kernels.cc;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Checks a CC answer against the graph itself and, when given, a reference. Against the graph (O(n + m)):
 * <ul>
 *   <li>there is one label per vertex, in range;</li>
 *   <li>every arc joins two vertices of equal label (so each label class is a union of components);</li>
 *   <li>each label L is a vertex labeled L, and no vertex has a label above its own id (so L is its class's
 *       smallest vertex);</li>
 *   <li>a search from each label L over the undirected graph underneath reaches its whole class (so each class is
 *       one component: labels are exactly the components, each named by its smallest vertex);</li>
 *   <li>{@code components} is the number of labels and {@code largest} the size of the largest class.</li>
 * </ul>
 * Against a reference: the same labels, vertex for vertex, and the same counts.
 */
public final class CcVerifier {
    private CcVerifier() {}

    public static Verification verify(CsrGraph g, CcResult r, CcResult expected) {
        Verification self = verify(g, r);
        if (!self.ok()) return self;
        int first = Arrays.mismatch(r.labels(), expected.labels());
        if (first >= 0) {
            return Verification.fail("label of vertex " + first + " is " + r.labels()[first] + ", the reference says "
                    + expected.labels()[first]);
        }
        if (r.components() != expected.components() || r.largest() != expected.largest()) {
            return Verification.fail("components " + r.components() + ", largest " + r.largest()
                    + "; the reference says " + expected.components() + ", " + expected.largest());
        }
        return Verification.passed();
    }

    public static Verification verify(CsrGraph g, CcResult r) {
        int n = g.vertexCount();
        int[] label = r.labels();
        if (label.length != n) return Verification.fail(label.length + " labels for " + n + " vertices");
        int[] sizes = new int[n];
        int components = 0, largest = 0;
        for (int v = 0; v < n; v++) {
            int l = label[v];
            if (l < 0 || l > v) return Verification.fail("vertex " + v + " has label " + l + " (not in 0.." + v + ")");
            if (label[l] != l) return Verification.fail("vertex " + v + " has label " + l + ", which is labeled " + label[l]);
            largest = Math.max(largest, ++sizes[l]);
            if (l == v) components++;
        }
        int[] rows = g.rowOffsets(), cols = g.columns();
        for (int u = 0; u < n; u++) {
            for (int i = rows[u]; i < rows[u + 1]; i++) {
                if (label[u] != label[cols[i]]) {
                    return Verification.fail("arc " + u + " -> " + cols[i] + " joins labels " + label[u] + " and "
                            + label[cols[i]]);
                }
            }
        }
        CsrGraph in = g.transpose();
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        for (int s = 0; s < n; s++) {
            if (label[s] != s) continue;
            int head = 0, tail = 0;
            queue[tail++] = s;
            seen[s] = true;
            while (head < tail) {
                int u = queue[head++];
                tail = visit(g, u, seen, queue, tail);
                if (in != g) tail = visit(in, u, seen, queue, tail);
            }
            if (tail != sizes[s]) {
                return Verification.fail("label " + s + " names " + sizes[s] + " vertices but " + tail
                        + " are connected to it");
            }
        }
        if (components != r.components()) return Verification.fail(components + " components, the result says " + r.components());
        if (largest != r.largest()) return Verification.fail("the largest component has " + largest + " vertices, the result says " + r.largest());
        return Verification.passed();
    }

    private static int visit(CsrGraph g, int u, boolean[] seen, int[] queue, int tail) {
        int[] cols = g.columns();
        for (int i = g.rowStart(u); i < g.rowEnd(u); i++) {
            int v = cols[i];
            if (!seen[v]) {
                seen[v] = true;
                queue[tail++] = v;
            }
        }
        return tail;
    }
}
