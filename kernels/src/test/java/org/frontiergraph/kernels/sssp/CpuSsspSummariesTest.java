package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.junit.jupiter.api.Test;

/**
 * {@link CpuSsspSummaries} against {@link DijkstraReference}'s summaries, source by source, on the cases its bucket
 * search has to get right: weights of 0 (an arc into the bucket being emptied), weight bounds on either side of a
 * power of two (the ring's size), unreached vertices and sources without arcs, one thread's scratch reused over
 * thousands of searches on graphs of other sizes (the tagged distances of older searches must read as unreached), the
 * graphs it leaves to {@link CpuSssp} (fractional weights, a bound over {@link CpuSsspSummaries#MAX_BUCKET_WEIGHT}),
 * and a {@link MutableGraph} whose re-weights and added edges raise the weight bound the ring is sized by.
 */
class CpuSsspSummariesTest {
    private static final long SEED = 31;

    @Test
    void bucketSearchEqualsTheReference() {
        SplittableRandom r = new SplittableRandom(SEED);
        int[] bounds = {0, 1, 2, 63, 64, 65, 127, 128, 1_000, 65_536, (int) CpuSsspSummaries.MAX_BUCKET_WEIGHT};
        for (int round = 0; round < 3; round++) {
            for (int bound : bounds) {
                for (boolean directed : new boolean[] {true, false}) {
                    int n = 50 + r.nextInt(3_000);
                    CsrGraph g = graph(r, n, n + r.nextInt(3 * n), bound, directed, false);
                    assertTrue(CpuSsspSummaries.bucketsFit(g), "bound " + bound + " takes the bucket search");
                    assertSummaries("bound " + bound + (directed ? " directed" : " undirected") + " n=" + n + " seed=" + SEED, g, 40, r);
                }
            }
        }
    }

    @Test
    void manySearchesOnOneScratch() {
        SplittableRandom r = new SplittableRandom(SEED + 1);
        CsrGraph small = graph(r, 300, 900, 9, true, false), large = graph(r, 2_000, 5_000, 9, true, false);
        for (int i = 0; i < 2_000; i++) {   // one thread's scratch: sizes alternate, tags count down
            CsrGraph g = i % 3 == 0 ? large : small;
            assertSummaries("search " + i + " seed=" + (SEED + 1), g, 1, r);
        }
    }

    @Test
    void otherGraphsTakeTheHeapSearch() {
        SplittableRandom r = new SplittableRandom(SEED + 2);
        CsrGraph fractional = graph(r, 1_000, 3_000, 50, true, true);
        assertFalse(CpuSsspSummaries.bucketsFit(fractional));
        assertSummaries("fractional weights", fractional, 20, r);
        CsrGraph heavy = graph(r, 1_000, 3_000, 5_000_000, false, false);
        assertFalse(CpuSsspSummaries.bucketsFit(heavy));
        assertSummaries("weights up to 5,000,000", heavy, 20, r);
    }

    @Test
    void updatesRaiseTheWeightBound() {
        SplittableRandom r = new SplittableRandom(SEED + 3);
        for (boolean directed : new boolean[] {true, false}) {
            CsrGraph g0 = graph(r, 1_500, 4_000, 20, directed, false);
            MutableGraph m = new MutableGraph(g0);
            assertEquals(20, m.current().weightBound(), 0.0, "the bound before any update: the largest weight");
            for (int step = 0; step < 60; step++) {
                CsrGraph g = m.current();
                int u = r.nextInt(g.vertexCount());
                if (g.degree(u) > 0 && step % 3 != 2) {   // re-weight an existing arc, now and then above the bound
                    int a = g.rowStart(u) + r.nextInt(g.degree(u));
                    int v = g.columns()[a];
                    double w = step % 2 == 0 ? g.weightBound() + 1 + r.nextInt(300) : r.nextInt(5);
                    m.apply(EdgeEdits.reweight(u, v, w), 0, Long.MAX_VALUE);
                } else {   // add an edge (merged before the next read) heavier than every weight so far
                    int v = r.nextInt(g.vertexCount());
                    double w = g.weightBound() + 1 + r.nextInt(300);
                    m.apply(EdgeEdits.add(new int[] {u}, new int[] {v}, new double[] {w}), 0, Long.MAX_VALUE);
                }
                CsrGraph now = m.current();
                double max = 0;
                for (double w : now.weights()) max = Math.max(max, w);
                assertTrue(now.weightBound() >= max, "step " + step + ": bound " + now.weightBound() + " below weight " + max);
                assertSummaries("after update " + step + (directed ? " directed" : " undirected") + " seed=" + (SEED + 3), now, 3, r);
            }
        }
    }

    /** A seeded random graph of n vertices and about m edges, weights 0..bound (the bound itself among them). */
    private static CsrGraph graph(SplittableRandom r, int n, int m, int bound, boolean directed, boolean fractional) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < m; i++) {
            int u = r.nextInt(n), v = r.nextInt(n);
            double w = i == 0 ? bound : r.nextInt(bound + 1);
            if (fractional) w += 0.25 + r.nextDouble() / 2;
            e.add(u, v, w);
        }
        return GraphBuilder.build(e);
    }

    private static void assertSummaries(String name, CsrGraph g, int count, SplittableRandom r) {
        int[] sources = new int[count];
        for (int i = 0; i < count; i++) sources[i] = r.nextInt(g.vertexCount());
        SsspSummaries got = CpuSsspSummaries.run(g, sources);
        for (int i = 0; i < count; i++) {
            double[] want = SsspSummaries.summarize(DijkstraReference.run(g, sources[i]).distances());
            String where = name + ", source " + sources[i];
            assertEquals((long) want[0], got.reached()[i], where + ": reached");
            assertEquals(want[1], got.maxDistances()[i], 0.0, where + ": largest distance (exact)");
        }
    }
}
