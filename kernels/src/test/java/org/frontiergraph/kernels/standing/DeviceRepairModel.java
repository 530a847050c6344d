package org.frontiergraph.kernels.standing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.standing.Screen;

/**
 * The device repair of sssp_repair.cu (steps of repair_prepare, the settle, repair_finish) written sequentially on
 * host arrays, for the CPU tests: the method's exactness (distances, the parent rule and its orphans, the DELTA) is
 * checked on the random streams without a GPU; the GPU tests check the kernels against the same answers. Values are
 * doubles (+Inf unreached), added as the kernels add keys (the double sum; integers exactly).
 */
final class DeviceRepairModel {
    /**
     * What one repair did: the changed vertices (ascending), or null when orphans were left (the host then repairs);
     * orphans: vertices without a parent of smaller value before the adoption rounds (left ones when changed is null).
     */
    record Result(int[] changed, boolean recomputed, int invalidated, int orphans, int shifted) {}

    private DeviceRepairModel() {}

    /**
     * Repairs {@code values} and {@code parents} (n entries: grown by the caller with +Inf and -1) in place after
     * {@code changes} on {@code g} (the graph after them). {@code unit}: every arc counts 1. On orphans the arrays hold
     * the device's attempt (exact values, some parents missing) and {@code changed} is null. {@code shiftPasses}: the
     * passes of step 6 (integer weights and hops only, as the kernels' key forms).
     */
    static Result repair(CsrGraph g, ChangedEdges changes, double[] values, int[] parents, int source, boolean unit,
                         double maxInvalidFraction, int shiftPasses) {
        int n = g.vertexCount();
        Screen screen = Screen.of(g, changes);
        int[] tails = screen.tails(), heads = screen.heads();
        double[] w = screen.weights();
        double[] oldValues = values.clone();
        int[] oldParents = parents.clone();
        boolean[] mark = new boolean[n];
        // (1) roots
        for (int i = 0; i < tails.length; i++) {
            int t = tails[i], h = heads[i];
            if (t == h || h == source || parents[h] != t) continue;
            if (Double.isNaN(w[i]) || values[t] + (unit ? 1 : w[i]) > values[h]) mark[h] = true;
        }
        // (2) subtrees (pointer jumping, sequentially: the same set)
        int[] anc = new int[n];
        for (int v = 0; v < n; v++) anc[v] = mark[v] || v == source ? -1 : parents[v];
        for (boolean active = true; active; ) {
            active = false;
            for (int v = 0; v < n; v++) {
                if (mark[v] || anc[v] < 0) continue;
                int a = anc[v];
                if (mark[a]) {
                    mark[v] = true;
                    continue;
                }
                anc[v] = anc[a];
                active |= anc[v] >= 0;
            }
        }
        // (3) reset
        int invalid = 0;
        for (int v = 0; v < n; v++) {
            if (!mark[v]) continue;
            invalid++;
            values[v] = Double.POSITIVE_INFINITY;
            parents[v] = -1;
        }
        CsrGraph in = g.directed() ? g.transpose() : g;
        ArrayDeque<Integer> seeds = new ArrayDeque<>();
        boolean[] listed = new boolean[n];   // in far list 0 (the kernels list a vertex once)
        boolean recompute = invalid > Math.floor(maxInvalidFraction * n);
        if (recompute) {
            Arrays.fill(values, Double.POSITIVE_INFINITY);
            Arrays.fill(parents, -1);
            Arrays.fill(mark, true);
            values[source] = 0;
            parents[source] = source;
            seeds.add(source);
        } else {
            // (4) pull
            for (int v = 0; v < n; v++) {
                if (!mark[v]) continue;
                double best = Double.POSITIVE_INFINITY;
                for (int a = in.rowStart(v); a < in.rowEnd(v); a++) {
                    int u = in.columns()[a];
                    if (mark[u] || values[u] == Double.POSITIVE_INFINITY) continue;
                    best = Math.min(best, values[u] + (unit ? 1 : in.weights()[a]));
                }
                if (best != Double.POSITIVE_INFINITY) {
                    values[v] = best;
                    list(v, seeds, listed);
                }
            }
            // (5) seed
            for (int i = 0; i < tails.length; i++) {
                int t = tails[i], h = heads[i];
                if (t == h || Double.isNaN(w[i]) || mark[t] || values[t] == Double.POSITIVE_INFINITY) continue;
                double d = values[t] + (unit ? 1 : w[i]);
                if (d < values[h]) {
                    values[h] = d;
                    list(h, seeds, listed);
                }
            }
        }
        int shifted = recompute || !(unit || g.integralWeights()) ? 0
                : shift(g, values, oldValues, oldParents, mark, source, unit, shiftPasses, seeds, listed);
        // settle: relax from the seeds to the fixed point (any order gives the same least fixed point)
        while (!seeds.isEmpty()) {
            int u = seeds.poll();
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) {
                int v = g.columns()[a];
                double d = values[u] + (unit ? 1 : g.weights()[a]);
                if (d < values[v]) {
                    values[v] = d;
                    seeds.add(v);
                }
            }
        }
        // parents: strictly smaller tight in-neighbours, the old parent first, else the smallest
        int orphans = 0;
        for (int v = 0; v < n; v++) {
            if (v == source || !(mark[v] || values[v] != oldValues[v])) continue;
            int best = Integer.MAX_VALUE;
            boolean old = false;
            for (int a = in.rowStart(v); a < in.rowEnd(v); a++) {
                int u = in.columns()[a];
                if (values[u] < values[v] && values[u] + (unit ? 1 : in.weights()[a]) == values[v]) {
                    if (u == oldParents[v]) old = true;
                    best = Math.min(best, u);
                }
            }
            parents[v] = old ? oldParents[v] : best == Integer.MAX_VALUE ? -1 : best;
            if (parents[v] < 0 && values[v] != Double.POSITIVE_INFINITY) orphans++;
        }
        // adoption: an orphan takes a tight in-neighbour of the same value anchored in an earlier round (round 0: every
        // vertex but the orphans), the old parent first, else the smallest
        int[] round = new int[n];
        for (int v = 0; v < n; v++) round[v] = parents[v] < 0 && values[v] != Double.POSITIVE_INFINITY && v != source ? Integer.MAX_VALUE : 0;
        int left = orphans;
        for (int r = 1; left > 0; r++) {
            int adopted = 0;
            int[] pick = new int[n];
            Arrays.fill(pick, -2);
            for (int v = 0; v < n; v++) {
                if (round[v] != Integer.MAX_VALUE) continue;
                int best = Integer.MAX_VALUE;
                boolean old = false;
                for (int a = in.rowStart(v); a < in.rowEnd(v); a++) {
                    int u = in.columns()[a];
                    if (u != v && round[u] < r && values[u] == values[v] && values[u] + (unit ? 1 : in.weights()[a]) == values[v]) {
                        if (u == oldParents[v]) old = true;
                        best = Math.min(best, u);
                    }
                }
                if (best != Integer.MAX_VALUE) pick[v] = old ? oldParents[v] : best;
            }
            for (int v = 0; v < n; v++) {
                if (pick[v] == -2) continue;
                parents[v] = pick[v];
                round[v] = r;
                adopted++;
            }
            if (adopted == 0) break;
            left -= adopted;
        }
        if (left > 0) return new Result(null, recompute, invalid, left, shifted);
        int[] changed = new int[n];
        int k = 0;
        for (int v = 0; v < n; v++) if (values[v] != oldValues[v] || parents[v] != oldParents[v]) changed[k++] = v;
        return new Result(Arrays.copyOf(changed, k), recompute, invalid, orphans, shifted);
    }

    private static void list(int v, ArrayDeque<Integer> seeds, boolean[] listed) {
        if (listed[v]) return;
        listed[v] = true;
        seeds.add(v);
    }

    /**
     * (6) shift: each pass's roots (pass 0: the unmarked vertices (5) lowered; then the vertices the last pass listed)
     * take the vertices of their old subtrees down by their own drop (the nearest root's), then the arcs of those
     * subtrees are relaxed once, listing the heads they lower. Returns the vertices lowered with a root.
     */
    private static int shift(CsrGraph g, double[] values, double[] oldValues, int[] oldParents, boolean[] mark, int source,
                             boolean unit, int passes, ArrayDeque<Integer> seeds, boolean[] listed) {
        int n = g.vertexCount(), shifted = 0;
        int[] root = new int[n];
        List<Integer> roots = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            if (v != source && oldParents[v] >= 0 && !mark[v] && values[v] < oldValues[v]) roots.add(v);
        }
        for (int pass = 0; pass < passes && !roots.isEmpty(); pass++) {
            final int none = -1, open = -2;
            Arrays.fill(root, open);
            for (int h : roots) root[h] = h;
            for (int v = 0; v < n; v++) {   // the nearest root above v, or none (walk up, then fill the walked path)
                List<Integer> path = new ArrayList<>();
                int x = v;
                while (root[x] == open) {
                    if (x == source || oldParents[x] < 0 || mark[x]) {
                        root[x] = none;
                        break;
                    }
                    path.add(x);
                    x = oldParents[x];
                }
                for (int y : path) root[y] = root[x];
            }
            for (int v = 0; v < n; v++) {
                int h = root[v];
                if (h < 0 || h == v) continue;
                double k = oldValues[v] - (oldValues[h] - values[h]);
                if (k < values[v]) {
                    values[v] = k;
                    shifted++;
                }
            }
            List<Integer> next = new ArrayList<>();
            for (int u = 0; u < n; u++) {
                if (root[u] < 0) continue;
                for (int a = g.rowStart(u); a < g.rowEnd(u); a++) {
                    int y = g.columns()[a];
                    double d = values[u] + (unit ? 1 : g.weights()[a]);
                    if (y != u && d < values[y]) {
                        values[y] = d;
                        if (!listed[y]) next.add(y);
                        list(y, seeds, listed);
                    }
                }
            }
            roots.clear();
            for (int y : next) if (y != source && oldParents[y] >= 0 && !mark[y]) roots.add(y);
        }
        return shifted;
    }
}
