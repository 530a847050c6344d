package org.frontiergraph.worker.ui;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Positions for drawing a small graph (a few thousand vertices), deterministic for a given graph: a landmark
 * embedding (x, y = hop distances from two far-apart vertices, which unfolds road-like topologies) refined by
 * Fruchterman-Reingold iterations with grid-bucketed repulsion (O(n) per iteration). Coordinates in [0, 1].
 * Vertices of other components are placed by the same rule within their own bands.
 */
public final class GraphLayout {
    private GraphLayout() {}

    private static final int ITERATIONS = 120;

    /** x0, y0, x1, y1, ... for every vertex. */
    public static double[] of(CsrGraph g) {
        int n = g.vertexCount();
        double[] p = new double[2 * n];
        if (n == 0) return p;
        landmarks(g, p);
        refine(g, p);
        normalize(p);
        return p;
    }

    /**
     * Per component: a = the vertex farthest from its first vertex, b = the vertex farthest from a; x = hops from a,
     * y = hops from b; components are stacked in bands.
     */
    private static void landmarks(CsrGraph g, double[] p) {
        int n = g.vertexCount();
        boolean[] placed = new boolean[n];
        int[] fromA = new int[n], fromB = new int[n];
        double band = 0;
        for (int s = 0; s < n; s++) {
            if (placed[s]) continue;
            int a = bfs(g, s, fromA);
            int b = bfs(g, a, fromA);
            bfs(g, b, fromB);
            int height = 0;
            for (int v = 0; v < n; v++) {
                if (fromA[v] < 0) continue;
                placed[v] = true;
                p[2 * v] = fromA[v];
                p[2 * v + 1] = band + fromB[v];
                height = Math.max(height, fromB[v]);
            }
            band += height + 2;
        }
    }

    /** Hop distances from s over arcs in both directions (-1: not reached); returns the last vertex reached. */
    private static int bfs(CsrGraph g, int s, int[] hops) {
        Arrays.fill(hops, -1);
        int[] off = g.rowOffsets(), col = g.columns();
        CsrGraph t = g.transpose();
        int[] toff = t.rowOffsets(), tcol = t.columns();
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        hops[s] = 0;
        queue.add(s);
        int last = s;
        while (!queue.isEmpty()) {
            int u = queue.poll();
            last = u;
            for (int e = off[u]; e < off[u + 1]; e++) if (hops[col[e]] < 0) { hops[col[e]] = hops[u] + 1; queue.add(col[e]); }
            for (int e = toff[u]; e < toff[u + 1]; e++) if (hops[tcol[e]] < 0) { hops[tcol[e]] = hops[u] + 1; queue.add(tcol[e]); }
        }
        return last;
    }

    private static void refine(CsrGraph g, double[] p) {
        int n = g.vertexCount();
        normalize(p);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < p.length; i++) p[i] += (rnd.nextDouble() - 0.5) * 1e-3;  // separate coincident points
        double k = Math.sqrt(1.0 / n);  // ideal edge length in the unit square
        int cells = Math.max(1, (int) (1 / (2 * k)));
        double[] d = new double[2 * n];
        int[] off = g.rowOffsets(), col = g.columns();
        int[] head = new int[cells * cells], next = new int[n];
        double temperature = 0.05;
        for (int it = 0; it < ITERATIONS; it++) {
            Arrays.fill(d, 0);
            Arrays.fill(head, -1);
            for (int v = 0; v < n; v++) {
                int c = cell(p[2 * v], cells) * cells + cell(p[2 * v + 1], cells);
                next[v] = head[c];
                head[c] = v;
            }
            for (int v = 0; v < n; v++) {  // repulsion from vertices in the 3 x 3 neighbouring cells
                int cx = cell(p[2 * v], cells), cy = cell(p[2 * v + 1], cells);
                for (int x = Math.max(0, cx - 1); x <= Math.min(cells - 1, cx + 1); x++) {
                    for (int y = Math.max(0, cy - 1); y <= Math.min(cells - 1, cy + 1); y++) {
                        for (int u = head[x * cells + y]; u >= 0; u = next[u]) {
                            if (u == v) continue;
                            double dx = p[2 * v] - p[2 * u], dy = p[2 * v + 1] - p[2 * u + 1];
                            double dist2 = Math.max(dx * dx + dy * dy, 1e-12);
                            double f = k * k / dist2;
                            d[2 * v] += dx * f;
                            d[2 * v + 1] += dy * f;
                        }
                    }
                }
            }
            for (int u = 0; u < n; u++) {  // attraction along arcs
                for (int e = off[u]; e < off[u + 1]; e++) {
                    int v = col[e];
                    double dx = p[2 * v] - p[2 * u], dy = p[2 * v + 1] - p[2 * u + 1];
                    double dist = Math.sqrt(dx * dx + dy * dy);
                    double f = dist / k;
                    d[2 * u] += dx * f;
                    d[2 * u + 1] += dy * f;
                }
            }
            for (int v = 0; v < n; v++) {
                double dx = d[2 * v], dy = d[2 * v + 1];
                double len = Math.sqrt(dx * dx + dy * dy);
                if (len > 0) {
                    double step = Math.min(len, temperature) / len;
                    p[2 * v] += dx * step;
                    p[2 * v + 1] += dy * step;
                }
            }
            temperature *= 0.97;
        }
    }

    private static int cell(double x, int cells) {
        return Math.min(cells - 1, Math.max(0, (int) (x * cells)));
    }

    private static void normalize(double[] p) {
        double minX = Double.MAX_VALUE, minY = Double.MAX_VALUE, maxX = -Double.MAX_VALUE, maxY = -Double.MAX_VALUE;
        for (int i = 0; i < p.length; i += 2) {
            minX = Math.min(minX, p[i]);
            maxX = Math.max(maxX, p[i]);
            minY = Math.min(minY, p[i + 1]);
            maxY = Math.max(maxY, p[i + 1]);
        }
        double span = Math.max(maxX - minX, maxY - minY);
        if (span == 0) span = 1;
        for (int i = 0; i < p.length; i += 2) {
            p[i] = (p[i] - minX) / span;
            p[i + 1] = (p[i + 1] - minY) / span;
        }
    }
}
