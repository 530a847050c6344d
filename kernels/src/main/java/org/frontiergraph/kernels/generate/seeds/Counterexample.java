package org.frontiergraph.kernels.generate.seeds;

import java.util.Arrays;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * Paper 003's counterexample (Martín, Torres, Gavilanes, §4.3 and Fig. 5 right) to the two-kernel SSSP of paper 004:
 * a graph on which 004's relax, {@code if (uc[j] > c[i] + w[i,j]) uc[j] = c[i] + w[i,j]} without atomics, races
 * (write-after-write) and leaves a wrong, run-dependent distance. 003 ran it with n = 1024, 32 threads per block.
 *
 * <p>The figure itself is lost in our text of 003; the structure below is fixed by what §4.3 says of it, from
 * source 0:
 * <ul>
 *   <li>"vertices ranging from 1 to n-2 will compose the frontier after the first iteration. Actually c[i] = uc[i] =
 *       1, for 1 <= i <= n-2, and c[n-1] = uc[n-1] = INFINITY": so arcs 0 -> i of weight 1 for every 1 <= i <= n-2,
 *       and no arc 0 -> n-1;</li>
 *   <li>"every vertex (1 <= i <= n-2) tries to relax uc[n-1] to a different value during the second iteration ...
 *       instead of computing the right solution c[n-1] = 2": so an arc i -> n-1 from every middle vertex, with
 *       pairwise different weights, the smallest being 1. We take w(i, n-1) = n-1-i (n-2 down to 1): the value a
 *       thread writes, 1 + w = n - i, falls as the thread index rises, so a thread scheduled after another always
 *       finds its own value smaller and writes; that maximises the simultaneous writes the paper wants ("to increase
 *       the number of these critical situations"). The right answer comes from vertex n-2.</li>
 * </ul>
 * So: 2(n-2) arcs, directed. Distances from 0: c[0] = 0, c[i] = 1 for 1 <= i <= n-2, c[n-1] = 2
 * ({@link #distancesFromZero(int)}). 003 also ran "the undirected version of the graph"
 * ({@link #generate(int, boolean)} with {@code directed = false}); the distances from 0 are the same.
 */
public final class Counterexample {
    /** 003's size. */
    public static final int VERTICES = 1024;

    private Counterexample() {}

    /** The directed counterexample with n = 1024. */
    public static EdgeList generate() {
        return generate(VERTICES, true);
    }

    /** The directed counterexample on {@code n} vertices. */
    public static EdgeList generate(int n) {
        return generate(n, true);
    }

    /** @throws IllegalArgumentException when n < 3 */
    public static EdgeList generate(int n, boolean directed) {
        if (n < 3) throw new IllegalArgumentException("the counterexample needs at least 3 vertices, got " + n);
        EdgeList e = new EdgeList(n, directed, 2 * (n - 2));
        for (int i = 1; i <= n - 2; i++) e.add(0, i, 1);
        for (int i = 1; i <= n - 2; i++) e.add(i, n - 1, n - 1 - i);
        return e;
    }

    /** The right SSSP distances from vertex 0: 0, then 1 for vertices 1..n-2, then 2 for vertex n-1. */
    public static double[] distancesFromZero(int n) {
        double[] d = new double[n];
        Arrays.fill(d, 1, n - 1, 1.0);
        d[n - 1] = 2;
        return d;
    }
}
