package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The standings' life of SSSP, BFS and MST answers on a CPU engine: random batches (re-weights, insertions, removals,
 * new vertices) repaired in one call per batch, every repaired answer equal to a reference from scratch and its delta
 * the vertices that changed; answers given up on reset from the reference. Seeds 7 and 8.
 */
class StandingsTest {
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void answersFollowRandomBatches(boolean treesOnDevice) {
        Random rnd = new Random(treesOnDevice ? 8 : 7);
        CsrGraph start = RepairStreams.graph(rnd, 600, false, RepairStreams.Weights.REAL);
        MutableGraph host = new MutableGraph(start);
        ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
        Standings standings = Standings.of(RepairPolicy.DEFAULTS, treesOnDevice);
        try (ResidentGraph cpu = new CpuBackend().load(start)) {
            List<Standing<?>> answers = new ArrayList<>();
            for (int s : new int[] {0, 300, 599}) {
                answers.add(standings.open(TreeKind.SSSP, DijkstraReference.run(start, s), cpu));
                answers.add(standings.open(TreeKind.BFS, BfsReference.run(start, s), cpu));
            }
            answers.add(standings.open(MstKind.MST, MstKind.Forest.of(start, KruskalReference.run(start)), cpu));
            for (Standing<?> a : answers) assertSame(Standing.Placed.HOST, a.placed(), "no device on the CPU engine");
            int repaired = 0, gaveUp = 0, settledFirst = 0;
            for (int batch = 0; batch < 40; batch++) {
                int size = batch % 3 == 0 ? 1 : batch % 3 == 1 ? 5 : 60;
                for (int i = 0; i < size; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, host.current(), batch % 2 == 0);
                    try {
                        host.apply(e, 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException refused) {
                        // a removal of an arc that is not there, say: the next one
                    }
                }
                ChangedEdges changes = seen.read().edges();
                CsrGraph now = host.current();
                List<Object> before = new ArrayList<>();
                for (Standing<?> a : answers) before.add(copy(a.answer()));
                List<List<Standings.Outcome<?>>> first = new ArrayList<>();
                List<Object> keptWhenSettled = new ArrayList<>();
                Standings.Repairs r = standings.repair(answers, new Standings.Batch(now, changes, cpu, () -> cpu), settled -> {
                    first.add(settled);
                    for (Standing<?> a : answers) keptWhenSettled.add(a.answer());
                });
                assertEquals(answers.size(), r.outcomes().size());
                assertEquals(0, r.toDevice(), "nothing to repair on the device");
                long given = r.outcomes().stream().filter(o -> o.repaired() == null).count();
                // the settled answers come first, once, exactly when some but not all are left to a recompute
                assertEquals(given > 0 && given < answers.size() ? 1 : 0, first.size(), "batch " + batch);
                if (!first.isEmpty()) {
                    settledFirst++;
                    for (int i = 0; i < answers.size(); i++) {
                        Standings.Outcome<?> early = first.get(0).get(i), o = r.outcomes().get(i);
                        if (o.repaired() == null) {
                            assertNull(early, "batch " + batch + ": answer " + i + " was given up on, so not settled first");
                        } else {
                            assertSame(o.repaired(), early.repaired(), "batch " + batch + ": answer " + i + " settled as it ends");
                            assertSame(o.delta(), early.delta());
                            assertSame(o.repaired(), keptWhenSettled.get(i), "the settled answer is already the one kept");
                        }
                    }
                }
                assertNull(r.deviceFailure());
                for (int i = 0; i < answers.size(); i++) {
                    Standings.Outcome<?> o = r.outcomes().get(i);
                    assertSame(answers.get(i), o.standing());
                    assertTrue(o.intact(), "batch " + batch + ": " + o.failure());
                    assertFalse(o.onDevice());
                    if (o.repaired() == null) {
                        gaveUp++;
                        resetFromScratch(standings, answers.get(i), now, cpu);
                    } else {
                        repaired++;
                        assertSame(o.repaired(), answers.get(i).answer(), "the repaired answer is the one kept");
                        check(answers.get(i), before.get(i), o.delta(), now, "batch " + batch + ", answer " + i);
                    }
                }
            }
            assertTrue(repaired > 0, repaired + " repaired, " + gaveUp + " given up");
            assertTrue(settledFirst > 0, "no batch had light and heavy answers: " + gaveUp + " given up");
        }
    }

    @Test
    void anAnswerTheBatchCannotTouchIsLeftAsItIs() {
        Random rnd = new Random(11);
        CsrGraph start = RepairStreams.graph(rnd, 200, true, RepairStreams.Weights.INTEGER);
        MutableGraph host = new MutableGraph(start);
        ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
        Standings standings = Standings.of(RepairPolicy.DEFAULTS, false);
        try (ResidentGraph cpu = new CpuBackend().load(start)) {
            SsspResult tree = DijkstraReference.run(start, 0);
            Standing<SsspResult> s = standings.open(TreeKind.SSSP, tree, cpu);
            // an arc off the tree made heavier: it can shorten nothing
            int u = -1, v = -1;
            for (int x = 0; x < start.vertexCount() && u < 0; x++) {
                for (int e = start.rowOffsets()[x]; e < start.rowOffsets()[x + 1]; e++) {
                    int y = start.columns()[e];
                    if (tree.parents()[y] != x && y != x) {
                        u = x;
                        v = y;
                        break;
                    }
                }
            }
            host.apply(EdgeEdits.reweight(u, v, 1e6), 0, Long.MAX_VALUE);
            CsrGraph now = host.current();
            Standings.Repairs r = standings.repair(List.of(s), new Standings.Batch(now, seen.read().edges(), cpu, () -> cpu));
            assertEquals(0, r.touched());
            assertSame(tree, s.answer());
            assertTrue(r.outcomes().get(0).delta().isEmpty());
            assertArrayEquals(DijkstraReference.run(now, 0).distances(), s.answer().distances());
        }
    }

    @SuppressWarnings("unchecked")
    private static <A> void resetFromScratch(Standings standings, Standing<A> s, CsrGraph now, ResidentGraph cpu) {
        standings.reset(s, (A) fromScratch(s.answer(), now), cpu);
    }

    private static Object fromScratch(Object answer, CsrGraph g) {
        if (answer instanceof SsspResult r) return DijkstraReference.run(g, r.source());
        if (answer instanceof BfsResult r) return BfsReference.run(g, r.source());
        return MstKind.Forest.of(g, KruskalReference.run(g));
    }

    private static Object copy(Object answer) {
        if (answer instanceof SsspResult r) return new SsspResult(r.source(), r.distances().clone(), r.parents().clone(), r.timing());
        if (answer instanceof BfsResult r) return new BfsResult(r.source(), r.hops().clone(), r.parents().clone(), r.timing());
        return answer;
    }

    private static void check(Standing<?> s, Object before, Delta delta, CsrGraph now, String what) {
        Object fresh = fromScratch(s.answer(), now);
        if (s.answer() instanceof MstKind.Forest f) {
            assertTrue(MstKind.MST.verify(now, f, (MstKind.Forest) fresh).ok(), what);
            return;
        }
        TreeAnswer<?> a = (TreeAnswer<?>) s.answer(), b = (TreeAnswer<?>) before, ref = (TreeAnswer<?>) fresh;
        assertEquals(ref.vertexCount(), a.vertexCount(), what);
        for (int v = 0; v < ref.vertexCount(); v++) assertEquals(ref.value(v), a.value(v), what + ": vertex " + v);
        List<Integer> changed = new ArrayList<>();
        for (int v = 0; v < a.vertexCount(); v++) if (TreeAnswer.differs(a, b, v)) changed.add(v);
        assertArrayEquals(changed.stream().mapToInt(Integer::intValue).toArray(), delta.vertices(), what + ": the delta");
    }
}
