package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.frontiergraph.kernels.apsp.Apsp;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.apsp.ApspVerifier;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsSummaries;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.mst.MstSummary;
import org.frontiergraph.kernels.mst.MstVerifier;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspSummaries;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Structural updates applied on the device (issue 8): an undirected graph's device copy goes to the slack form on
 * its first structural catch-up and takes every later batch as edits (removals pad a slot and close the row's gap,
 * additions take free slots, a full row makes the rows laid out again). After every batch the device's live arcs,
 * row by row, are the host's rebuilt graph's (GraphEdit, the reference), and every BFS and SSSP variant run on the
 * slack form answers as the CPU references do on the rebuilt graph. MST queries in between (both GPU variants, and
 * SUMMARY) run beside the slack copy without making it compact: their edge lists follow the host's merges and
 * re-weights on the device, and their answers equal Kruskal's edge for edge.
 */
@Tag("gpu")
class SlackEditsGpuTest extends GpuTests {
    /** async both ways on a slack copy: rows bounded by their live counts, and pads read (GpuSettings.ssspLiveBound). */
    private static final String[] SSSP_VARIANTS =
            {null, "nearfar", "async,bound=1", "async,bound=0", "harish", "da2cf-f", "da2cf-u"};
    private static final String[] BFS_VARIANTS = {null, "hostloop", "harish"};

    @Test
    void randomStreamsOnAGraphOfSmallRows() {
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(3_000, 9_000, 61, 30, false));
        follow(start, new Random(62), 30, 40, false);
    }

    /**
     * Integer weights throughout: MST's edge lists (both GPU variants) are carried through each host merge and
     * patched by the re-weights on the device, beside the slack copy, and still answer edge for edge as Kruskal.
     */
    @Test
    void mstEdgeListsFollowAStreamOfIntegerWeights() {
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(3_000, 9_000, 69, 30, false));
        follow(start, new Random(70), 25, 40, true);
    }

    /**
     * A directed graph: arcs change one at a time; da2cf's relax_U reads a transpose built on the device from the slack
     * copy's live arcs, and the copy stays in slack form.
     */
    @Test
    void randomStreamsOnADirectedGraph() {
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(3_000, 12_000, 67, 30, true));
        follow(start, new Random(68), 24, 40, false);
        try (ResidentGraph dev = gpu.load(start)) {
            GpuResidentGraph g = (GpuResidentGraph) dev;
            dev.mutable().apply(EdgeEdits.add(new int[] {1}, new int[] {2_999}, new double[] {3}), 0, Long.MAX_VALUE);
            CsrGraph now = dev.graph();
            assertSameRows(now, g.deviceArrays(), "one added arc");
            assertTrue(g.slackOnDevice(), "applied as a device edit");
            for (String variant : new String[] {"da2cf-f", "da2cf-u", "da2cf-u-plus"}) {
                SsspResult r = Sssp.run(dev, 1, variant);
                assertArrayEquals(DijkstraReference.run(now, 1).distances(), r.distances(), variant + " on the slack copy");
            }
            dev.mutable().apply(EdgeEdits.add(new int[] {2_999}, new int[] {5}, new double[] {1}), 0, Long.MAX_VALUE);
            now = dev.graph();
            SsspResult r = Sssp.run(dev, 1, "da2cf-u");
            assertArrayEquals(DijkstraReference.run(now, 1).distances(), r.distances(), "da2cf-u after one more edit");
            assertTrue(SsspVerifier.verify(now, 1, r, DijkstraReference.run(now, 1)).ok(), "da2cf-u parents");
            assertTrue(g.slackOnDevice(), "da2cf kept the copy in slack form on a directed graph");
        }
    }

    /** Hubs of more than a thousand arcs (block-expanded, edge-balanced lists) and rows of every size between. */
    @Test
    void randomStreamsOnAGraphWithHubs() {
        CsrGraph start = GraphBuilder.build(KroneckerGraph.generate(13, 16, 63));
        assertTrue(start.maxDegree() >= DeviceCsr.BLOCK_EXPAND_DEGREE, "hubs: " + start.maxDegree());
        follow(start, new Random(64), 16, 400, true);
    }

    /** Many additions at one vertex: its row overflows again and again, and the rows are laid out anew each time. */
    @Test
    void aRowThatKeepsGrowing() {
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(2_000, 4_000, 65, 20, false));
        try (ResidentGraph dev = gpu.load(start)) {
            GpuResidentGraph g = (GpuResidentGraph) dev;
            CsrGraph reference = start;
            Random rnd = new Random(66);
            for (int batch = 0; batch < 12; batch++) {
                int count = 20 + 40 * batch;
                int[] au = new int[count], av = new int[count];
                double[] aw = new double[count];
                for (int i = 0; i < count; i++) {
                    au[i] = 7;
                    av[i] = rnd.nextInt(reference.vertexCount());
                    aw[i] = 1 + rnd.nextInt(30);
                }
                EdgeEdits e = EdgeEdits.add(au, av, aw);
                dev.mutable().apply(e, 0, Long.MAX_VALUE);
                reference = GraphEdit.apply(reference, e.removeU(), e.removeV(), e.reweightU(), e.reweightV(),
                        e.reweightW(), e.addU(), e.addV(), e.addW());
                assertSameRows(reference, g.deviceArrays(), "batch " + batch);
                check(dev, reference, rnd.nextInt(reference.vertexCount()), "batch " + batch);
                check(dev, reference, 7, "batch " + batch);
            }
            assertEquals(12, g.deviceEdits(), "every batch applied on the device");
            assertTrue(g.slackOnDevice());
        }
    }

    /** {@code integral}: every new weight rounded to an integer (MST's edge lists are then moved, not packed again). */
    private static void follow(CsrGraph start, Random rnd, int runs, int maxUpdates, boolean integral) {
        try (ResidentGraph dev = gpu.load(start)) {
            GpuResidentGraph g = (GpuResidentGraph) dev;
            CsrGraph reference = start;
            int edits = 0, mstAt = 0, carriedBefore = g.carried();
            for (int run = 0; run < runs; run++) {
                boolean grow = run % 7 == 6;   // new vertices: the host's path, then edits again
                int updates = 1 + rnd.nextInt(maxUpdates);
                int editsBefore = g.deviceEdits();
                for (int i = 0; i < updates; i++) {
                    EdgeEdits e = positive(UpdateStreams.randomUpdate(rnd, reference, true), grow && i == 0, integral);
                    reference = UpdateStreams.applyBoth(dev.mutable(), reference, e, "run " + run);
                }
                String what = "run " + run;
                assertSameRows(reference, g.deviceArrays(), what);
                if (g.deviceEdits() > editsBefore) edits++;
                int n = reference.vertexCount();
                for (int s : new int[] {0, rnd.nextInt(n)}) check(dev, reference, s, what);
                int[] sources = rnd.ints(70, 0, n).toArray();
                BfsSummaries bs = dev.run(Bfs.SUMMARIES, new Sources(sources), null);
                int[] ssspSources = Arrays.copyOf(sources, 40);
                SsspSummaries ss = dev.run(Sssp.SUMMARIES, new Sources(ssspSources), null);
                final CsrGraph now = reference;
                BfsSummaries bExpected = BfsSummaries.of(Arrays.stream(sources).mapToObj(s -> BfsReference.run(now, s)).toArray(BfsResult[]::new));
                SsspSummaries sExpected = SsspSummaries.of(Arrays.stream(ssspSources).mapToObj(s -> DijkstraReference.run(now, s)).toArray(SsspResult[]::new));
                assertArrayEquals(bExpected.reached(), bs.reached(), "bfs summaries reached, " + what);
                assertArrayEquals(bExpected.maxHops(), bs.maxHops(), "bfs summaries depth, " + what);
                assertArrayEquals(sExpected.reached(), ss.reached(), "sssp summaries reached, " + what);
                assertArrayEquals(sExpected.maxDistances(), ss.maxDistances(), "sssp summaries max, " + what);
                if (run % 5 == 4 || run % 5 == 2) {   // MST beside the slack copy: its edge lists follow the host
                    boolean slack = g.slackOnDevice();
                    int reloads = g.reloads();
                    MstResult expected = KruskalReference.run(reference);
                    String[] variants = run % 10 == 4 ? new String[] {null, "boruvka", "ecl", "prim-gmr", "prim-naive"}
                            : new String[] {null, "boruvka", "ecl"};   // Prim (n launch-bound steps) now and then
                    for (String variant : variants) {
                        MstResult m = Mst.run(dev, variant);
                        assertTrue(MstVerifier.verify(reference, m, expected).ok(), "mst " + variant + ", " + what);
                        assertArrayEquals(expected.edgeIds(), m.edgeIds(), "mst " + variant + ", " + what);
                    }
                    if (run % 10 == 4) {   // APSP on its own copy of the host's arrays, beside the slack copy
                        for (String variant : new String[] {"repeated-sssp", "floyd-warshall,blocked=1"}) {
                            ApspResult a = Apsp.run(dev, variant, ApspLimits.defaults());
                            assertTrue(ApspVerifier.verify(reference, a).ok(), "apsp " + variant + ", " + what);
                        }
                    }
                    MstSummary sum = dev.run(Mst.SUMMARY, WholeGraph.QUERY, null);
                    assertEquals(expected.totalWeight(), sum.totalWeight(), "mst summary weight, " + what);
                    assertEquals(expected.edgeIds().length, sum.edges(), "mst summary edges, " + what);
                    assertEquals(slack, g.slackOnDevice(), "an MST or APSP query leaves the copy's form as it was, " + what);
                    assertEquals(reloads, g.reloads(), "an MST or APSP query reloads nothing, " + what);
                    mstAt++;
                }
            }
            assertTrue(edits >= runs / 2, "runs applied as device edits: " + edits + " of " + runs);
            assertTrue(mstAt > 0);
            if (integral && !start.directed()) {   // else the lists are packed again (rank keys; no edge moves)
                assertTrue(g.carried() > carriedBefore, "MST edge lists moved on the device with the host's merges");
            }
        }
    }

    private static void check(ResidentGraph dev, CsrGraph reference, int s, String what) {
        SsspResult expected = DijkstraReference.run(reference, s);
        for (String variant : SSSP_VARIANTS) {
            if (variant != null && variant.startsWith("da2cf") && reference.vertexCount() > 4_000) continue;
            SsspResult r = Sssp.run(dev, s, variant);
            assertArrayEquals(expected.distances(), r.distances(), "sssp " + variant + ", source " + s + ", " + what);
            assertTrue(SsspVerifier.verify(reference, s, r, expected).ok(), "sssp " + variant + ", " + what);
        }
        BfsResult bfsExpected = BfsReference.run(reference, s);
        for (String variant : BFS_VARIANTS) {
            BfsResult b = Bfs.run(dev, s, variant);
            assertArrayEquals(bfsExpected.hops(), b.hops(), "bfs " + variant + ", source " + s + ", " + what);
            assertTrue(BfsVerifier.verify(reference, s, b, bfsExpected).ok(), "bfs " + variant + ", " + what);
        }
    }

    /**
     * The update with every weight at least 1 (zero weights send SSSP parents to the host's arrays, so such a batch
     * takes the host's path; covered by DeviceUpdatesGpuTest), and with new vertices only when {@code grow}.
     */
    /** 0 becomes 1; with {@code integral}, a valid weight is rounded (to at least 1); invalid ones stay invalid. */
    private static double positive(double w, boolean integral) {
        if (w == 0) return 1;
        return integral && w > 0 && Double.isFinite(w) ? Math.max(1, Math.rint(w)) : w;
    }

    private static EdgeEdits positive(EdgeEdits e, boolean grow, boolean integral) {
        double[] rw = e.reweightW().clone(), aw = e.addW().clone();
        for (int i = 0; i < rw.length; i++) rw[i] = positive(rw[i], integral);
        for (int i = 0; i < aw.length; i++) aw[i] = positive(aw[i], integral);
        int added = grow ? Math.max(1, e.addedVertices()) : 0;
        if (!grow && e.addedVertices() > 0) {
            return new EdgeEdits(0, e.removeU(), e.removeV(), e.reweightU(), e.reweightV(), rw, new int[0], new int[0], new double[0]);
        }
        return new EdgeEdits(added, e.removeU(), e.removeV(), e.reweightU(), e.reweightV(), rw, e.addU(), e.addV(), aw);
    }

    /** The device's live arcs equal the reference's, row by row (as sets of (column, weight): the order may differ). */
    private static void assertSameRows(CsrGraph reference, CsrArrays device, String what) {
        int n = reference.vertexCount();
        assertEquals(n + 1, device.rowOffsets().length, "rows, " + what);
        int[] off = reference.rowOffsets(), col = reference.columns();
        double[] w = reference.weights();
        for (int u = 0; u < n; u++) {
            int d = device.rowOffsets()[u + 1] - device.rowOffsets()[u];
            assertEquals(off[u + 1] - off[u], d, "degree of " + u + ", " + what);
            long[] a = new long[d], b = new long[d];
            for (int i = 0; i < d; i++) {
                a[i] = key(col[off[u] + i], w[off[u] + i]);
                int k = device.rowOffsets()[u] + i;
                b[i] = key(device.columns()[k], device.weights()[k]);
            }
            Arrays.sort(a);
            Arrays.sort(b);
            assertArrayEquals(a, b, "row " + u + ", " + what);
        }
    }

    private static long key(int column, double weight) {
        return ((long) column << 32) ^ Double.doubleToLongBits(weight);
    }
}
