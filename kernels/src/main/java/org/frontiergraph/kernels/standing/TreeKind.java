package org.frontiergraph.kernels.standing;

import java.util.Arrays;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;

/**
 * Standing tree answers: repaired by {@link TreeRepair} with the kind's budget per arc; a vertex changed when its value
 * or parent did. Their trees can live on the device too ({@link DeviceStandings}).
 *
 * @param <A> the answer
 */
public final class TreeKind<A extends TreeAnswer<A>> implements StandingKind<A> {
    /** Standing SSSP ({@link SsspRepair}'s budget, {@link SsspVerifier}). */
    public static final TreeKind<SsspResult> SSSP = new TreeKind<>(SsspRepair.BUDGET_PER_ARC, SsspRepair.MIN_BUDGET,
            (graph, repaired, fresh) -> SsspVerifier.verify(graph, fresh.source(), repaired, fresh));
    /** Standing BFS ({@link BfsRepair}'s budget, {@link BfsVerifier}). */
    public static final TreeKind<BfsResult> BFS = new TreeKind<>(BfsRepair.BUDGET_PER_ARC, BfsRepair.MIN_BUDGET,
            (graph, repaired, fresh) -> BfsVerifier.verify(graph, fresh.source(), repaired, fresh));

    /** The check of a repaired answer against a fresh one. */
    private interface Verifier<A> {
        Verification verify(CsrGraph graph, A repaired, A fresh);
    }

    private final double budgetPerArc;
    private final long minBudget;
    private final Verifier<A> verifier;

    private TreeKind(double budgetPerArc, long minBudget, Verifier<A> verifier) {
        this.budgetPerArc = budgetPerArc;
        this.minBudget = minBudget;
        this.verifier = verifier;
    }

    /** The work past which a repair on {@code graph} gives up, with its per-arc part {@code divisor} times smaller. */
    public long budget(CsrGraph graph, int divisor) {
        return minBudget + (long) (budgetPerArc * graph.arcs() / Math.max(1, divisor));
    }

    @Override
    public Update<A> repair(CsrGraph graph, A previous, ChangedEdges changes, int budgetDivisor) {
        TreeRepair.Repaired<A> r = TreeRepair.repair(graph, previous, changes, budget(graph, budgetDivisor));
        return r == null ? null : new Update<>(r.result(), Delta.ofVertices(r.changed()));
    }

    @Override
    public boolean touchedBy(Screen screen, A answer) {
        return screen.touches(answer);
    }

    @Override
    public Delta compare(A previous, A next) {
        int n = Math.max(previous.vertexCount(), next.vertexCount());
        int[] changed = new int[64];
        int k = 0;
        for (int v = 0; v < n; v++) {
            if (TreeAnswer.differs(previous, next, v)) {
                if (k == changed.length) changed = Arrays.copyOf(changed, 2 * k);
                changed[k++] = v;
            }
        }
        return Delta.ofVertices(Arrays.copyOf(changed, k));
    }

    @Override
    public Verification verify(CsrGraph graph, A repaired, A fresh) {
        return verifier.verify(graph, repaired, fresh);
    }
}
