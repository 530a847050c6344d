package org.frontiergraph.bench.incremental;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;

/**
 * Random single-edge updates of one graph, one {@link EdgeEdits} each (as the worker receives them, one GraphUpdate
 * record per edge), in two series:
 * <ul>
 *   <li>{@link Series#REWEIGHTS}: a random existing arc gets a new weight, half of them heavier (old + 1 .. 2 old),
 *       half lighter (1 .. old - 1; heavier instead when old &lt; 2); integer weights stay integers;</li>
 *   <li>{@link Series#STRUCTURAL}: alternately the removal of a random existing edge (distinct within a batch) and the
 *       insertion of a random new pair u != v, weighted like a random existing arc (so the weight scale is the graph's).</li>
 * </ul>
 * A batch starts from the graph's current compact version ({@code MutableGraph.current()}); each edit must be applied
 * before the next is drawn, so that a re-weight reads the weight in force (re-weights change the base in place).
 */
final class RandomEdits {
    enum Series {
        REWEIGHTS, STRUCTURAL;

        String label() {
            return this == REWEIGHTS ? "re-weights" : "remove/insert";
        }

        static Series parse(String s) {
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "reweights", "re-weights", "reweight" -> REWEIGHTS;
                case "structural", "remove/insert", "removals", "insertions" -> STRUCTURAL;
                default -> throw new IllegalArgumentException("unknown series '" + s + "' (reweights, structural)");
            };
        }
    }

    private final CsrGraph graph;
    private final Series series;
    private final SplittableRandom random;
    private final Set<Long> removed = new HashSet<>();
    private int drawn;

    /** Edits of {@code graph} (the batch's starting version) in {@code series}. */
    RandomEdits(CsrGraph graph, Series series, SplittableRandom random) {
        if (graph.arcCount() == 0) throw new IllegalArgumentException("a graph without edges has nothing to update");
        this.graph = graph;
        this.series = series;
        this.random = random;
    }

    /** The next single-edge update (0-based ids). */
    EdgeEdits next() {
        int i = drawn++;
        if (series == Series.REWEIGHTS) {
            int arc = random.nextInt(graph.arcCount());
            int u = graph.sourceOf(arc), v = graph.columns()[arc];
            return EdgeEdits.reweight(u, v, newWeight(graph.weights()[arc], i % 2 == 0));
        }
        if (i % 2 == 0 && removed.size() < graph.edgeCount() / 2) {
            while (true) {
                int arc = random.nextInt(graph.arcCount());
                int u = graph.sourceOf(arc), v = graph.columns()[arc];
                if (removed.add(key(u, v))) return EdgeEdits.remove(new int[] {u}, new int[] {v});
            }
        }
        int n = graph.vertexCount(), u, v;
        do {
            u = random.nextInt(n);
            v = random.nextInt(n);
        } while (u == v);
        double w = graph.weights()[random.nextInt(graph.arcCount())];
        return EdgeEdits.add(new int[] {u}, new int[] {v}, new double[] {w});
    }

    /** Integer weights stay integers (the CPU engine picks its kernels by that); a weight below 2 can only go up. */
    private double newWeight(double old, boolean up) {
        if (!up && old >= 2) return 1 + random.nextInt((int) Math.min(1 << 20, old - 1));
        return old + 1 + random.nextInt((int) Math.max(1, Math.min(1 << 20, old)));
    }

    private long key(int u, int v) {
        if (!graph.directed() && u > v) return ((long) v << 32) | u;
        return ((long) u << 32) | v;
    }
}
