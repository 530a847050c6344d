package org.frontiergraph.kernels.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;

/** Generators give the same graph for a seed on any number of threads, and different graphs for other seeds. */
class GeneratorsTest {
    private static final long SEED = 20240611L;

    @Test
    void uniformIsDeterministicWhateverTheThreadCount() {
        // 300k edges: several generator blocks, so the parallel path runs
        assertSameOnAnyPool(() -> UniformRandomGraph.generate(10_000, 300_000, SEED, 1000, true));
    }

    @Test
    void kroneckerIsDeterministicWhateverTheThreadCount() {
        assertSameOnAnyPool(() -> KroneckerGraph.generate(14, 16, SEED));
    }

    @Test
    void gridIsDeterministicWhateverTheThreadCount() {
        assertSameOnAnyPool(() -> GridRoadGraph.generate(300, 400, SEED, 100));
    }

    @Test
    void seedsMatter() {
        EdgeList a = UniformRandomGraph.generate(1000, 5000, 1, 100, false);
        EdgeList b = UniformRandomGraph.generate(1000, 5000, 2, 100, false);
        assertFalse(Arrays.equals(a.sourcesArray(), 0, a.size(), b.sourcesArray(), 0, b.size()), "seeds 1 and 2");
        EdgeList k1 = KroneckerGraph.generate(10, 8, 1), k2 = KroneckerGraph.generate(10, 8, 2);
        assertFalse(Arrays.equals(k1.targetsArray(), 0, k1.size(), k2.targetsArray(), 0, k2.size()), "seeds 1 and 2");
    }

    @Test
    void uniformShape() {
        EdgeList e = UniformRandomGraph.generate(500, 20_000, SEED, 7, false);
        assertEquals(500, e.vertexCount());
        assertEquals(20_000, e.size());
        assertFalse(e.directed());
        for (int i = 0; i < e.size(); i++) {
            double w = e.weight(i);
            assertTrue(w >= 1 && w <= 7 && w == Math.rint(w), "seed " + SEED + ": edge " + i + " weight " + w);
            assertTrue(e.source(i) >= 0 && e.source(i) < 500 && e.target(i) >= 0 && e.target(i) < 500);
        }
        assertTrue(GraphBuilder.build(e).integralWeights());
    }

    @Test
    void kroneckerShape() {
        int scale = 12, edgeFactor = 16;
        EdgeList e = KroneckerGraph.generate(scale, edgeFactor, SEED);
        assertEquals(1 << scale, e.vertexCount());
        assertEquals(edgeFactor << scale, e.size());
        assertFalse(e.directed());
        int maxDegree = 0;
        CsrGraph g = GraphBuilder.build(e);
        for (int v = 0; v < g.vertexCount(); v++) maxDegree = Math.max(maxDegree, g.degree(v));
        // skewed: the hub has far more than the mean degree (2 * 16)
        assertTrue(maxDegree > 20 * 2 * edgeFactor, "seed " + SEED + ": max degree " + maxDegree);
        // the permutation moves the hub away from vertex 0 (R-MAT without permutation puts it there)
        assertTrue(g.degree(0) < maxDegree, "seed " + SEED + ": vertex 0 is the hub");
        for (int i = 0; i < e.size(); i++) assertTrue(e.weight(i) >= 1 && e.weight(i) <= KroneckerGraph.MAX_WEIGHT);
    }

    @Test
    void gridShape() {
        int rows = 30, cols = 40;
        CsrGraph g = GraphBuilder.build(GridRoadGraph.generate(rows, cols, SEED, 50));
        assertEquals(rows * cols, g.vertexCount());
        assertEquals(rows * (cols - 1) + (rows - 1) * cols, g.edgeCount());
        assertEquals(2, g.degree(0));
        assertEquals(4, g.degree(cols + 1));
        assertTrue(g.findArc(0, 1) >= 0 && g.findArc(0, cols) >= 0 && g.findArc(cols - 1, cols) < 0);
    }

    private static void assertSameOnAnyPool(Supplier<EdgeList> generate) {
        EdgeList one = on(1, generate), four = on(4, generate), common = generate.get();
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
    }

    /** Runs the generator inside a pool of {@code threads}: its parallel streams then use that pool. */
    private static EdgeList on(int threads, Supplier<EdgeList> generate) {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            return pool.submit(generate::get).join();
        } finally {
            pool.shutdown();
        }
    }
}
