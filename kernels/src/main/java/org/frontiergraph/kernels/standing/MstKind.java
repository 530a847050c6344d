package org.frontiergraph.kernels.standing;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.MstRepair;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstVerifier;

/**
 * Standing MST: the forest and the {@link MstRepair} that keeps it, on the host. What changed is the forest edges that
 * left (weight NaN) and those that joined or changed weight, by endpoint pair. On a graph held in the wide form the
 * repair always gives up (every touched batch is recomputed), so each forest computed there keeps its edges by pair
 * with their weights ({@link Forest#held}), and {@link #compare} finds what changed between two of them.
 */
public final class MstKind implements StandingKind<MstKind.Forest> {
    public static final MstKind MST = new MstKind();

    /**
     * The forest and its repair state (built when the forest was computed, before later re-weights); {@code held}: its
     * edges as they were then, on a graph held in the wide form (null elsewhere, and on a repaired forest).
     */
    public record Forest(MstResult result, MstRepair repair, Edges held) {
        /** The standing form of {@code result}, the forest just computed on {@code graph}. */
        public static Forest of(CsrGraph graph, MstResult result) {
            return new Forest(result, new MstRepair(graph, result), graph.wide() ? Edges.of(graph, result) : null);
        }
    }

    /** A forest's edges: endpoint pairs ({@link Delta#pair}), ascending, and their weights (16 bytes an edge). */
    public record Edges(long[] pairs, double[] weights) {
        /**
         * The edges of {@code forest} on {@code graph}, its weights now: in the order of their ids (ascending, sorted
         * here if need be), which is the pairs' order, the undirected edges being in (u, v) order.
         */
        static Edges of(CsrGraph graph, MstResult forest) {
            UndirectedEdges e = graph.undirectedEdges();
            int[] ids = forest.edgeIds();
            for (int i = 1; i < ids.length; i++) {
                if (ids[i] <= ids[i - 1]) {
                    ids = ids.clone();
                    Arrays.sort(ids);
                    break;
                }
            }
            long[] pairs = new long[ids.length];
            double[] weights = new double[ids.length];
            for (int i = 0; i < ids.length; i++) {
                pairs[i] = Delta.pair(e.u[ids[i]], e.v[ids[i]]);
                weights[i] = e.w[ids[i]];
            }
            return new Edges(pairs, weights);
        }
    }

    private MstKind() {}

    @Override
    public Update<Forest> repair(CsrGraph graph, Forest previous, ChangedEdges changes, int budgetDivisor) {
        MstRepair.Repaired r = previous.repair().repair(graph, changes);
        if (r == null) return null;
        UndirectedEdges e = graph.undirectedEdges();
        int removed = r.removedU().length, added = r.addedEdgeIds().length;
        long[] pairs = new long[removed + added];
        double[] weights = new double[removed + added];
        for (int i = 0; i < removed; i++) {
            pairs[i] = Delta.pair(r.removedU()[i], r.removedV()[i]);
            weights[i] = Double.NaN;
        }
        for (int i = 0; i < added; i++) {
            int id = r.addedEdgeIds()[i];
            pairs[removed + i] = Delta.pair(e.u[id], e.v[id]);
            weights[removed + i] = e.w[id];
        }
        return new Update<>(new Forest(r.result(), previous.repair(), null), Delta.ofEdges(pairs, weights));
    }

    /**
     * The edges that left (NaN) and those that joined or changed weight, where both forests hold their edges (computed
     * on a graph in the wide form); else null: the previous forest's edge ids refer to an earlier version's edge list,
     * and the push is complete.
     */
    @Override
    public Delta compare(Forest previous, Forest next) {
        if (previous.held() == null || next.held() == null) return null;
        long[] a = previous.held().pairs(), b = next.held().pairs();
        double[] wa = previous.held().weights(), wb = next.held().weights();
        long[] pairs = new long[a.length + b.length];
        double[] weights = new double[pairs.length];
        int i = 0, j = 0, k = 0;
        while (i < a.length || j < b.length) {
            int c = i == a.length ? 1 : j == b.length ? -1 : Long.compare(a[i], b[j]);
            if (c < 0) {   // left the forest
                pairs[k] = a[i++];
                weights[k++] = Double.NaN;
            } else if (c > 0 || wa[i] != wb[j]) {   // joined it, or stayed with another weight
                if (c == 0) i++;
                pairs[k] = b[j];
                weights[k++] = wb[j++];
            } else {
                i++;
                j++;
            }
        }
        return Delta.ofEdges(Arrays.copyOf(pairs, k), Arrays.copyOf(weights, k));
    }

    @Override
    public Verification verify(CsrGraph graph, Forest repaired, Forest fresh) {
        return MstVerifier.verify(graph, repaired.result(), fresh.result());
    }

    @Override
    public void prepare(CsrGraph graph) {
        StandingKind.super.prepare(graph);
        graph.undirectedEdges();
    }
}
