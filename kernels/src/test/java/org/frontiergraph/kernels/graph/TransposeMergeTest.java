package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The transpose a directed {@link MutableGraph} keeps across merges ({@link TransposeMerge}) equals, array for array
 * (offsets, columns, weights, edge ids), {@link GraphBuilder#transpose} of the same version, over long random runs
 * of removals, additions (onto existing edges, self-loops, new vertices, edges removed earlier in the same update),
 * re-weights and bulk updates, on random directed graphs built with parallel edges, self-loops and isolated
 * vertices, and on USA-road-d.NY when the shared datasets are there. Between merges the transpose is read at once,
 * read after in-place re-weights (the pending derivation runs before the first), or not read at all (the next merge
 * derives it first), so each way a version's transpose comes about is checked.
 */
class TransposeMergeTest {
    @Test
    void smallRandomGraphsKeepTheTransposeOfEveryVersion() {
        for (int seed = 1; seed <= 6; seed++) {
            Random rnd = new Random(seed);
            run(rnd, randomGraph(rnd, 300, 50, 1_500), 150, 6, "seed " + seed);
        }
    }

    @Test
    void bulkUpdatesOnALargerGraphKeepTheTranspose() {
        Random rnd = new Random(31);
        run(rnd, randomGraph(rnd, 6_000, 500, 40_000), 40, 2_000, "bulk");
    }

    @Test
    void removingEveryArcAndAddingThemBackKeepsTheTranspose() {
        Random rnd = new Random(41);
        CsrGraph start = randomGraph(rnd, 200, 20, 800);
        MutableGraph g = new MutableGraph(start);
        g.current().transpose();
        Edges model = Edges.of(start);
        List<long[]> all = new ArrayList<>();
        for (long key : model.weights.keySet()) all.add(new long[] {key, Double.doubleToLongBits(model.weights.get(key))});
        int[] u = all.stream().mapToInt(k -> (int) (k[0] >>> 32)).toArray(), v = all.stream().mapToInt(k -> (int) k[0]).toArray();
        double[] w = all.stream().mapToDouble(k -> Double.longBitsToDouble(k[1])).toArray();
        g.apply(EdgeEdits.remove(u, v), 0, Long.MAX_VALUE);
        assertSameTranspose(g.current(), "every arc removed");
        assertEquals(0, g.current().transpose().arcCount());
        g.apply(EdgeEdits.add(u, v, w), 0, Long.MAX_VALUE);
        assertSameTranspose(g.current(), "every arc added back");
    }

    @Test
    void aVersionsTransposeIsDerivedNotRebuiltOnceOneWasRead() {
        Random rnd = new Random(51);
        CsrGraph start = randomGraph(rnd, 100, 10, 400);
        MutableGraph g = new MutableGraph(start);
        CsrGraph first = g.current();
        assertFalse(first.keepsTranspose(), "nothing read yet");
        CsrGraph t0 = first.transpose();
        assertSame(t0, first.transpose(), "cached");
        int u = first.sourceOf(0), v = first.columns()[0];
        g.apply(EdgeEdits.remove(new int[] {u}, new int[] {v}), 0, Long.MAX_VALUE);
        CsrGraph next = g.current();
        assertNotSame(first, next);
        assertTrue(next.keepsTranspose(), "the merge hands the new version its derivation");
        assertSameTranspose(next, "after one removal");
        g.apply(EdgeEdits.add(new int[] {u}, new int[] {v}, new double[] {3.5}), 0, Long.MAX_VALUE);
        assertTrue(g.current().keepsTranspose(), "and the next one");
        assertSameTranspose(g.current(), "after adding it back");
    }

    @Test
    void theTransposeOfNewYorkFollowsRandomBatches() {
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        Assumptions.assumeTrue(ny.isPresent(), "USA-road-d.NY not present (../shared/datasets)");
        CsrGraph own = new MutableGraph(ny.get()).snapshot();   // weights of its own: the cached graph stays as read
        run(new Random(61), own, 25, 300, "NY");
    }

    /**
     * Runs {@code batches} batches of random updates (up to {@code maxEdits} edits an update) on {@code start}, checking
     * the transpose of every version read against one built from scratch.
     */
    private static void run(Random rnd, CsrGraph start, int batches, int maxEdits, String what) {
        MutableGraph g = new MutableGraph(start);
        Edges model = Edges.of(start);
        g.current().transpose();
        int checked = 0, derived = 0;
        for (int batch = 0; batch < batches; batch++) {
            int updates = 1 + rnd.nextInt(4);
            for (int i = 0; i < updates; i++) g.apply(model.randomUpdate(rnd, 1 + rnd.nextInt(maxEdits)), 0, Long.MAX_VALUE);
            int mode = rnd.nextInt(4);
            if (mode == 0) continue;   // no reader: the next batch's updates pile onto this overlay
            CsrGraph now = g.current();
            if (now.keepsTranspose()) derived++;
            if (mode == 1) continue;   // merged, its transpose unread: the next merge derives it first
            if (mode == 2) {   // re-weights before the first read: derived before the first of them
                g.apply(model.reweights(rnd, 1 + rnd.nextInt(maxEdits)), 0, Long.MAX_VALUE);
                assertSame(now, g.current(), "re-weights do not merge");
            }
            assertSameTranspose(now, what + ", batch " + batch);
            checked++;
            if (rnd.nextBoolean()) {   // re-weights after the read patch it in place
                g.apply(model.reweights(rnd, 1 + rnd.nextInt(maxEdits)), 0, Long.MAX_VALUE);
                assertSameTranspose(g.current(), what + ", batch " + batch + " re-weighted");
            }
        }
        CsrGraph last = g.current();
        assertSameTranspose(last, what + ", at the end");
        assertEquals(model.weights.size(), last.edgeCount(), what + ": the model and the graph agree");
        assertTrue(checked >= batches / 4 && derived >= checked, what + ": " + checked + " checked, " + derived + " derived");
    }

    private static void assertSameTranspose(CsrGraph g, String what) {
        MutableGraphTest.assertSameGraph(GraphBuilder.transpose(g), g.transpose(), what);
    }

    /** A directed graph: {@code edges} random arcs among the first n - isolated vertices, parallel arcs and loops among them. */
    private static CsrGraph randomGraph(Random rnd, int n, int isolated, int edges) {
        EdgeList list = new EdgeList(n, true, edges);
        int live = n - isolated;
        for (int i = 0; i < edges; i++) {
            int kind = rnd.nextInt(10);
            if (kind == 0 && list.size() > 0) {   // a parallel arc, heavier or lighter
                int j = rnd.nextInt(list.size());
                list.add(list.source(j), list.target(j), weight(rnd));
            } else if (kind == 1) {
                int x = rnd.nextInt(live);
                list.add(x, x, weight(rnd));   // dropped by the storage policy
            } else {
                list.add(rnd.nextInt(live), rnd.nextInt(live), weight(rnd));
            }
        }
        return GraphBuilder.build(list);
    }

    private static double weight(Random rnd) {
        return rnd.nextInt(8) == 0 ? rnd.nextDouble() * 50 : rnd.nextInt(100);
    }

    /** The edges of the current version, by key (u << 32 | v), to draw valid updates from. */
    private static final class Edges {
        final Map<Long, Double> weights = new HashMap<>();
        final List<Long> keys = new ArrayList<>();   // may hold keys removed since (skipped when drawn)
        int n;

        static Edges of(CsrGraph g) {
            Edges e = new Edges();
            e.n = g.vertexCount();
            for (int u = 0; u < g.vertexCount(); u++) {
                for (int a = g.rowStart(u); a < g.rowEnd(u); a++) e.put(key(u, g.columns()[a]), g.weights()[a]);
            }
            return e;
        }

        void put(long key, double w) {
            if (weights.put(key, w) == null) keys.add(key);
        }

        /** A random live edge key, or -1 when none is found. */
        long draw(Random rnd, Set<Long> taken) {
            for (int tries = 0; tries < 20 && !keys.isEmpty(); tries++) {
                int i = rnd.nextInt(keys.size());
                long key = keys.get(i);
                if (!weights.containsKey(key)) {   // stale: drop it
                    keys.set(i, keys.get(keys.size() - 1));
                    keys.remove(keys.size() - 1);
                    continue;
                }
                if (taken.add(key)) return key;
            }
            return -1;
        }

        /** Removals, re-weights and additions of distinct edges (additions may land on existing ones, loops, new vertices). */
        EdgeEdits randomUpdate(Random rnd, int size) {
            int grow = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(3) : 0;
            Set<Long> taken = new HashSet<>();
            List<long[]> rem = new ArrayList<>(), rew = new ArrayList<>(), add = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                int kind = rnd.nextInt(3);
                if (kind == 0 || kind == 1) {
                    long key = draw(rnd, taken);
                    if (key < 0) continue;
                    (kind == 0 ? rem : rew).add(new long[] {key, Double.doubleToLongBits(weight(rnd))});
                    if (kind == 0 && rnd.nextInt(5) == 0) add.add(new long[] {key, Double.doubleToLongBits(weight(rnd))});   // added back
                } else {
                    int nn = n + grow, a = rnd.nextInt(nn), b = rnd.nextInt(8) == 0 ? a : rnd.nextInt(nn);
                    long key = rnd.nextInt(4) == 0 && !keys.isEmpty() ? keys.get(rnd.nextInt(keys.size())) : key(a, b);
                    add.add(new long[] {key, Double.doubleToLongBits(weight(rnd))});
                }
            }
            for (long[] r : rem) weights.remove(r[0]);
            for (long[] r : rew) weights.put(r[0], Double.longBitsToDouble(r[1]));
            for (long[] a : add) {
                long key = a[0];
                double w = Double.longBitsToDouble(a[1]);
                if ((int) (key >>> 32) == (int) key) continue;   // a loop is dropped
                Double now = weights.get(key);
                put(key, now == null ? w : Math.min(now, w));
            }
            n += grow;
            return new EdgeEdits(grow, us(rem), vs(rem), us(rew), vs(rew), ws(rew), us(add), vs(add), ws(add));
        }

        /** Re-weights of distinct live edges. */
        EdgeEdits reweights(Random rnd, int size) {
            Set<Long> taken = new HashSet<>();
            List<long[]> rew = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                long key = draw(rnd, taken);
                if (key >= 0) rew.add(new long[] {key, Double.doubleToLongBits(weight(rnd))});
            }
            for (long[] r : rew) weights.put(r[0], Double.longBitsToDouble(r[1]));
            return EdgeEdits.reweight(us(rew), vs(rew), ws(rew));
        }

        static long key(int u, int v) {
            return ((long) u << 32) | (v & 0xffffffffL);
        }

        static int[] us(List<long[]> l) { return l.stream().mapToInt(e -> (int) (e[0] >>> 32)).toArray(); }
        static int[] vs(List<long[]> l) { return l.stream().mapToInt(e -> (int) e[0]).toArray(); }
        static double[] ws(List<long[]> l) { return l.stream().mapToDouble(e -> Double.longBitsToDouble(e[1])).toArray(); }
    }
}
