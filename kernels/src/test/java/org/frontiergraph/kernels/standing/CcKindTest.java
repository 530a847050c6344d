package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.frontiergraph.kernels.cc.CcReference;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.standing.CcKind.ComponentChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link CcKind}: over random batches that split and merge components (and add vertices), each repair (with budget
 * divisors 1 and 8, so that some give up) equals {@link CcReference} on the new graph and passes the kind's verifier;
 * its changed vertices (label changed, or new) and its merges and splits equal those derived by brute force from the
 * two label arrays; {@link CcKind#compare} of the two answers gives the same; a batch the screen calls untouched
 * repairs to the same labels with no change.
 */
class CcKindTest {
    @ParameterizedTest(name = "n={0} m={1} directed={2} seed={3} divisor={4}")
    @CsvSource({
        "600, 500, false, 11, 1",
        "600, 550, true, 12, 1",
        "2000, 2300, false, 13, 8",
        "2000, 2300, true, 14, 8",
    })
    void repairsEqualRecomputesAndNameTheirSplitsAndMerges(int n, int m, boolean directed, long seed, int divisor) {
        Random rnd = new Random(seed);
        MutableGraph g = new MutableGraph(GraphBuilder.build(UniformRandomGraph.generate(n, m, seed, 10, directed)));
        ChangeLog.Cursor cursor = g.log().cursor(ChangeLog.Detail.EDGES);
        CcResult answer = CcReference.run(g.current());
        int[] sizes = {1, 2, 5, 1, 20};
        int splits = 0, merges = 0, untouched = 0, gaveUp = 0;
        for (int run = 0; run < 150; run++) {
            for (int i = 0; i < sizes[run % sizes.length]; i++) {
                try {
                    g.apply(randomUpdate(rnd, g.current()), 0, Long.MAX_VALUE);
                } catch (InvalidGraphException refused) {
                    // changes nothing
                }
            }
            CsrGraph now = g.current();
            ChangedEdges changes = cursor.read().edges();
            CcKind.CC.prepare(now);
            CcResult expected = CcReference.run(now);
            String what = "run " + run + " (seed " + seed + ")";
            Delta brute = brute(answer.labels(), expected.labels());
            assertSame(brute, CcKind.CC.compare(answer, expected), what + ": compare");
            boolean touched = CcKind.CC.touchedBy(Screen.of(now, changes), answer);
            StandingKind.Update<CcResult> u = CcKind.CC.repair(now, answer, changes, divisor);
            if (!touched) {
                untouched++;
                assertNotNull(u, what + ": an untouched answer repairs");
                assertTrue(u.delta().isEmpty(), what + ": an untouched answer changes nothing");
            }
            if (u == null) {
                gaveUp++;
                answer = expected;
                continue;
            }
            Verification v = CcKind.CC.verify(now, u.result(), expected);
            assertTrue(v.ok(), () -> what + ": " + v.message());
            assertArrayEquals(expected.labels(), u.result().labels(), what);
            assertSame(brute, u.delta(), what + ": repair");
            for (Object c : u.delta().content()) {
                if (((ComponentChange) c).merged()) merges++;
                else splits++;
            }
            answer = u.result();
        }
        int s = splits, mg = merges, un = untouched;
        assertTrue(s > 0 && mg > 0 && un > 0, () -> "splits " + s + ", merges " + mg + ", untouched " + un);
        if (divisor == 1) assertTrue(gaveUp < 40, "most repairs gave up: " + gaveUp);
    }

    @Test
    void aBridgeRemovedSplitsAndAnEdgeAddedMerges() {
        MutableGraph g = new MutableGraph(TestGraphs.build(6, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 4, 1));
        ChangeLog.Cursor cursor = g.log().cursor(ChangeLog.Detail.EDGES);
        CcResult before = CcReference.run(g.current());
        g.apply(EdgeEdits.remove(new int[] {1}, new int[] {2}), 0, Long.MAX_VALUE);
        StandingKind.Update<CcResult> cut = CcKind.CC.repair(g.current(), before, cursor.read().edges(), 1);
        assertArrayEquals(new int[] {0, 0, 2, 2, 2, 5}, cut.result().labels());
        assertArrayEquals(new int[] {2, 3, 4}, cut.delta().vertices());
        assertEquals(List.of("SPLIT 0 [0, 2]"), text(cut.delta().content()));
        g.apply(EdgeEdits.add(new int[] {5}, new int[] {3}, new double[] {1}), 0, Long.MAX_VALUE);
        StandingKind.Update<CcResult> joined = CcKind.CC.repair(g.current(), cut.result(), cursor.read().edges(), 1);
        assertArrayEquals(new int[] {0, 0, 2, 2, 2, 2}, joined.result().labels());
        assertArrayEquals(new int[] {5}, joined.delta().vertices());
        assertEquals(List.of("MERGED 2 [2, 5]"), text(joined.delta().content()));
        assertEquals(2, joined.result().components());
        assertEquals(4, joined.result().largest());
    }

    /** Mostly removals of existing edges and additions between random vertices; now and then a new vertex. */
    private static EdgeEdits randomUpdate(Random rnd, CsrGraph g) {
        int n = g.vertexCount();
        int kind = rnd.nextInt(20);
        int[] none = new int[0];
        if (kind == 0) return new EdgeEdits(1, none, none, none, none, new double[0], none, none, new double[0]);
        if (kind < 11 && g.arcCount() > 0) {
            int arc = rnd.nextInt(g.arcCount());
            return EdgeEdits.remove(new int[] {g.sourceOf(arc)}, new int[] {g.columns()[arc]});
        }
        if (kind == 11 && g.arcCount() > 0) {
            int arc = rnd.nextInt(g.arcCount());
            return EdgeEdits.reweight(g.sourceOf(arc), g.columns()[arc], 1 + rnd.nextInt(9));
        }
        return EdgeEdits.add(new int[] {rnd.nextInt(n)}, new int[] {rnd.nextInt(n)}, new double[] {1 + rnd.nextInt(9)});
    }

    /** What changed between two label arrays, by brute force over every vertex (new ones: their own before). */
    private static Delta brute(int[] before, int[] after) {
        List<Integer> changed = new ArrayList<>();
        TreeMap<Integer, TreeSet<Integer>> from = new TreeMap<>(), into = new TreeMap<>();
        for (int x = 0; x < after.length; x++) {
            int o = x < before.length ? before[x] : x;
            if (x >= before.length || o != after[x]) changed.add(x);
            from.computeIfAbsent(after[x], k -> new TreeSet<>()).add(o);
            into.computeIfAbsent(o, k -> new TreeSet<>()).add(after[x]);
        }
        List<ComponentChange> events = new ArrayList<>();
        from.forEach((k, s) -> { if (s.size() > 1) events.add(new ComponentChange(true, k, ints(s))); });
        into.forEach((k, s) -> { if (s.size() > 1) events.add(new ComponentChange(false, k, ints(s))); });
        return Delta.ofVertices(changed.stream().mapToInt(Integer::intValue).toArray(), events);
    }

    private static int[] ints(TreeSet<Integer> s) {
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void assertSame(Delta expected, Delta actual, String what) {
        assertArrayEquals(expected.vertices(), actual.vertices(), what + ": changed vertices");
        assertEquals(text(expected.content()), text(actual.content()), what + ": merges and splits");
    }

    private static List<String> text(List<?> events) {
        return events.stream().map(ComponentChange.class::cast).map(c -> (c.merged() ? "MERGED " : "SPLIT ") + c.label() + " " + Arrays.toString(c.parts())).toList();
    }
}
