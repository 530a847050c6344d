package org.frontiergraph.kernels.apsp;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.DijkstraReference;

/**
 * Checks an APSP answer. What it checks:
 * <ol>
 *   <li>shape: n * n distances for the graph's n vertices;</li>
 *   <li>on every row s, the Bellman equations: d[s][s] = 0, and for v != s, d[s][v] = min over arcs u -> v of
 *       d[s][u] + w(u, v) (+infinity when there is none with d[s][u] finite); no NaN, nothing negative. With strictly
 *       positive weights these equations have one solution, the true distances; only a cycle of zero-weight arcs
 *       can carry a wrong value that satisfies them, which step 3 catches on the rows it compares. O(n m);</li>
 *   <li>equality with a reference: {@link FloydWarshallReference}, every entry, when n <=
 *       {@value #FLOYD_REFERENCE_MAX_VERTICES}; {@link DijkstraReference} from every source when n <=
 *       {@value #ALL_SOURCES_MAX_VERTICES}; beyond that, {@link DijkstraReference} from {@value #SAMPLED_SOURCES}
 *       sources (0, n - 1 and seeded picks, seed {@value #SAMPLE_SEED}).</li>
 * </ol>
 * <b>Exactness.</b> With integral weights (every path sum is an exact integer double, whatever the order of the
 * additions) the comparisons are exact (==). With fractional weights correct implementations may differ in the last
 * bits, since they add a path's weights in different orders: the comparisons then allow
 * {@value #ULPS_PER_VERTEX} n ulps of the larger value (each sum of at most n non-negative terms is within (n - 1)
 * epsilon of its exact value). Infinity must match infinity exactly either way.
 */
public final class ApspVerifier {
    public static final int FLOYD_REFERENCE_MAX_VERTICES = 512;
    public static final int ALL_SOURCES_MAX_VERTICES = 2048;
    public static final int SAMPLED_SOURCES = 64;
    public static final long SAMPLE_SEED = 17;
    static final int ULPS_PER_VERTEX = 4;
    private static final double INF = Double.POSITIVE_INFINITY;

    private ApspVerifier() {}

    public static Verification verify(CsrGraph g, ApspResult r) {
        int n = g.vertexCount();
        if (r == null) return Verification.fail("no result");
        if (r.vertexCount() != n || r.distances() == null || r.distances().length != (long) n * n) {
            return Verification.fail("expected " + n + " x " + n + " distances, got vertexCount " + r.vertexCount()
                    + " and " + (r.distances() == null ? "null" : r.distances().length + " distances"));
        }
        Tolerance tol = new Tolerance(g.integralWeights(), n);
        CsrGraph incoming = g.transpose();
        String broken = IntStream.range(0, n).parallel()
                .mapToObj(s -> bellman(incoming, r.distances(), s, tol))
                .filter(Objects::nonNull).findFirst().orElse(null);
        if (broken != null) return Verification.fail(broken);
        if (n <= FLOYD_REFERENCE_MAX_VERTICES) {
            double[] ref = FloydWarshallReference.run(g).distances();
            for (int s = 0; s < n; s++) {
                String m = compareRow(r.distances(), ref, s, n, tol, "Floyd-Warshall reference");
                if (m != null) return Verification.fail(m);
            }
            return Verification.passed();
        }
        int[] sources = n <= ALL_SOURCES_MAX_VERTICES ? IntStream.range(0, n).toArray() : sampledSources(n);
        String wrong = IntStream.of(sources).parallel()
                .mapToObj(s -> compareRow(r.distances(), DijkstraReference.run(g, s).distances(), s, n, tol,
                        "Dijkstra reference"))
                .filter(Objects::nonNull).findFirst().orElse(null);
        return wrong == null ? Verification.passed() : Verification.fail(wrong);
    }

    /** The sources compared when n > {@value #ALL_SOURCES_MAX_VERTICES}: 0, n - 1, then seeded picks. */
    static int[] sampledSources(int n) {
        Set<Integer> s = new LinkedHashSet<>();
        s.add(0);
        s.add(n - 1);
        SplittableRandom random = new SplittableRandom(SAMPLE_SEED);
        while (s.size() < Math.min(SAMPLED_SOURCES, n)) s.add(random.nextInt(n));
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Row s against the Bellman equations; null when they hold. */
    private static String bellman(CsrGraph incoming, double[] d, int s, Tolerance tol) {
        int n = incoming.vertexCount();
        int base = s * n;
        int[] off = incoming.rowOffsets(), col = incoming.columns();
        double[] w = incoming.weights();
        for (int v = 0; v < n; v++) {
            double dv = d[base + v];
            if (Double.isNaN(dv) || dv < 0) return "distance " + s + " -> " + v + " is " + dv;
            if (v == s) {
                if (dv != 0) return "distance " + s + " -> " + s + " is " + dv + ", expected 0";
                continue;
            }
            double best = INF;
            int via = -1;
            for (int e = off[v]; e < off[v + 1]; e++) {
                double through = d[base + col[e]] + w[e];
                if (through < best) {
                    best = through;
                    via = col[e];
                }
            }
            if (best == INF && dv != INF) {
                return "distance " + s + " -> " + v + " is " + dv + ", but no arc into " + v + " comes from a vertex "
                        + "reached from " + s + " (expected infinity)";
            }
            if (!tol.close(dv, best)) {
                return dv > best
                        ? "distance " + s + " -> " + v + " is " + dv + ", but the arc " + via + " -> " + v + " gives " + best
                        : "distance " + s + " -> " + v + " is " + dv + ", shorter than any path through an arc into " + v
                                + " (best " + best + " via " + via + ")";
            }
        }
        return null;
    }

    private static String compareRow(double[] d, double[] ref, int s, int n, Tolerance tol, String what) {
        int base = s * n, refBase = ref.length == n ? 0 : s * n;
        int wrong = 0, first = -1;
        for (int v = 0; v < n; v++) {
            if (!tol.close(d[base + v], ref[refBase + v])) {
                if (wrong++ == 0) first = v;
            }
        }
        if (wrong == 0) return null;
        return String.format(Locale.ROOT, "distance %d -> %d is %s, expected %s (%s); %d wrong in row %d",
                s, first, d[base + first], ref[refBase + first], what, wrong, s);
    }

    /** Exact equality for integral weights; within ULPS_PER_VERTEX * n ulps otherwise; infinity only equals itself. */
    private record Tolerance(boolean exact, int n) {
        boolean close(double a, double b) {
            if (a == b) return true;
            if (exact || a == INF || b == INF) return false;
            return Math.abs(a - b) <= (double) ULPS_PER_VERTEX * n * Math.ulp(Math.max(a, b));
        }
    }
}
