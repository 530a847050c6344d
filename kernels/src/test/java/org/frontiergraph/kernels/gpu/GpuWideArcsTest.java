package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsAtTargets;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsSummaries;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.cc.Cc;
import org.frontiergraph.kernels.cc.CcAtTargets;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cc.CcSummary;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstSummary;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspAtTargets;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspSummaries;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Graphs stored wide (64-bit row offsets on the device, issue 29 item 2) answer exactly as their narrow selves: each
 * graph is loaded narrow and as {@link CsrGraph#widen} copies with pages of 7 and 4,096 arcs (a shipped dataset with
 * 4,096 only), and BFS, SSSP, MST and CC, in every wide-capable variant and in the SUMMARY and TARGETS forms the
 * worker uses, give the same answers, each passing its verifier on the graph. Re-weights of a wide copy are scattered
 * by 64-bit arc index; the variants that read 32-bit offsets refuse a wide graph and are never its default.
 */
@Tag("gpu")
class GpuWideArcsTest extends GpuTests {
    record Case(String name, Supplier<CsrGraph> graph, int pageArcs) {
        @Override
        public String toString() { return name + ", pages of " + pageArcs + " arcs"; }
    }

    static Stream<Case> cases() {
        List<Case> list = new ArrayList<>();
        List<Object[]> graphs = List.of(
                new Object[] {"random directed n=3000 m=30000 w<=100, parallel arcs, loops, 400 isolated, seed=31",
                        (Supplier<CsrGraph>) () -> messy(3_000, 30_000, 31, true, false)},
                new Object[] {"random undirected n=4000 m=40000 w<=1000, parallel arcs, loops, 400 isolated, seed=32",
                        (Supplier<CsrGraph>) () -> messy(4_000, 40_000, 32, false, false)},
                new Object[] {"fractional directed n=3000 m=30000 seed=33",
                        (Supplier<CsrGraph>) () -> GpuTestGraphs.fractional(3_000, 30_000, 33, true)},
                new Object[] {"fractional undirected with hubs n=3000 m=30000 seed=34",
                        (Supplier<CsrGraph>) () -> messy(3_000, 30_000, 34, false, true)},
                new Object[] {"zero weights undirected n=2000 m=10000 seed=35",
                        (Supplier<CsrGraph>) () -> GpuTestGraphs.zeroWeights(2_000, 10_000, 35)},
                new Object[] {"kronecker scale=12 ef=16 seed=36",
                        (Supplier<CsrGraph>) () -> GraphBuilder.build(KroneckerGraph.generate(12, 16, 36))});
        for (Object[] g : graphs) {
            @SuppressWarnings("unchecked")
            Supplier<CsrGraph> s = (Supplier<CsrGraph>) g[1];
            list.add(new Case((String) g[0], s, 7));
            list.add(new Case((String) g[0], s, 4096));
        }
        GpuTestGraphs.datasets().stream().filter(p -> p.getFileName().toString().startsWith("rome99")).findFirst()
                .ifPresent(p -> list.add(new Case("dataset " + p.getFileName(), () -> read(p), 4096)));
        return list.stream();
    }

    /**
     * {@code m} random edges among the first n - 400 vertices (the last 400 isolated), plus a self-loop and a parallel
     * copy of every tenth edge (the builder drops the one, keeps the lighter of the other); {@code hubs}: fractional
     * weights and three vertices joined to 1,500 others each (rows past the kernels' block-expansion degree).
     */
    static CsrGraph messy(int n, int m, long seed, boolean directed, boolean hubs) {
        SplittableRandom r = new SplittableRandom(seed);
        int live = n - 400;
        EdgeList list = new EdgeList(n, directed, m + m / 5 + 4_500);
        for (int i = 0; i < m; i++) {
            int u = r.nextInt(live), v = r.nextInt(live);
            double w = hubs ? r.nextInt(1, 1000) / 7.0 : r.nextInt(1, directed ? 101 : 1001);
            list.add(u, v, w);
            if (i % 10 == 0) {
                list.add(u, u, w);
                list.add(u, v, w + 1);
            }
        }
        for (int h = 0; hubs && h < 3; h++) for (int i = 0; i < 1_500; i++) list.add(h, r.nextInt(live), r.nextInt(1, 50) / 3.0);
        return GraphBuilder.build(list);
    }

    static CsrGraph read(Path file) {
        try {
            return GraphFiles.read(file).toCsr();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Vertex 0, the vertex of the largest degree, an isolated or low one, and a seeded random one. */
    static int[] sources(CsrGraph g) {
        int n = g.vertexCount(), hub = 0;
        for (int v = 0; v < n; v++) if (g.degree(v) > g.degree(hub)) hub = v;
        return new int[] {0, hub, n - 1, new SplittableRandom(n).nextInt(n)};
    }

    private static void assertOk(Verification v, String what) {
        assertTrue(v.ok(), what + ": " + v.message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theWideCopyHoldsTheSameArcsAndCountsItsOffsets(Case c) {
        CsrGraph g = c.graph().get();
        CsrGraph w = g.widen(c.pageArcs());
        try (ResidentGraph narrow = gpu.load(g); ResidentGraph wide = gpu.load(w)) {
            CsrArrays a = ((GpuResidentGraph) wide).deviceArrays();
            assertArrayEquals(g.rowOffsets(), a.rowOffsets(), "row offsets");
            assertArrayEquals(g.columns(), a.columns(), "columns");
            assertArrayEquals(g.weights(), a.weights(), "weights");
            long offsets = 4L * (g.vertexCount() + 1);
            assertEquals(offsets, DeviceCsr.bytesFor(w) - DeviceCsr.bytesFor(g), "8-byte offsets in the estimate");
            long more = wide.residentBytes() - narrow.residentBytes(), big = 0;
            for (int v = 0; v < g.vertexCount(); v++) if (g.degree(v) >= DeviceCsr.BLOCK_EXPAND_DEGREE) big++;
            // beside the offsets, near-far's list of big vertices holds 8-byte arc offsets too (an even count of them)
            assertTrue(more >= offsets && more <= offsets + 4 * big + 24, "the ledger counts the 8-byte offsets: " + more);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void bfsAnswersAsTheNarrowGraph(Case c) {
        CsrGraph g = c.graph().get();
        try (ResidentGraph narrow = gpu.load(g); ResidentGraph wide = gpu.load(g.widen(c.pageArcs()))) {
            for (int s : sources(g)) {
                BfsResult expected = Bfs.run(narrow, s, null);
                assertOk(BfsVerifier.verify(g, s, expected), "narrow BFS from " + s);
                for (String variant : new String[] {null, "persistent", "hostloop", "persistent,small=0", "persistent,check=1"}) {
                    BfsResult r = Bfs.run(wide, s, variant);
                    assertOk(BfsVerifier.verify(g, s, r), "wide BFS " + variant + " from " + s);
                    assertArrayEquals(expected.hops(), r.hops(), "wide BFS " + variant + " from " + s);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ssspAnswersAsTheNarrowGraph(Case c) {
        CsrGraph g = c.graph().get();
        try (ResidentGraph narrow = gpu.load(g); ResidentGraph wide = gpu.load(g.widen(c.pageArcs()))) {
            for (int s : sources(g)) {
                SsspResult expected = Sssp.run(narrow, s, null);
                assertOk(SsspVerifier.verify(g, s, expected), "narrow SSSP from " + s);
                for (String variant : new String[] {null, "nearfar", "nearfar,small=0", "nearfar,df=1,bps=2"}) {
                    SsspResult r = Sssp.run(wide, s, variant);
                    assertOk(SsspVerifier.verify(g, s, r), "wide SSSP " + variant + " from " + s);
                    assertArrayEquals(expected.distances(), r.distances(), "wide SSSP " + variant + " from " + s);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void summariesAndTargetsAnswerAsTheNarrowGraph(Case c) {
        CsrGraph g = c.graph().get();
        int[] s = sources(g);
        int[] batch = {s[0], s[1], s[0], s[2], s[3]};
        int[] targets = {s[3], s[2], 0, g.vertexCount() / 2};
        try (ResidentGraph narrow = gpu.load(g); ResidentGraph wide = gpu.load(g.widen(c.pageArcs()))) {
            for (int[] sources : new int[][] {{s[1]}, batch}) {
                BfsSummaries bn = narrow.run(Bfs.SUMMARIES, new Sources(sources), null);
                BfsSummaries bw = wide.run(Bfs.SUMMARIES, new Sources(sources), null);
                assertArrayEquals(bn.reached(), bw.reached(), "BFS summaries: reached");
                assertArrayEquals(bn.maxHops(), bw.maxHops(), "BFS summaries: largest hop count");
                SsspSummaries sn = narrow.run(Sssp.SUMMARIES, new Sources(sources), null);
                SsspSummaries sw = wide.run(Sssp.SUMMARIES, new Sources(sources), null);
                assertArrayEquals(sn.reached(), sw.reached(), "SSSP summaries: reached");
                assertArrayEquals(sn.maxDistances(), sw.maxDistances(), "SSSP summaries: largest distance");
                for (int i = 0; i < sources.length; i++) {   // against the full answers, on the narrow graph
                    int[] hops = Bfs.run(narrow, sources[i], null).hops();
                    assertEquals(Arrays.stream(hops).filter(h -> h >= 0).count(), bw.reached()[i], "BFS reached from " + sources[i]);
                    assertEquals(Arrays.stream(hops).max().orElse(0), bw.maxHops()[i], "BFS levels from " + sources[i]);
                }
            }
            BfsAtTargets tb = wide.run(Bfs.AT_TARGETS, new Targets(s[1], targets), null);
            BfsResult fb = Bfs.run(narrow, s[1], null);
            SsspAtTargets ts = wide.run(Sssp.AT_TARGETS, new Targets(s[1], targets), null);
            SsspResult fs = Sssp.run(narrow, s[1], null);
            for (int i = 0; i < targets.length; i++) {
                assertEquals(fb.hops()[targets[i]], tb.hops()[i], "BFS at target " + targets[i]);
                assertEquals(fs.distances()[targets[i]], ts.distances()[i], "SSSP at target " + targets[i]);
                int p = ts.parents()[i], t = targets[i];
                assertTrue(t == s[1] ? p == t : p < 0 ? fs.distances()[t] == Double.POSITIVE_INFINITY
                        : g.findArc(p, t) >= 0 && fs.distances()[p] + g.weights()[g.findArc(p, t)] == fs.distances()[t],
                        "SSSP parent " + p + " of target " + t + " is tight");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ccAnswersAsTheNarrowGraph(Case c) {
        CsrGraph g = c.graph().get();
        try (ResidentGraph narrow = gpu.load(g); ResidentGraph wide = gpu.load(g.widen(c.pageArcs()))) {
            CcResult n = Cc.run(narrow, null), w = Cc.run(wide, null);
            assertArrayEquals(n.labels(), w.labels(), "component labels");
            CcSummary sw = wide.run(Cc.SUMMARY, WholeGraph.QUERY, null);
            assertEquals(n.components(), sw.components(), "components");
            assertEquals(n.largest(), sw.largest(), "largest component");
            int[] at = {0, g.vertexCount() - 1, g.vertexCount() / 3};
            CcAtTargets t = wide.run(Cc.AT_TARGETS, new CcAtTargets.Query(at), null);
            for (int i = 0; i < at.length; i++) assertEquals(n.labels()[at[i]], t.labels()[i], "label of " + at[i]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void mstAnswersAsTheNarrowGraph(Case c) {
        CsrGraph g = c.graph().get();
        CsrGraph w = g.widen(c.pageArcs());
        assumeTrue(hostListsWideEdges(w), "the host's wide CsrGraph has no undirectedEdges() yet (issue 29 item 2, host side)");
        try (ResidentGraph narrow = gpu.load(g); ResidentGraph wide = gpu.load(w)) {
            MstResult expected = Mst.run(narrow, null);
            assertOk(MstVerifier.verify(g, expected), "narrow MST");
            int[] ids = expected.edgeIds().clone();
            Arrays.sort(ids);
            for (String variant : new String[] {null, "ecl", "boruvka"}) {
                MstResult r = Mst.run(wide, variant);
                assertOk(MstVerifier.verify(g, r), "wide MST " + variant);
                int[] got = r.edgeIds().clone();
                Arrays.sort(got);
                assertArrayEquals(ids, got, "wide MST " + variant + ": the unique forest's edges");
                assertEquals(expected.totalWeight(), r.totalWeight(), "wide MST " + variant + ": weight");
            }
            MstSummary s = wide.run(Mst.SUMMARY, WholeGraph.QUERY, null);
            assertEquals(expected.totalWeight(), s.totalWeight(), "MST summary: weight");
            assertEquals(ids.length, s.edges(), "MST summary: edges");
            assertEquals(expected.components(), s.components(), "MST summary: components");
        }
    }

    private static boolean hostListsWideEdges(CsrGraph w) {
        try {
            return w.undirectedEdges().size() >= 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Re-weights scattered into a wide copy by 64-bit arc index, in int32 form and into float64 form. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reweightsOfAWideCopyAreScatteredByLongArcIndex(Case c) {
        CsrGraph g = c.graph().get();
        CsrGraph before = g.widen(c.pageArcs());
        MutableGraph m = new MutableGraph(g);
        SplittableRandom r = new SplittableRandom(41);
        int k = Math.min(64, g.edgeCount());
        int[] u = new int[k], v = new int[k];
        double[] w = new double[k];
        for (int i = 0; i < k; i++) {
            int a = r.nextInt(g.arcCount());
            u[i] = g.sourceOf(a);
            v[i] = g.columns()[a];
            w[i] = g.integralWeights() ? r.nextInt(1, 500) : r.nextInt(1, 500) / 3.0;
        }
        m.apply(EdgeEdits.reweight(u, v, w), 0, Long.MAX_VALUE);
        CsrGraph after = m.current();
        CsrGraph wideAfter = after.widen(c.pageArcs());
        long[] changed = changedArcs(before, wideAfter);
        CudaContext context = gpu.context();
        context.run(() -> {
            try (DeviceCsr csr = new DeviceCsr(context, new AtomicLong(), before)) {
                csr.patchWeights(wideAfter, changed);
                assertArrayEquals(after.weights(), CsrArrays.of(csr).weights(), "weights after the scatter");
                int a = g.arcCount() / 2;
                m.apply(EdgeEdits.reweight(g.sourceOf(a), g.columns()[a], 0.25), 0, Long.MAX_VALUE);   // float64 form now
                CsrGraph fractional = m.current().widen(c.pageArcs());
                csr.patchWeights(fractional, changedArcs(wideAfter, fractional));
                assertArrayEquals(m.current().weights(), CsrArrays.of(csr).weights(), "weights after a fractional one");
                assertTrue(!csr.intWeights(), "float64 form after a fractional weight");
            }
        });
    }

    /** Arcs whose weight differs between two wide graphs of the same arcs. */
    private static long[] changedArcs(CsrGraph a, CsrGraph b) {
        List<Long> out = new ArrayList<>();
        for (long e = 0; e < a.arcs(); e++) if (a.weightAt(e) != b.weightAt(e)) out.add(e);
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** Re-weights through the engine on a resident wide graph, then queries (the host's MutableGraph re-weights it). */
    @Test
    void aResidentWideGraphFollowsReweightsAndAnswers() {
        CsrGraph g = messy(3_000, 30_000, 51, false, false);
        CsrGraph w = g.widen(7);
        MutableGraph probe = new MutableGraph(g.widen(7));
        assumeTrue(hostReweightsWide(probe), "the host's MutableGraph does not re-weight a wide graph yet (issue 29 item 2)");
        MutableGraph reference = new MutableGraph(g);
        int[] u = {1, 2, 3, 4}, v = new int[4];
        for (int i = 0; i < 4; i++) v[i] = g.columns()[g.rowStart(u[i])];
        double[] wt = {7, 1, 900, 3};
        try (ResidentGraph wide = gpu.load(w)) {
            wide.mutable().apply(EdgeEdits.reweight(u, v, wt), 0, Long.MAX_VALUE);
            reference.apply(EdgeEdits.reweight(u, v, wt), 0, Long.MAX_VALUE);
            CsrGraph now = reference.current();
            for (int s : sources(now)) {
                SsspResult r = Sssp.run(wide, s, null);
                assertOk(SsspVerifier.verify(now, s, r), "SSSP after re-weights from " + s);
                assertOk(BfsVerifier.verify(now, s, Bfs.run(wide, s, null)), "BFS after re-weights from " + s);
            }
            assertArrayEquals(now.weights(), ((GpuResidentGraph) wide).deviceArrays().weights(), "device weights");
        }
    }

    private static boolean hostReweightsWide(MutableGraph m) {
        try {
            CsrGraph g = m.current();
            long[] off = g.rowOffsetsLong();
            int u = 0;
            while (off[u + 1] == off[u]) u++;
            m.apply(EdgeEdits.reweight(u, g.pages().columns()[0][(int) off[u]], 5), 0, Long.MAX_VALUE);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Test
    void theVariantsThatRead32BitOffsetsRefuseAWideGraphAndAreNotItsDefault() {
        CsrGraph g = messy(2_000, 12_000, 61, false, false);
        try (ResidentGraph wide = gpu.load(g.widen(7))) {
            for (String variant : new String[] {"harish"}) {
                UnsupportedVariantException e = assertThrows(UnsupportedVariantException.class, () -> Bfs.run(wide, 0, variant));
                assertTrue(e.getMessage().contains("stored wide"), e.getMessage());
            }
            for (String variant : new String[] {"async", "harish", "da2cf-f"}) {
                assertThrows(UnsupportedVariantException.class, () -> Sssp.run(wide, 0, variant), variant);
            }
            assertThrows(UnsupportedVariantException.class, () -> Mst.run(wide, "prim-gmr"));
            CsrGraph w = g.widen(7);
            assertEquals("nearfar", Sssp.SPEC.choose(GpuBackend.NAME, null, w).variant().name(), "SSSP default on a wide graph");
            assertEquals("persistent", Bfs.SPEC.choose(GpuBackend.NAME, null, w).variant().name(), "BFS default on a wide graph");
            SsspResult r = Sssp.run(wide, 0, null);   // still answers, on the converted default
            assertOk(SsspVerifier.verify(g, 0, r), "default SSSP on the wide graph");
        }
    }
}
