package org.frontiergraph.kernels.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random update streams for the update tests (host and device): mostly valid edits, about one update in three with a mistake. */
public final class UpdateStreams {
    private UpdateStreams() {}

    /** The graph with {@code extra} more vertices and the same edges (GraphEdit cannot add vertices). */
    public static CsrGraph grown(CsrGraph g, int extra) {
        if (extra == 0) return g;
        return rebuilt(g, g.vertexCount() + extra);
    }

    /** Built from scratch from g's edges. */
    public static CsrGraph rebuilt(CsrGraph g, int n) {
        EdgeList e = new EdgeList(n, g.directed(), g.arcCount());
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int a = g.rowStart(u); a < g.rowEnd(u); a++) {
                if (g.directed() || u < g.columns()[a]) e.add(u, g.columns()[a], g.weights()[a]);
            }
        }
        return GraphBuilder.build(e);
    }

    /**
     * Applies {@code e} to {@code graph} and to {@code reference} with {@link GraphEdit} (the reference): both must
     * accept it or both refuse it (an AssertionError naming {@code what} otherwise). Returns the reference after it.
     */
    public static CsrGraph applyBoth(MutableGraph graph, CsrGraph reference, EdgeEdits e, String what) {
        CsrGraph next;
        try {
            next = GraphEdit.apply(grown(reference, e.addedVertices()), e.removeU(), e.removeV(), e.reweightU(),
                    e.reweightV(), e.reweightW(), e.addU(), e.addV(), e.addW());
        } catch (InvalidGraphException x) {
            next = null;
        }
        try {
            graph.apply(e, 0, Long.MAX_VALUE);
        } catch (InvalidGraphException x) {
            if (next != null) throw new AssertionError("refused what the reference accepts, " + what + ": " + x.getMessage());
            return reference;
        }
        if (next == null) throw new AssertionError("accepted what the reference refuses, " + what);
        return next;
    }

    /** One random update against {@code g}: mostly valid, sometimes not. */
    public static EdgeEdits randomUpdate(Random rnd, CsrGraph g, boolean structural) {
        int n = g.vertexCount();
        int added = structural && rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(3) : 0;
        List<int[]> rem = new ArrayList<>(), rew = new ArrayList<>(), add = new ArrayList<>();
        List<Double> rw = new ArrayList<>(), aw = new ArrayList<>();
        int k = 1 + rnd.nextInt(4);
        for (int i = 0; i < k; i++) {
            int kind = structural ? rnd.nextInt(3) : 1;
            int[] edge = randomArc(rnd, g);
            switch (kind) {
                case 0 -> { if (edge != null) rem.add(flip(rnd, edge, g)); }
                case 1 -> {
                    if (edge != null) {
                        rew.add(flip(rnd, edge, g));
                        rw.add(rnd.nextInt(4) == 0 ? rnd.nextDouble() * 10 : (double) rnd.nextInt(20));
                    }
                }
                default -> {
                    int nn = n + added;
                    add.add(new int[] {rnd.nextInt(nn), rnd.nextInt(nn)});
                    aw.add((double) rnd.nextInt(20));
                }
            }
        }
        switch (rnd.nextInt(12)) {   // one in three updates carries a mistake
            case 0 -> rem.add(new int[] {0, n + added + 5});                                   // INVALID_VERTEX
            case 1 -> { rew.add(new int[] {0, 0}); rw.add(1.0); }                               // INVALID_EDGE (no loop)
            case 2 -> { if (!rew.isEmpty()) rw.set(0, Double.NaN); }                            // INVALID_WEIGHT
            case 3 -> { if (!rem.isEmpty()) { rew.add(rem.get(0)); rw.add(3.0); } }             // removed and re-weighted
            default -> { }
        }
        return new EdgeEdits(added, us(rem), vs(rem), us(rew), vs(rew), rw.stream().mapToDouble(d -> d).toArray(),
                us(add), vs(add), aw.stream().mapToDouble(d -> d).toArray());
    }

    public static int[] randomArc(Random rnd, CsrGraph g) {
        if (g.arcCount() == 0) return null;
        int a = rnd.nextInt(g.arcCount());
        return new int[] {g.sourceOf(a), g.columns()[a]};
    }

    /** Undirected edges may be named either way round. */
    public static int[] flip(Random rnd, int[] e, CsrGraph g) {
        return !g.directed() && rnd.nextBoolean() ? new int[] {e[1], e[0]} : e;
    }

    public static int[] us(List<int[]> l) { return l.stream().mapToInt(e -> e[0]).toArray(); }
    public static int[] vs(List<int[]> l) { return l.stream().mapToInt(e -> e[1]).toArray(); }

}
