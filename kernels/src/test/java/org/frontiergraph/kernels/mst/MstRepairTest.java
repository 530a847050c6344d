package org.frontiergraph.kernels.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Random update streams (re-weights of forest and non-forest edges both ways, removals of forest edges and bridges,
 * additions across components, new vertices, invalid updates) applied to a MutableGraph in runs of 1, ~10 and ~100
 * updates: after every run the repaired forest equals KruskalReference's on a graph rebuilt from scratch, edge for
 * edge, and the removed and added lists are exactly the difference from the previous forest.
 */
class MstRepairTest {
    private static final int[] NONE = {};
    private static final double[] NO_WEIGHTS = {};

    /** A forest as (u, v) key to weight. */
    static Map<Long, Double> pairs(CsrGraph g, MstResult r) {
        UndirectedEdges e = g.undirectedEdges();
        Map<Long, Double> m = new HashMap<>();
        for (int id : r.edgeIds()) m.put(key(e.u[id], e.v[id]), e.w[id]);
        return m;
    }

    static long key(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    /**
     * The repair is the reference's forest on {@code now} (rebuilt from scratch, so the cached lists that re-weights
     * patch are checked too) and its lists are the difference from {@code before}. Returns the new forest's pairs.
     */
    static Map<Long, Double> assertRepaired(CsrGraph now, Map<Long, Double> before, MstRepair.Repaired r, String what) {
        CsrGraph fresh = UpdateStreams.rebuilt(now, now.vertexCount());
        UndirectedEdges e = now.undirectedEdges(), f = fresh.undirectedEdges();
        assertArrayEquals(f.u, e.u, what + ": undirected edges");
        assertArrayEquals(f.v, e.v, what + ": undirected edges");
        assertArrayEquals(f.w, e.w, what + ": undirected weights (patched in place)");
        MstResult reference = KruskalReference.run(fresh), got = r.result();
        assertArrayEquals(reference.edgeIds(), got.edgeIds(), what + ": edge ids");
        assertEquals(reference.totalWeight(), got.totalWeight(), what + ": total weight");
        assertEquals(reference.components(), got.components(), what + ": components");
        Verification v = MstVerifier.verify(fresh, got, reference);
        assertTrue(v.ok(), () -> what + ": " + v.message());
        Map<Long, Double> after = pairs(fresh, got);
        List<Long> removed = new ArrayList<>(new TreeSet<>(before.keySet()));
        removed.removeAll(after.keySet());
        List<Long> listed = new ArrayList<>();
        for (int i = 0; i < r.removedU().length; i++) {
            assertTrue(r.removedU()[i] < r.removedV()[i], what + ": removed pairs are (u < v)");
            listed.add(key(r.removedU()[i], r.removedV()[i]));
        }
        assertEquals(removed, listed, what + ": removed pairs");
        int[] added = Arrays.stream(got.edgeIds()).filter(id -> {
            Double w = before.get(key(e.u[id], e.v[id]));
            return w == null || Double.compare(w, e.w[id]) != 0;
        }).toArray();
        assertArrayEquals(added, r.addedEdgeIds(), what + ": added edge ids");
        return after;
    }

    /** What the streams saw, so that the tests can assert that every case came up. */
    static final class Seen {
        int runs, refused, moreComponents, fewerComponents, swaps, reweightedStays, newVertices;

        void count(MstRepair.Repaired r, Map<Long, Double> before, int componentsBefore, CsrGraph now) {
            runs++;
            int c = r.result().components();
            if (c > componentsBefore) moreComponents++;
            if (c < componentsBefore) fewerComponents++;
            if (r.removedU().length > 0 && r.addedEdgeIds().length > 0) swaps++;
            UndirectedEdges e = now.undirectedEdges();
            for (int id : r.addedEdgeIds()) if (before.containsKey(key(e.u[id], e.v[id]))) reweightedStays++;
        }
    }

    /**
     * Runs {@code runs} runs of updates on {@code start}, repairing after each and checking the repair; a refused
     * repair is recomputed and the stream goes on.
     */
    static Seen stream(CsrGraph start, long seed, boolean fractional, int runs, int[] runSizes, boolean budgeted) {
        Random rnd = new Random(seed);
        MutableGraph g = new MutableGraph(UpdateStreams.rebuilt(start, start.vertexCount()));
        ChangeLog.Cursor changed = g.log().cursor(ChangeLog.Detail.EDGES);
        CsrGraph now = g.current();
        MstResult first = KruskalReference.run(now);
        MstRepair forest = new MstRepair(now, first, budgeted);
        Map<Long, Double> before = pairs(now, first);
        int components = first.components();
        Seen seen = new Seen();
        for (int run = 0; run < runs; run++) {
            int size = runSizes[run % runSizes.length];
            int vertices = g.vertexCount();
            for (int i = 0; i < size; i++) {
                try {
                    g.apply(randomUpdate(rnd, g.current(), before, fractional), 0, Long.MAX_VALUE);
                } catch (InvalidGraphException refused) {
                    // changes nothing (MutableGraphTest checks); the stream goes on
                }
            }
            if (g.vertexCount() > vertices) seen.newVertices++;
            now = g.current();
            MstRepair.Repaired r = forest.repair(now, changed.read().edges());
            String what = "run " + run + " of " + size + " updates (seed " + seed + ")";
            if (r == null) {
                seen.refused++;
                MstRepair spent = forest;
                CsrGraph version = now;
                assertThrows(IllegalStateException.class,
                        () -> spent.repair(version, new ChangedEdges(version.vertexCount(), NONE, NONE)));
                MstResult again = CpuMst.run(now);
                forest = new MstRepair(now, again, budgeted);
                before = pairs(now, again);
                components = again.components();
                continue;
            }
            Map<Long, Double> after = assertRepaired(now, before, r, what);
            seen.count(r, before, components, now);
            before = after;
            components = r.result().components();
        }
        return seen;
    }

    static double weight(Random rnd, boolean fractional) {
        return fractional ? rnd.nextInt(12) / 4.0 + 0.1 : rnd.nextInt(10);
    }

    /**
     * One update, usually one edit aimed at the forest or around it; sometimes UpdateStreams' random update (several
     * edits, new vertices, a mistake one time in three).
     */
    static EdgeEdits randomUpdate(Random rnd, CsrGraph g, Map<Long, Double> forest, boolean fractional) {
        int n = g.vertexCount();
        double step = fractional ? 0.25 * (1 + rnd.nextInt(3)) : 1 + rnd.nextInt(3);
        int kind = rnd.nextInt(10);
        if (g.arcCount() == 0 && kind < 6) kind = 6;
        switch (kind) {
            case 0, 1, 2, 3 -> {   // a forest edge: lighter, heavier, the same, or removed (both arcs)
                int[] arc;
                Double w;
                int tries = 0;
                do {   // random arcs until one is a forest edge's (the forest may be a run behind: then none is)
                    arc = UpdateStreams.randomArc(rnd, g);
                    w = forest.get(key(arc[0], arc[1]));
                } while (w == null && ++tries < 100);
                if (w == null) return EdgeEdits.reweight(arc[0], arc[1], weight(rnd, fractional));
                int a = arc[0], b = arc[1];
                if (kind == 3) {
                    if (g.directed() && g.findArc(b, a) >= 0) {
                        return EdgeEdits.remove(new int[] {a, b}, new int[] {b, a});
                    }
                    return EdgeEdits.remove(new int[] {a}, new int[] {b});
                }
                double to = kind == 0 ? Math.max(0, w - step) : kind == 1 ? w + step : w;
                return EdgeEdits.reweight(a, b, to);
            }
            case 4, 5 -> {   // any edge: re-weighted or removed
                int[] arc = UpdateStreams.randomArc(rnd, g);
                if (kind == 5) return EdgeEdits.remove(new int[] {arc[0]}, new int[] {arc[1]});
                return EdgeEdits.reweight(arc[0], arc[1], weight(rnd, fractional));
            }
            case 6, 7 -> {   // a new edge anywhere (often across components)
                return EdgeEdits.add(new int[] {rnd.nextInt(n)}, new int[] {rnd.nextInt(n)},
                        new double[] {weight(rnd, fractional)});
            }
            case 8 -> {   // new vertices, with edges to them (or not)
                int added = 1 + rnd.nextInt(2), edges = rnd.nextInt(3);
                int[] u = new int[edges], v = new int[edges];
                double[] w = new double[edges];
                for (int i = 0; i < edges; i++) {
                    u[i] = rnd.nextInt(n + added);
                    v[i] = n + rnd.nextInt(added);
                    w[i] = weight(rnd, fractional);
                }
                return new EdgeEdits(added, NONE, NONE, NONE, NONE, NO_WEIGHTS, u, v, w);
            }
            default -> {
                return UpdateStreams.randomUpdate(rnd, g, true);
            }
        }
    }

    /** Uniform random edges weighted as {@link #weight}; half the directed ones get a reverse arc of their own weight. */
    static CsrGraph randomGraph(int n, int m, long seed, boolean directed, boolean fractional) {
        EdgeList e = UniformRandomGraph.generate(n, m, seed, 10, directed);
        EdgeList out = new EdgeList(n, directed, 2 * e.size());
        Random rnd = new Random(seed);
        for (int i = 0; i < e.size(); i++) {
            out.add(e.source(i), e.target(i), weight(rnd, fractional));
            if (directed && rnd.nextBoolean()) out.add(e.target(i), e.source(i), weight(rnd, fractional));
        }
        return GraphBuilder.build(out);
    }

    @ParameterizedTest(name = "directed={0} fractional={1}")
    @CsvSource({"false, false", "true, false", "false, true", "true, true"})
    void repairsEqualTheReferenceAfterEveryRun(boolean directed, boolean fractional) {
        // sparse: many trees, many bridges, so removals split trees and additions join them
        CsrGraph start = randomGraph(1_500, 2_200, directed ? 31 : 32, directed, fractional);
        Seen seen = stream(start, fractional ? 41 : 42, fractional, 150, new int[] {1, 10, 100}, false);
        assertEquals(0, seen.refused, "unbudgeted repairs are never refused");
        assertTrue(seen.moreComponents > 5 && seen.fewerComponents > 5 && seen.swaps > 20
                        && seen.reweightedStays > 20 && seen.newVertices > 5,
                () -> "every case came up: " + describe(seen));
    }

    @Test
    void denserGraphsSwapEdgesOnCycles() {
        CsrGraph start = randomGraph(800, 6_000, 33, false, false);
        Seen seen = stream(start, 43, false, 120, new int[] {1, 3, 10, 30}, false);
        assertTrue(seen.swaps > 50 && seen.reweightedStays > 20, () -> describe(seen));
    }

    @Test
    void singleEditRunsOnThousandsOfVerticesAreRepairedNotRefused() {
        for (boolean directed : new boolean[] {false, true}) {
            CsrGraph start = randomGraph(3_000, 5_400, directed ? 34 : 35, directed, false);
            Seen seen = stream(start, 44, false, 100, new int[] {1}, true);
            assertEquals(0, seen.refused, () -> "single edits take the fast path: " + describe(seen));
        }
    }

    @Test
    void largeRunsAreRefusedAndTheStreamGoesOn() {
        CsrGraph start = randomGraph(300, 500, 36, false, false);
        Seen seen = stream(start, 45, false, 60, new int[] {1, 100}, true);
        assertTrue(seen.refused > 0 && seen.runs > 20, () -> describe(seen));
    }

    @Test
    void edgelessAndTinyGraphsGrowFromNothing() {
        Seen seen = stream(TestGraphs.build(3, false), 46, false, 80, new int[] {1, 2, 5}, true);
        assertEquals(0, seen.refused);
        assertTrue(seen.fewerComponents > 0, () -> describe(seen));
    }

    @Test
    void aRunOverTheWorkBudgetIsRefusedMidway() {
        int n = 100_000;
        CsrGraph path = TestGraphs.path(n);   // every edge a bridge: a heavier one is cut, scanned for, and linked back
        MutableGraph g = new MutableGraph(path);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        MstRepair forest = new MstRepair(path, CpuMst.run(path));
        g.apply(EdgeEdits.reweight(n / 2, n / 2 + 1, 50), 0, Long.MAX_VALUE);
        MstRepair.Repaired one = forest.repair(g.current(), seen.read().edges());
        assertNotNull(one, "one cut in the middle is within budget");
        assertTrue(one.result().timing().counter("work") >= n, "it walked half the path: " + one.result().timing());
        assertArrayEquals(new int[] {n / 2}, one.addedEdgeIds(), "the edge stays with its new weight");
        int[] u = IntStream.range(0, 40).map(i -> n / 2 - 20 + i).toArray();
        int[] v = Arrays.stream(u).map(x -> x + 1).toArray();
        g.apply(EdgeEdits.reweight(u, v, Arrays.stream(u).mapToDouble(x -> 60).toArray()), 0, Long.MAX_VALUE);
        assertNull(forest.repair(g.current(), seen.read().edges()), "40 cuts in the middle cost more than Kruskal");
        assertThrows(IllegalStateException.class,
                () -> forest.repair(g.current(), new ChangedEdges(n, NONE, NONE)), "a refused forest is spent");
    }

    @Test
    void undirectedWeightsAreReadAsTheBuilderMergesArcs() {
        CsrGraph g = randomGraph(200, 800, 38, true, true);
        UndirectedEdges e = g.undirectedEdges();
        for (int i = 0; i < e.size(); i++) {
            assertEquals(i, e.idOf(e.u[i], e.v[i]));
            assertEquals(0, Double.compare(e.w[i], UndirectedEdges.weightOf(g, e.u[i], e.v[i])), "edge " + i);
        }
        assertEquals(-1, e.idOf(0, 0));
        assertTrue(Double.isNaN(UndirectedEdges.weightOf(g, 0, 0)));
        // equal weights: the builder keeps a->b's, whether that is 0.0 or -0.0
        CsrGraph zeros = TestGraphs.build(3, true, 0, 1, 0.0, 1, 0, -0.0, 2, 1, -0.0, 1, 2, 0.0);
        UndirectedEdges z = zeros.undirectedEdges();
        assertEquals(0, Double.compare(z.w[0], UndirectedEdges.weightOf(zeros, 0, 1)));
        assertEquals(0, Double.compare(z.w[1], UndirectedEdges.weightOf(zeros, 1, 2)));
    }

    /** The checks above bite: a different forest of the same weight, and lists that are off by one pair, fail. */
    @Test
    void aWrongForestOrWrongListsAreCaught() {
        CsrGraph g = randomGraph(400, 1_500, 37, false, false);   // weights 0..9: ties everywhere
        MstResult right = KruskalReference.run(g);
        Map<Long, Double> before = pairs(g, right);
        MstRepair.Repaired same = new MstRepair(g, right).repair(g, new ChangedEdges(
                g.vertexCount(), NONE, NONE));
        assertNotNull(same);
        assertRepaired(g, before, same, "no change");
        // the forest of the mirrored numbering (v -> n-1-v) breaks ties the other way: as light, as many trees, but another
        int n = g.vertexCount();
        UndirectedEdges e = g.undirectedEdges();
        EdgeList mirrored = new EdgeList(n, false, e.size());
        for (int i = 0; i < e.size(); i++) mirrored.add(n - 1 - e.u[i], n - 1 - e.v[i], e.w[i]);
        CsrGraph m = GraphBuilder.build(mirrored);
        UndirectedEdges me = m.undirectedEdges();
        int[] ids = Arrays.stream(KruskalReference.run(m).edgeIds())
                .map(id -> e.idOf(n - 1 - me.v[id], n - 1 - me.u[id])).sorted().toArray();
        MstResult wrong = new MstResult(ids, ExactSum.of(e.w, ids), right.components(), Timing.NONE);
        assertEquals(right.totalWeight(), wrong.totalWeight());
        assertFalse(Arrays.equals(right.edgeIds(), ids), "the ties give another forest");
        assertFalse(MstVerifier.verify(g, wrong).ok());
        assertThrows(AssertionError.class, () -> assertRepaired(g, before,
                new MstRepair.Repaired(wrong, NONE, NONE, NONE), "wrong forest"));
        int id = right.edgeIds()[0];
        assertThrows(AssertionError.class, () -> assertRepaired(g, before,
                new MstRepair.Repaired(right, new int[] {e.u[id]}, new int[] {e.v[id]}, NONE), "a pair too many"));
        assertThrows(AssertionError.class, () -> assertRepaired(g, before,
                new MstRepair.Repaired(right, NONE, NONE, new int[] {id}), "an id too many"));
    }

    /** A road graph: single-edge changes are repaired (not refused), equal CpuMst's answer, and are cheap. */
    @Test
    void roadGraphSingleEdits() {
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        assumeTrue(ny.isPresent(), "shared datasets absent");
        MutableGraph g = new MutableGraph(UpdateStreams.rebuilt(ny.get(), ny.get().vertexCount()));
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        CsrGraph now = g.current();
        MstResult start = CpuMst.run(now);
        assertEquals(TestGraphs.NY_MST_WEIGHT, start.totalWeight());
        MstRepair forest = new MstRepair(now, start);
        Map<Long, Double> before = pairs(now, start);
        Random rnd = new Random(47);
        long[] nanos = new long[8];
        for (int run = 0; run < nanos.length; run++) {
            try {
                g.apply(randomUpdate(rnd, g.current(), before, false), 0, Long.MAX_VALUE);
            } catch (InvalidGraphException refused) {
                // the stream goes on
            }
            now = g.current();
            now.undirectedEdges();   // caches of a merged version, built by its first reader: not the repair's cost
            now.transpose();
            MstRepair.Repaired r = forest.repair(now, seen.read().edges());
            assertNotNull(r, "run " + run);
            MstResult reference = CpuMst.run(now);
            assertArrayEquals(reference.edgeIds(), r.result().edgeIds(), "run " + run);
            assertEquals(reference.totalWeight(), r.result().totalWeight(), "run " + run);
            assertEquals(reference.components(), r.result().components(), "run " + run);
            UndirectedEdges e = now.undirectedEdges();   // follow the forest as a consumer does
            for (int i = 0; i < r.removedU().length; i++) before.remove(key(r.removedU()[i], r.removedV()[i]));
            for (int id : r.addedEdgeIds()) before.put(key(e.u[id], e.v[id]), e.w[id]);
            nanos[run] = r.result().timing().computeNanos();
        }
        assertEquals(pairs(now, CpuMst.run(now)), before, "the lists carried the forest over");
        Arrays.sort(nanos);
        System.out.printf("NY single edits: repair median %.2f ms, worst %.2f ms (a cold JIT's first runs included)%n",
                nanos[nanos.length / 2] / 1e6, nanos[nanos.length - 1] / 1e6);
    }

    private static String describe(Seen s) {
        return s.runs + " runs, " + s.refused + " refused, components up " + s.moreComponents + " down "
                + s.fewerComponents + ", " + s.swaps + " swaps, " + s.reweightedStays + " re-weighted stays, "
                + s.newVertices + " runs with new vertices";
    }
}
