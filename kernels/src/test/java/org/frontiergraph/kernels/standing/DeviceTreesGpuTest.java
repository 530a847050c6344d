package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.sssp.DeviceMirror;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspRepairTest;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.standing.DeviceTreeAnswers;
import org.frontiergraph.kernels.standing.DeviceTrees;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeRepair;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Standing trees repaired on the device ({@link DeviceTreeAnswers} over {@link DeviceTrees}, kernels in
 * src/main/cuda/sssp_repair.cu) through the random update streams of {@link RepairStreams} (decreases, increases and
 * removals of tree arcs, removals and insertions, vertices cut off and reconnected, bridges cut and restored, new
 * vertices, changes at a source, invalid updates; zero, integral, fractional and arbitrary weights): the graph lives
 * on the GPU (a resident copy that receives the same updates), several trees per graph are repaired together after
 * each batch, and every repaired answer is checked against a from-scratch recompute (distances and hops exactly,
 * parents by the verifiers and free of cycles, the DELTA equal to the vertices that actually changed) and against the
 * GPU engine's own answer from scratch. Graphs: random (directed and undirected), a road-like grid, a Kronecker graph
 * (hubs: rows walked by whole warps) and USA-road-d.NY when the datasets are present.
 */
@Tag("gpu")
class DeviceTreesGpuTest extends GpuTests {
    /** The streams' graph mirrored on the GPU: each batch's changes applied to a resident copy, then its trees repaired. */
    abstract static class OnDevice<R, S> implements RepairStreams.Batched<R> {
        final ResidentGraph dev;
        final List<S> standing = new ArrayList<>();
        final Map<TreeOutcome.How, Integer> hows = new EnumMap<>(TreeOutcome.How.class);
        long changedVertices;

        OnDevice(CsrGraph start) {
            this.dev = gpu.load(DeviceMirror.copy(start));
        }

        abstract S open(R answer);

        abstract R resultOf(S s);

        abstract List<Object[]> repairAll(List<S> standing, ChangedEdges changes, CsrGraph now);

        abstract R onDeviceFromScratch(int source);

        @Override
        public List<RepairStreams.Repaired<R>> repairBatch(CsrGraph now, List<R> previous, ChangedEdges changes) {
            if (standing.isEmpty()) for (R a : previous) standing.add(open(a));   // on the start version
            for (int i = 0; i < previous.size(); i++) assertSame(resultOf(standing.get(i)), previous.get(i), "the host copy is the answer held");
            DeviceMirror.follow(dev.mutable(), now, changes);
            List<RepairStreams.Repaired<R>> out = new ArrayList<>();
            for (Object[] r : repairAll(standing, changes, now)) {
                @SuppressWarnings("unchecked") R result = (R) r[0];
                int[] changed = (int[]) r[1];
                hows.merge((TreeOutcome.How) r[2], 1, Integer::sum);
                changedVertices += changed.length;
                out.add(new RepairStreams.Repaired<>(result, changed));
            }
            for (int i = 0; i < out.size(); i++) {   // the GPU engine's answer from scratch, distances bit for bit
                R fresh = onDeviceFromScratch(sourceOf(out.get(i).result()));
                assertArrayEquals(view(fresh).values(), view(out.get(i).result()).values(), "the GPU engine's recompute");
            }
            return out;
        }

        abstract int sourceOf(R r);

        void close() {
            dev.close();
        }

        @Override
        public String toString() {
            return hows + ", " + changedVertices + " changed vertices in all";
        }
    }

    static class SsspOnDevice extends OnDevice<SsspResult, DeviceTreeAnswers.Standing<SsspResult>> {
        final DeviceTreeAnswers trees;

        SsspOnDevice(CsrGraph start) {
            super(start);
            trees = DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow();
        }

        @Override public SsspResult reference(CsrGraph g, int source) { return DijkstraReference.run(g, source); }
        @Override public SsspResult copy(SsspResult r) { return SsspRepairTest.SSSP.copy(r); }
        @Override public RepairStreams.View view(SsspResult r) { return SsspRepairTest.SSSP.view(r); }
        @Override public RepairStreams.Repaired<SsspResult> repair(CsrGraph g, SsspResult p, ChangedEdges c) { throw new UnsupportedOperationException(); }
        @Override public Verification verify(CsrGraph g, int s, SsspResult r, SsspResult ref) { return SsspVerifier.verify(g, s, r, ref); }
        @Override DeviceTreeAnswers.Standing<SsspResult> open(SsspResult answer) { return trees.open(answer); }
        @Override SsspResult resultOf(DeviceTreeAnswers.Standing<SsspResult> s) { return s.result(); }
        @Override int sourceOf(SsspResult r) { return r.source(); }
        @Override SsspResult onDeviceFromScratch(int source) { return Sssp.run(dev, source, null); }

        @Override
        List<Object[]> repairAll(List<DeviceTreeAnswers.Standing<SsspResult>> standing, ChangedEdges changes, CsrGraph now) {
            List<Object[]> out = new ArrayList<>();
            for (DeviceTreeAnswers.Repaired<?> r : trees.repairAll(standing, changes, Screen.of(now, changes))) out.add(new Object[] {r.result(), r.changed(), r.how()});
            return out;
        }
    }

    static final class BfsOnDevice extends OnDevice<BfsResult, DeviceTreeAnswers.Standing<BfsResult>> {
        final DeviceTreeAnswers trees;

        BfsOnDevice(CsrGraph start) {
            super(start);
            trees = DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow();
        }

        @Override public BfsResult reference(CsrGraph g, int source) { return BfsReference.run(g, source); }
        @Override public BfsResult copy(BfsResult r) { return new BfsResult(r.source(), r.hops().clone(), r.parents().clone(), r.timing()); }

        @Override
        public RepairStreams.View view(BfsResult r) {
            double[] v = new double[r.hops().length];
            for (int i = 0; i < v.length; i++) v[i] = r.hops()[i] < 0 ? Double.POSITIVE_INFINITY : r.hops()[i];
            return new RepairStreams.View(v, r.parents());
        }

        @Override public RepairStreams.Repaired<BfsResult> repair(CsrGraph g, BfsResult p, ChangedEdges c) { throw new UnsupportedOperationException(); }
        @Override public Verification verify(CsrGraph g, int s, BfsResult r, BfsResult ref) { return BfsVerifier.verify(g, s, r, ref); }
        @Override DeviceTreeAnswers.Standing<BfsResult> open(BfsResult answer) { return trees.open(answer); }
        @Override BfsResult resultOf(DeviceTreeAnswers.Standing<BfsResult> s) { return s.result(); }
        @Override int sourceOf(BfsResult r) { return r.source(); }
        @Override BfsResult onDeviceFromScratch(int source) { return Bfs.run(dev, source, null); }

        @Override
        List<Object[]> repairAll(List<DeviceTreeAnswers.Standing<BfsResult>> standing, ChangedEdges changes, CsrGraph now) {
            List<Object[]> out = new ArrayList<>();
            for (DeviceTreeAnswers.Repaired<?> r : trees.repairAll(standing, changes, Screen.of(now, changes))) out.add(new Object[] {r.result(), r.changed(), r.how()});
            return out;
        }
    }

    private static void assertOnDevice(OnDevice<?, ?> d, RepairStreams.Stats stats, String what) {
        System.out.println("[device trees] " + what + ": " + d + "; " + stats);
        assertEquals(0, d.hows.getOrDefault(TreeOutcome.How.HOST, 0), "no tree left to the host: " + d);
        assertTrue(d.hows.getOrDefault(TreeOutcome.How.REPAIRED, 0) > 0, "repaired on the device: " + d);
    }

    @ParameterizedTest
    @CsvSource({"false, MIXED", "true, MIXED", "false, INTEGER", "true, INTEGER", "false, REAL", "true, REAL"})
    void ssspTreesFollowRandomStreams(boolean directed, RepairStreams.Weights weights) {
        Random rnd = new Random(301 + (directed ? 1 : 0) + 2 * weights.ordinal());
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed, weights);
        SsspOnDevice d = new SsspOnDevice(start);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, start, new int[] {0, 555, 1_234, 1_997}, new int[] {1, 10, 100}, 10, rnd, weights);
            assertOnDevice(d, stats, "SSSP, directed " + directed + ", " + weights);
            RepairStreams.assertEveryKind(stats);
        } finally {
            d.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void bfsTreesFollowRandomStreams(boolean directed) {
        Random rnd = new Random(311 + (directed ? 1 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 2_000, directed);
        BfsOnDevice d = new BfsOnDevice(start);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, start, new int[] {0, 555, 1_234, 1_997}, new int[] {1, 10, 100}, 10, rnd);
            assertOnDevice(d, stats, "BFS, directed " + directed);
            RepairStreams.assertEveryKind(stats);
        } finally {
            d.close();
        }
    }

    @Test
    void treesFollowStreamsOnARoadGridAndAKroneckerGraph() {
        Random rnd = new Random(321);
        CsrGraph grid = GraphBuilder.build(GridRoadGraph.generate(60, 60, 5, 100));
        SsspOnDevice d = new SsspOnDevice(grid);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, grid, new int[] {0, 1_830, 3_599}, new int[] {1, 10, 100}, 8, rnd,
                    RepairStreams.Weights.INTEGER);
            assertOnDevice(d, stats, "SSSP, grid 60 x 60");
        } finally {
            d.close();
        }
        CsrGraph kron = GraphBuilder.build(KroneckerGraph.generate(12, 8, 7));
        int[] sources = TestGraphs.sources(kron, 3, 5);
        SsspOnDevice k = new SsspOnDevice(kron);
        try {
            RepairStreams.Stats stats = RepairStreams.run(k, kron, sources, new int[] {1, 10, 100}, 6, rnd, RepairStreams.Weights.INTEGER);
            assertOnDevice(k, stats, "SSSP, kronecker scale 12");
        } finally {
            k.close();
        }
        BfsOnDevice b = new BfsOnDevice(kron);
        try {
            RepairStreams.Stats stats = RepairStreams.run(b, kron, sources, new int[] {1, 10, 100}, 6, rnd, RepairStreams.Weights.INTEGER);
            assertOnDevice(b, stats, "BFS, kronecker scale 12");
        } finally {
            b.close();
        }
    }

    /**
     * Every other batch repaired on the host and its changed vertices patched into the device trees (a grown answer
     * uploaded whole), as the worker keeps them level until the host gives up; the device's repairs in between start
     * from the patched trees.
     */
    static final class Alternating extends SsspOnDevice {
        int batch, onHost;

        Alternating(CsrGraph start) {
            super(start);
        }

        @Override
        List<Object[]> repairAll(List<DeviceTreeAnswers.Standing<SsspResult>> standing, ChangedEdges changes, CsrGraph now) {
            if (batch++ % 2 == 0) return super.repairAll(standing, changes, now);
            List<Object[]> out = new ArrayList<>();
            for (DeviceTreeAnswers.Standing<SsspResult> s : standing) {
                TreeRepair.Repaired<SsspResult> r = SsspRepair.repair(now, s.result(), changes, Long.MAX_VALUE);
                if (r.result().distances().length != s.tree().vertexCount()) trees.reset(s, r.result());
                else trees.patch(s, r.result(), r.changed());
                onHost++;
                out.add(new Object[] {r.result(), r.changed(), TreeOutcome.How.HOST});
            }
            return out;
        }
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void hostRepairsPatchedIntoTheTreesKeepThemExact(boolean directed) {
        Random rnd = new Random(361 + (directed ? 1 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 1_500, directed, RepairStreams.Weights.REAL);
        Alternating d = new Alternating(start);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, start, new int[] {0, 700, 1_497}, new int[] {1, 10, 100}, 8, rnd,
                    RepairStreams.Weights.REAL);
            System.out.println("[device trees] alternating with the host, directed " + directed + ": " + d + "; " + stats);
            assertTrue(d.onHost > 0 && d.hows.getOrDefault(TreeOutcome.How.REPAIRED, 0) > 0, d.toString());
        } finally {
            d.close();
        }
    }

    @Test
    void aBudgetOfNoneRecomputesOnTheDevice() {
        Random rnd = new Random(331);
        CsrGraph start = RepairStreams.graph(rnd, 1_500, false, RepairStreams.Weights.INTEGER);
        SsspOnDevice d = new SsspOnDevice(start);
        d.trees.trees().maxInvalidFraction(0);
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, start, new int[] {0, 700}, new int[] {1, 10}, 10, rnd, RepairStreams.Weights.INTEGER);
            System.out.println("[device trees] budget 0: " + d + "; " + stats);
            assertTrue(d.hows.getOrDefault(TreeOutcome.How.RECOMPUTED, 0) > 0, "recomputed on the device: " + d);
            assertEquals(0, d.hows.getOrDefault(TreeOutcome.How.HOST, 0), d.toString());
        } finally {
            d.close();
        }
    }

    @Test
    void ssspAndBfsTreesShareTheGraphAndItsLedger() {
        Random rnd = new Random(341);
        CsrGraph start = RepairStreams.graph(rnd, 1_000, false, RepairStreams.Weights.INTEGER);
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(start))) {
            long before = dev.residentBytes();
            DeviceTreeAnswers sssp = DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow();
            DeviceTreeAnswers bfs = DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow();
            assertSame(sssp.trees(), bfs.trees(), "one launcher per graph");
            assertSame(sssp.trees(), DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow().trees(), "one set of trees per graph");
            DeviceTreeAnswers.Standing<SsspResult> s = sssp.open(DijkstraReference.run(start, 3));
            DeviceTreeAnswers.Standing<BfsResult> b = bfs.open(BfsReference.run(start, 3));
            assertEquals(before + 2 * 12L * start.vertexCount(), dev.residentBytes(), "two trees of 12 bytes a vertex");
            MutableGraph host = new MutableGraph(start);
            ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
            for (int batch = 0; batch < 20; batch++) {
                for (int i = 0; i < 5; i++) {
                    EdgeEdits e = UpdateStreams.randomUpdate(rnd, host.current(), true);
                    try {
                        host.apply(e, 0, Long.MAX_VALUE);
                    } catch (InvalidGraphException refused) {
                        continue;
                    }
                    dev.mutable().apply(e, 0, Long.MAX_VALUE);
                }
                ChangedEdges changes = seen.read().edges();
                CsrGraph now = host.current();
                SsspResult sOld = SsspRepairTest.SSSP.copy(s.result());
                BfsResult bOld = new BfsResult(3, b.result().hops().clone(), b.result().parents().clone(), null);
                @SuppressWarnings("unchecked") DeviceTreeAnswers.Repaired<SsspResult> rs =
                        (DeviceTreeAnswers.Repaired<SsspResult>) sssp.repairAll(List.of(s), changes, Screen.of(now, changes)).get(0);
                @SuppressWarnings("unchecked") DeviceTreeAnswers.Repaired<BfsResult> rb =
                        (DeviceTreeAnswers.Repaired<BfsResult>) bfs.repairAll(List.of(b), changes, Screen.of(now, changes)).get(0);
                RepairStreams.check(SsspRepairTest.SSSP, now, 3, sOld, new RepairStreams.Repaired<>(rs.result(), rs.changed()), "sssp batch " + batch);
                BfsResult fresh = BfsReference.run(now, 3);
                assertArrayEquals(fresh.hops(), rb.result().hops(), "bfs batch " + batch);
                assertTrue(BfsVerifier.verify(now, 3, rb.result(), fresh).ok(), "bfs batch " + batch);
                assertArrayEquals(changedBetween(bOld, rb.result()), rb.changed(), "bfs changed, batch " + batch);
            }
            long withTrees = dev.residentBytes(), treeBytes = 12L * (s.tree().vertexCount() + b.tree().vertexCount());
            assertEquals(treeBytes, s.tree().deviceBytes() + b.tree().deviceBytes());
            sssp.close(s);
            bfs.close(b);
            assertEquals(withTrees - treeBytes, dev.residentBytes(), "the trees' bytes left the graph's ledger");
            assertEquals(0, sssp.trees().size());
        }
    }

    @Test
    void aTreeWhoseParentsHoldACycleIsRecomputedInsteadOfJumpingForEver() {
        CsrGraph start = TestGraphs.path(3_000);   // the tree from 0 is the path itself: 2,999 levels deep
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(start))) {
            DeviceTreeAnswers sssp = DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow();
            SsspResult before = DijkstraReference.run(start, 0);
            DeviceTreeAnswers.Standing<SsspResult> s = sssp.open(before);
            // a corrupt tree on the device: 2,500 and 2,501 each other's parent, their distances as they were
            double[] d = before.distances();
            sssp.trees().patch(s.tree(), new int[] {2_500, 2_501}, new double[] {d[2_500], d[2_501]}, new int[] {2_501, 2_500});
            MutableGraph host = new MutableGraph(start);
            ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
            // a tree arc heavier: its subtree (2,000 to 2,999, a third of the vertices, within the budget) is walked 32
            // levels deep, then found by pointer jumping, which the cycle would keep going for ever
            DeviceTreeAnswers.Repaired<?> r = applyAndRepair(sssp, s, dev, host, seen, EdgeEdits.reweight(1_999, 2_000, 50));
            CsrGraph now = host.current();
            assertEquals(TreeOutcome.How.RECOMPUTED, r.how(), "the cycle, not the budget, makes a recompute from the source");
            SsspResult fresh = DijkstraReference.run(now, 0);
            SsspResult got = (SsspResult) r.result();
            assertArrayEquals(fresh.distances(), got.distances(), "distances after the recompute");
            assertTrue(SsspVerifier.verify(now, 0, got, fresh).ok(), "parents after the recompute");
            // and the tree on the device is whole again: the next batch repairs it without a recompute
            r = applyAndRepair(sssp, s, dev, host, seen, EdgeEdits.reweight(2_701, 2_702, 1));   // 2 to 1: a shorter path below
            now = host.current();
            assertEquals(TreeOutcome.How.REPAIRED, r.how());
            assertArrayEquals(DijkstraReference.run(now, 0).distances(), ((SsspResult) r.result()).distances());
        }
    }

    /**
     * Step 6 of repair_prepare: a lowered arc lowers its head's whole old subtree at once (integer and hop keys), and
     * the settle starts from the subtree's edge. The counts are exact: each batch here has one root.
     */
    @Test
    void aLoweredArcLowersItsWholeSubtreeAtOnceAndOnlyTheEdgeIsSettled() {
        // a road grid, integer weights: the tree from a corner is hundreds of arcs deep
        CsrGraph start = GraphBuilder.build(GridRoadGraph.generate(150, 150, 361, 100));
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(start))) {
            DeviceTreeAnswers sssp = DeviceTreeAnswers.on(dev, shiftPasses(1)).orElseThrow();   // the counts are one pass's
            DeviceTreeAnswers.Standing<SsspResult> s = sssp.open(DijkstraReference.run(start, 0));
            MutableGraph host = new MutableGraph(start);
            ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
            for (int batch = 0; batch < 6; batch++) {
                // the tree arc of weight >= 2 over the largest subtree, now of weight 1
                CsrGraph now = host.current();
                int[] parent = s.result().parents();
                int[] size = subtreeSizes(parent, s.result().distances());
                int best = -1;
                for (int v = 0; v < parent.length; v++) {
                    if (parent[v] >= 0 && v != 0 && now.weights()[now.findArc(parent[v], v)] >= 2 && (best < 0 || size[v] > size[best])) best = v;
                }
                DeviceTreeAnswers.Repaired<?> r = applyAndRepair(sssp, s, dev, host, seen, EdgeEdits.reweight(parent[best], best, 1));
                now = host.current();
                SsspResult got = (SsspResult) r.result();
                assertEquals(TreeOutcome.How.REPAIRED, r.how());
                assertEquals(size[best] - 1, got.timing().counter("shifted"), "every vertex below the lowered arc's head, batch " + batch);
                SsspResult fresh = DijkstraReference.run(now, 0);
                assertArrayEquals(fresh.distances(), got.distances(), "distances, batch " + batch);
                assertTrue(SsspVerifier.verify(now, 0, got, fresh).ok(), "parents, batch " + batch);
            }
        }
        // hops: a shortcut into the middle of a path lowers the far half at once; the near half is settled backwards
        CsrGraph path = TestGraphs.path(3_000);
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(path))) {
            DeviceTreeAnswers bfs = DeviceTreeAnswers.on(dev, shiftPasses(1)).orElseThrow();
            DeviceTreeAnswers.Standing<BfsResult> b = bfs.open(BfsReference.run(path, 0));
            MutableGraph host = new MutableGraph(path);
            ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
            DeviceTreeAnswers.Repaired<?> r = applyAndRepair(bfs, b, dev, host, seen,
                    EdgeEdits.add(new int[] {0}, new int[] {1_500}, new double[] {1}));
            CsrGraph now = host.current();
            BfsResult got = (BfsResult) r.result();
            assertEquals(1_499, got.timing().counter("shifted"), "1,501 to 2,999");
            BfsResult fresh = BfsReference.run(now, 0);
            assertArrayEquals(fresh.hops(), got.hops());
            assertTrue(BfsVerifier.verify(now, 0, got, fresh).ok());
        }
        // doubles: no shift (a rounded sum along a path need not be old - old + new), the settle walks it, still exact
        EdgeList e = new EdgeList(2_000, false, 2_000);
        for (int i = 0; i + 1 < 2_000; i++) e.add(i, i + 1, 0.1 + (i % 7) * 0.3);
        CsrGraph real = GraphBuilder.build(e);
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(real))) {
            DeviceTreeAnswers sssp = DeviceTreeAnswers.on(dev, RepairPolicy.DEFAULTS).orElseThrow();
            DeviceTreeAnswers.Standing<SsspResult> s = sssp.open(DijkstraReference.run(real, 0));
            MutableGraph host = new MutableGraph(real);
            ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
            SsspResult got = (SsspResult) applyAndRepair(sssp, s, dev, host, seen, EdgeEdits.reweight(10, 11, 0.05)).result();
            assertEquals(0, got.timing().counter("shifted"));
            assertArrayEquals(DijkstraReference.run(host.current(), 0).distances(), got.distances());
        }
    }

    /**
     * Step 6 in several passes: an arc the tree did not use, lowered, brings its head closer, and the vertices reached
     * through the head carry their own old subtrees down in the next passes. Exact with 0, 1 and 4 passes; more passes
     * lower at least as many vertices at once.
     */
    @Test
    void shiftPassesFollowAnImprovementThroughOtherSubtreesExactly() {
        CsrGraph start = GraphBuilder.build(GridRoadGraph.generate(150, 150, 367, 100));
        SsspResult before = DijkstraReference.run(start, 0);
        // the arc u -> v off the tree whose weight 1 would lower v the most
        int[] off = start.rowOffsets(), col = start.columns();
        double[] d = before.distances();
        int bu = -1, bv = -1;
        for (int u = 0; u < start.vertexCount(); u++) {
            for (int k = off[u]; k < off[u + 1]; k++) {
                int v = col[k];
                if (before.parents()[v] != u && d[v] - d[u] - 1 > 0 && (bu < 0 || d[v] - d[u] > d[bv] - d[bu])) {
                    bu = u;
                    bv = v;
                }
            }
        }
        long last = -1;
        for (int passes : new int[] {0, 1, 4}) {
            try (ResidentGraph dev = gpu.load(DeviceMirror.copy(start))) {
                DeviceTreeAnswers sssp = DeviceTreeAnswers.on(dev, shiftPasses(passes)).orElseThrow();
                DeviceTreeAnswers.Standing<SsspResult> s = sssp.open(SsspRepairTest.SSSP.copy(before));
                MutableGraph host = new MutableGraph(start);
                ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
                DeviceTreeAnswers.Repaired<?> r = applyAndRepair(sssp, s, dev, host, seen, EdgeEdits.reweight(bu, bv, 1));
                SsspResult got = (SsspResult) r.result();
                CsrGraph now = host.current();
                SsspResult fresh = DijkstraReference.run(now, 0);
                assertEquals(TreeOutcome.How.REPAIRED, r.how());
                assertArrayEquals(fresh.distances(), got.distances(), passes + " passes");
                assertTrue(SsspVerifier.verify(now, 0, got, fresh).ok(), passes + " passes");
                long shifted = got.timing().counter("shifted");
                System.out.printf("[shift passes] %d: %,d of %,d changed vertices lowered at once%n", passes, shifted, r.changed().length);
                if (passes == 0) assertEquals(0, shifted);
                if (passes == 4) assertTrue(shifted > 0, "the later passes lower what the head's own subtree did not hold");
                else assertTrue(shifted >= last, passes + " passes lowered " + shifted + ", fewer passes " + last);
                last = shifted;
            }
        }
    }

    /** The default policy with {@code passes} passes of step 6. */
    private static RepairPolicy shiftPasses(int passes) {
        RepairPolicy d = RepairPolicy.DEFAULTS;
        return new RepairPolicy(d.deviceFirstArcs(), d.deviceBudgetDivisor(), d.gpuSpeedUp(), d.sideBySide(), d.blocksPerSm(),
                d.phases(), d.settle(), passes);
    }

    /** Applies {@code edit} to {@code host} and to the device's copy, then repairs {@code s} on the device. */
    private static DeviceTreeAnswers.Repaired<?> applyAndRepair(DeviceTreeAnswers answers, DeviceTreeAnswers.Standing<?> s,
                                                             ResidentGraph dev, MutableGraph host, ChangeLog.Cursor seen,
                                                             EdgeEdits edit) {
        host.apply(edit, 0, Long.MAX_VALUE);
        ChangedEdges changes = seen.read().edges();
        CsrGraph now = host.current();
        DeviceMirror.follow(dev.mutable(), now, changes);
        return answers.repairAll(List.of(s), changes, Screen.of(now, changes)).get(0);
    }

    /** Vertices in each vertex's subtree (itself included), from the parents, children after parents by distance. */
    private static int[] subtreeSizes(int[] parent, double[] dist) {
        Integer[] order = new Integer[parent.length];
        for (int v = 0; v < order.length; v++) order[v] = v;
        Arrays.sort(order, (a, b) -> Double.compare(dist[b], dist[a]));   // deepest first
        int[] size = new int[parent.length];
        for (int v : order) {
            if (parent[v] < 0) continue;
            size[v]++;
            if (parent[v] != v) size[parent[v]] += size[v];
        }
        return size;
    }

    private static int[] changedBetween(BfsResult a, BfsResult b) {
        List<Integer> out = new ArrayList<>();
        for (int v = 0; v < b.hops().length; v++) {
            int ha = v < a.hops().length ? a.hops()[v] : -1, pa = v < a.parents().length ? a.parents()[v] : -1;
            if (ha != b.hops()[v] || pa != b.parents()[v]) out.add(v);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void treesFollowStreamsOnNewYork() {
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        assumeTrue(ny.isPresent(), "USA-road-d.NY not in the datasets folder");
        Random rnd = new Random(351);
        int[] sources = TestGraphs.sources(ny.get(), 3, 9);
        SsspOnDevice d = new SsspOnDevice(ny.get());
        try {
            RepairStreams.Stats stats = RepairStreams.run(d, ny.get(), sources, new int[] {1, 10, 100}, 3, rnd, RepairStreams.Weights.INTEGER);
            assertOnDevice(d, stats, "SSSP, USA-road-d.NY");
        } finally {
            d.close();
        }
    }
}
