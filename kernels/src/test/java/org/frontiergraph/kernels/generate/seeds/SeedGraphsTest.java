package org.frontiergraph.kernels.generate.seeds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongFunction;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.junit.jupiter.api.Test;

/**
 * The seed papers' graphs: the same arrays for a seed on any thread count, other arrays for another seed, and the
 * structure each paper states. Every check names its seed.
 */
class SeedGraphsTest {
    private static final long SEED = 20240611L;

    // ------------------------------------------------------------------ determinism (sizes span several blocks)

    @Test
    void gtgraphIsDeterministicAndSeeded() {
        assertDeterministic(s -> GtGraphRandom.generate(100_000, 200_000, s));
    }

    @Test
    void harishRandomIsDeterministicAndSeeded() {
        assertDeterministic(s -> HarishRandom.generate(100_000, s));
    }

    @Test
    void harishScaleFreeIsDeterministicAndSeeded() {
        assertDeterministic(s -> HarishScaleFree.generate(100_000, s));
    }

    @Test
    void martinIsDeterministicAndSeeded() {
        assertDeterministic(s -> MartinFixedDegree.generate(50_000, s));
    }

    @Test
    void martinDenseIsDeterministicAndSeeded() {
        // degree 400: the mark-array path of the predecessor sampling
        assertDeterministic(s -> MartinDense.generate(2_000, s));
    }

    // ------------------------------------------------------------------ paper 000

    @Test
    void gtgraphIsAConnectedSimpleUndirectedGraphWithTwiceAsManyEdges() {
        for (int exp = 7; exp <= 14; exp++) {
            int n = 1 << exp;
            EdgeList e = GtGraphRandom.generate(n, 2L * n, SEED + exp);
            assertFalse(e.directed());
            assertEquals(n, e.vertexCount());
            assertEquals(2 * n, e.size(), "seed " + (SEED + exp));
            assertWeights(e, 1, 1000, "gtgraph n=" + n + " seed " + (SEED + exp));
            CsrGraph g = GraphBuilder.build(e);
            assertEquals(2 * n, g.edgeCount(), "no self-loops or repeats, seed " + (SEED + exp));
            assertEquals(n, reached(g), "connected, seed " + (SEED + exp));
        }
    }

    @Test
    void gtgraphRedrawsRepeatsEvenWhenDense() {
        // 2000 of 4950 pairs: many repeats to redraw
        CsrGraph g = GraphBuilder.build(GtGraphRandom.generate(100, 2_000, SEED));
        assertEquals(2_000, g.edgeCount(), "seed " + SEED);
        CsrGraph plain = GraphBuilder.build(GtGraphRandom.generate(100, 2_000, SEED, false));
        assertEquals(2_000, plain.edgeCount(), "seed " + SEED);
        assertThrows(IllegalArgumentException.class, () -> GtGraphRandom.generate(100, 98, SEED));
        assertThrows(IllegalArgumentException.class, () -> GtGraphRandom.generate(100, 4_951, SEED, false));
    }

    // ------------------------------------------------------------------ paper 004

    @Test
    void harishRandomHasAverageDegreeSixAndWeightsOneToTen() {
        int n = 50_000;
        EdgeList e = HarishRandom.generate(n, SEED);
        assertFalse(e.directed());
        assertWeights(e, 1, 10, "harish-random seed " + SEED);
        CsrGraph g = GraphBuilder.build(e);
        assertEquals(3L * n, g.edgeCount(), "seed " + SEED);
        assertEquals(6L * n, g.arcCount(), "average degree exactly 6, seed " + SEED);
        int max = 0;
        for (int v = 0; v < n; v++) max = Math.max(max, g.degree(v));
        assertTrue(max < 30, "Poisson-like degrees, max " + max + ", seed " + SEED);
        assertEquals(8L * 1000 / 2, GraphBuilder.build(HarishRandom.generate(1000, 8, SEED)).edgeCount());
    }

    @Test
    void harishScaleFreeHasOneHubPerThousandVerticesOfDegreeAtMostThousand() {
        int n = 100_000;
        EdgeList e = HarishScaleFree.generate(n, SEED);
        assertFalse(e.directed());
        assertWeights(e, 1, 10, "harish-scalefree seed " + SEED);
        CsrGraph g = GraphBuilder.build(e);
        assertEquals(3L * n, g.edgeCount(), "average degree exactly 6, seed " + SEED);
        int high = 0, max = 0, maxLow = 0;
        for (int v = 0; v < n; v++) {
            int d = g.degree(v);
            max = Math.max(max, d);
            if (d >= HarishScaleFree.MAX_DEGREE / 2) high++; else maxLow = Math.max(maxLow, d);
        }
        assertEquals(100, HarishScaleFree.hubCount(n));
        assertEquals(100, high, "0.1% hubs, seed " + SEED);
        assertTrue(max <= 1000, "max degree " + max + ", seed " + SEED);
        assertTrue(maxLow < 40, "low vertices stay low: " + maxLow + ", seed " + SEED);
        // the hubs are spread over the ids, not the first ones
        int hubsBelowTenth = 0;
        for (int v = 0; v < n / 10; v++) if (g.degree(v) >= 500) hubsBelowTenth++;
        assertTrue(hubsBelowTenth < 50, "seed " + SEED + ": " + hubsBelowTenth + " hubs among the first tenth");
        assertEquals(1, HarishScaleFree.hubCount(1000));
        assertThrows(IllegalArgumentException.class, () -> HarishScaleFree.generate(999, SEED));
    }

    // ------------------------------------------------------------------ paper 003

    @Test
    void martinGivesEveryVertexExactlySevenPredecessors() {
        int n = 30_000;
        EdgeList e = MartinFixedDegree.generate(n, SEED);
        assertTrue(e.directed());
        assertEquals(7L * n, e.size());
        assertWeights(e, 1, 10, "martin seed " + SEED);
        CsrGraph g = GraphBuilder.build(e);
        assertEquals(7L * n, g.edgeCount(), "no self-loops or repeats, seed " + SEED);
        CsrGraph predecessors = g.transpose();
        boolean outDegreesVary = false;
        for (int v = 0; v < n; v++) {
            assertEquals(7, predecessors.degree(v), "in-degree of " + v + ", seed " + SEED);
            outDegreesVary |= g.degree(v) != 7;
        }
        assertTrue(outDegreesVary, "out-degree is not kept (003), seed " + SEED);
        assertThrows(IllegalArgumentException.class, () -> MartinFixedDegree.generate(7, 7, SEED));
        // degree n - 1: the complete digraph
        assertEquals(20L * 19, GraphBuilder.build(MartinFixedDegree.generate(20, 19, SEED)).edgeCount());
    }

    @Test
    void martinDenseHasInDegreeNOverFive() {
        int n = 1_500;
        CsrGraph g = GraphBuilder.build(MartinDense.generate(n, SEED));
        assertTrue(g.directed());
        assertEquals((long) n * (n / 5), g.edgeCount(), "seed " + SEED);
        for (int v = 0; v < n; v++) assertEquals(n / 5, g.transpose().degree(v), "vertex " + v + ", seed " + SEED);
        assertThrows(IllegalArgumentException.class, () -> MartinDense.generate(4, SEED));
    }

    @Test
    void counterexampleHasTheStructureOf003Section43() {
        int n = Counterexample.VERTICES;
        EdgeList e = Counterexample.generate();
        assertEquals(n, e.vertexCount());
        assertEquals(2 * (n - 2), e.size());
        CsrGraph g = GraphBuilder.build(e);
        assertEquals(n - 2, g.degree(0));
        assertEquals(-1, g.findArc(0, n - 1), "no arc 0 -> n-1: c[n-1] is infinite after the first iteration");
        double[] tails = new double[n - 2];
        for (int i = 1; i <= n - 2; i++) {
            assertEquals(1.0, g.weights()[g.findArc(0, i)]);
            tails[i - 1] = 1 + g.weights()[g.findArc(i, n - 1)];
        }
        // every frontier vertex offers n-1 a different value; the smallest is 2
        double[] sorted = tails.clone();
        Arrays.sort(sorted);
        for (int k = 1; k < sorted.length; k++) assertTrue(sorted[k] > sorted[k - 1]);
        assertEquals(2.0, sorted[0]);
        assertArrayEquals(Counterexample.distancesFromZero(n), DijkstraReference.run(g, 0).distances());
        CsrGraph undirected = GraphBuilder.build(Counterexample.generate(n, false));
        assertArrayEquals(Counterexample.distancesFromZero(n), DijkstraReference.run(undirected, 0).distances());
    }

    // ------------------------------------------------------------------ helpers

    private static int reached(CsrGraph g) {
        int count = 0;
        for (int h : BfsReference.run(g, 0).hops()) if (h >= 0) count++;
        return count;
    }

    private static void assertWeights(EdgeList e, int lo, int hi, String what) {
        boolean sawLo = false, sawHi = false;
        for (int i = 0; i < e.size(); i++) {
            double w = e.weight(i);
            assertTrue(w >= lo && w <= hi && w == Math.rint(w), what + ": edge " + i + " weight " + w);
            sawLo |= w == lo;
            sawHi |= w == hi;
        }
        // with 20 draws per value, missing an end of the range has probability below 2 e^-20
        if (e.size() >= 20 * (hi - lo + 1)) assertTrue(sawLo && sawHi, what + ": weights should span " + lo + ".." + hi);
    }

    /** Same arrays on 1 thread, 4 threads and the common pool; different arrays for the next seed. */
    private static void assertDeterministic(LongFunction<EdgeList> generate) {
        EdgeList one = on(1, () -> generate.apply(SEED)), four = on(4, () -> generate.apply(SEED));
        EdgeList common = generate.apply(SEED);
        for (EdgeList other : new EdgeList[] {four, common}) {
            assertEquals(one.size(), other.size(), "seed " + SEED);
            assertEquals(one.vertexCount(), other.vertexCount(), "seed " + SEED);
            assertArrayEquals(Arrays.copyOf(one.sourcesArray(), one.size()),
                    Arrays.copyOf(other.sourcesArray(), other.size()), "seed " + SEED + ": sources");
            assertArrayEquals(Arrays.copyOf(one.targetsArray(), one.size()),
                    Arrays.copyOf(other.targetsArray(), other.size()), "seed " + SEED + ": targets");
            assertArrayEquals(Arrays.copyOf(one.weightsArray(), one.size()),
                    Arrays.copyOf(other.weightsArray(), other.size()), "seed " + SEED + ": weights");
        }
        EdgeList next = generate.apply(SEED + 1);
        boolean differ = !Arrays.equals(one.sourcesArray(), 0, one.size(), next.sourcesArray(), 0, next.size())
                || !Arrays.equals(one.targetsArray(), 0, one.size(), next.targetsArray(), 0, next.size());
        assertTrue(differ, "seeds " + SEED + " and " + (SEED + 1) + " gave the same graph");
        GraphBuilder.build(one);
    }

    private static EdgeList on(int threads, java.util.function.Supplier<EdgeList> generate) {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            return pool.submit(generate::get).join();
        } finally {
            pool.shutdown();
        }
    }
}
