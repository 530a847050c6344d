package org.frontiergraph.kernels.standing;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;

/**
 * The shared first pass of a batch over many trees of one graph (the standing answers of its subscriptions): which
 * trees the batch can touch at all. Built once per batch, it looks each changed pair's arc up once ({@code findArc},
 * both directions on an undirected graph), so that screening one tree costs two or three array reads per changed
 * arc and stops at the first arc that matters. A tree is untouched when, for every changed arc u->v, either the
 * tree uses it (parent[v] == u) and it still gives v exactly its distance, or the tree does not use it and it
 * does not shorten v's distance (a re-weight or removal of an arc off the tree, a heavier one included, an
 * insertion that is no shortcut). On an untouched tree {@link TreeRepair#repair} would do nothing (no vertex invalidated,
 * none seeded, no work) and return no changed vertex: the caller may skip it. A batch that added vertices touches
 * every tree (their arrays grow).
 */
public final class Screen {
    private final boolean grown;
    /** Per changed arc (both directions of an undirected pair): tail, head and weight now (NaN: no such arc). */
    private final int[] tails, heads;
    private final double[] weights;

    private Screen(boolean grown, int[] tails, int[] heads, double[] weights) {
        this.grown = grown;
        this.tails = tails;
        this.heads = heads;
        this.weights = weights;
    }

    /** The screen of {@code changes} on {@code graph} (the graph after them). O(k log d) for k changed pairs. */
    public static Screen of(CsrGraph graph, ChangedEdges changes) {
        return of(changes, graph.vertexCount(), graph.directed(), (tails, heads) -> {
            double[] now = new double[tails.length];
            for (int i = 0; i < now.length; i++) {
                long arc = graph.findArcLong(tails[i], heads[i]);   // either form: a wide graph's standing answers screen too
                now[i] = arc < 0 ? Double.NaN : graph.weightAt(arc);
            }
            return now;
        });
    }

    /**
     * The screen of {@code changes} on the current version of {@code graph} (the graph after them), its weights
     * read without a merge ({@link MutableGraph#weightsOf}): what a graph whose copy lives on the device screens
     * with (the device repair, {@link DeviceTrees}, also takes its changed arcs from here).
     */
    public static Screen of(MutableGraph graph, ChangedEdges changes) {
        boolean directed = graph.directed();
        return of(changes, graph.vertexCount(), directed, (tails, heads) -> {
            long[] keys = new long[tails.length];
            for (int i = 0; i < keys.length; i++) {
                int u = tails[i], v = heads[i];
                if (!directed && u > v) {
                    u = heads[i];
                    v = tails[i];
                }
                keys[i] = (long) u << 32 | v;
            }
            return keys.length < 1024 ? weightsOneByOne(graph, keys) : graph.weightsOf(keys);
        });
    }

    private static double[] weightsOneByOne(MutableGraph graph, long[] keys) {
        double[] w = new double[keys.length];
        for (int i = 0; i < w.length; i++) w[i] = graph.weightOf((int) (keys[i] >>> 32), (int) keys[i]);
        return w;
    }

    /** The weights now of the arcs tails[i] -> heads[i], NaN where there is none. */
    private interface Weights {
        double[] of(int[] tails, int[] heads);
    }

    private static Screen of(ChangedEdges changes, int vertexCount, boolean directed, Weights weights) {
        int[] cu = changes.u(), cv = changes.v();
        boolean grown = vertexCount != changes.vertexCountBefore();
        int per = directed ? 1 : 2;
        int[] tails = new int[per * cu.length], heads = new int[tails.length];
        int k = 0;
        for (int i = 0; i < cu.length; i++) {
            for (int d = 0; d < per; d++) {
                int u = d == 0 ? cu[i] : cv[i], v = d == 0 ? cv[i] : cu[i];
                if (u == v) continue;   // a self-loop gives nothing (and parent[source] == source is no arc)
                tails[k] = u;
                heads[k++] = v;
            }
        }
        tails = Arrays.copyOf(tails, k);
        heads = Arrays.copyOf(heads, k);
        return new Screen(grown, tails, heads, weights.of(tails, heads));
    }

    /** The changed arcs this screen checks (both directions of an undirected pair; self-loops left out). */
    public int arcs() { return tails.length; }

    /** Whether the batch added vertices (then it touches every tree). */
    public boolean grown() { return grown; }

    /** Tail, head and weight now (NaN: no such arc) of each changed arc; do not modify. */
    int[] tails() { return tails; }

    int[] heads() { return heads; }

    double[] weights() { return weights; }

    /**
     * Whether the batch can touch the tree {@code answer} at all; false guarantees that {@link TreeRepair} would leave
     * it as it is and list no changed vertex. A tree arc u->v must still give v exactly its value (removed, heavier
     * or lighter: touched; with unit weights, a kept arc always does), and an arc off the tree must not shorten v's
     * value (false for a gone arc, NaN, and for an unreached u, +Inf).
     */
    public boolean touches(TreeAnswer<?> answer) {
        if (grown) return true;
        boolean unit = answer.unitWeights();
        for (int i = 0; i < tails.length; i++) {
            int u = tails[i], v = heads[i];
            double w = weights[i];
            boolean tree = answer.parent(v) == u;
            if (unit) {
                boolean arc = w == w;
                if (tree ? !arc : arc && answer.value(u) + 1 < answer.value(v)) return true;
            } else if (tree ? w != w || answer.value(u) + w != answer.value(v) : answer.value(u) + w < answer.value(v)) {
                return true;
            }
        }
        return false;
    }
}
