package org.frontiergraph.bench.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.Test;

/**
 * EdgeFlips' updates applied one by one to a {@link MutableGraph}, the worker's own graph: every one is valid (the
 * worker would refuse a removal of a missing edge), removals and additions alternate and keep the graph's size (an
 * addition of an edge that exists would leave it one short), additions are mostly not the edge just removed, and
 * {@link EdgeFlips#graphAt} gives the worker's graph array for array.
 */
class EdgeFlipsTest {
    private static final long VERSION = 1_000;

    @Test
    void undirectedGridStaysValidAndMatchesTheWorkersGraph() {
        follow(GridRoadGraph.generate(30, 30, 5, 255), 0);
    }

    @Test
    void directedRandomGraphWithUserIdsFromOneStaysValidAndMatchesTheWorkersGraph() {
        follow(UniformRandomGraph.generate(500, 4_000, 5, 100, true), 1);
    }

    private static void follow(EdgeList edges, int first) {
        CsrGraph start = GraphBuilder.build(edges);
        MutableGraph worker = new MutableGraph(GraphBuilder.build(edges));   // its own copy: it re-weights in place
        EdgeFlips flips = new EdgeFlips(start, VERSION, first, 42);
        int m = start.edgeCount(), updates = 3_000, readdedAtOnce = 0;
        long lastRemoved = -1;
        for (int i = 1; i <= updates; i++) {
            GraphUpdate u = flips.next("g");
            EdgeEdits e = edits(u, first);
            boolean removal = i % 2 == 1;
            assertEquals(removal ? 1 : 0, e.removeU().length, "update " + i);
            assertEquals(removal ? 0 : 1, e.addU().length, "update " + i);
            assertEquals(0, e.reweightU().length, "update " + i);
            worker.apply(e, first, Long.MAX_VALUE);   // throws, as the worker would refuse it, when not valid
            assertEquals(VERSION + i, flips.version());
            assertEquals(m - (removal ? 1 : 0), worker.edgeCount(), "update " + i + ": the edge count");
            long key = removal ? key(e.removeU()[0], e.removeV()[0], start.directed()) : key(e.addU()[0], e.addV()[0], start.directed());
            if (removal) lastRemoved = key;
            else if (key == lastRemoved) readdedAtOnce++;
            if (i % 1_000 == 0) assertTrue(worker.pendingStructure(), "after " + i + " updates, edges wait to be merged");
            if (i % 500 == 0 || i == 1 || i == 2) {
                CsrGraph expected = worker.current(), got = flips.graphAt(VERSION + i);
                assertArrayEquals(expected.rowOffsets(), got.rowOffsets(), "version after update " + i);
                assertArrayEquals(expected.columns(), got.columns(), "version after update " + i);
                assertArrayEquals(expected.weights(), got.weights(), "version after update " + i);
            }
        }
        assertTrue(readdedAtOnce < updates / 2 / 10, readdedAtOnce + " of " + updates / 2 + " additions were the edge just removed");
    }

    /** The update in 0-based ids, as the worker reads it. */
    private static EdgeEdits edits(GraphUpdate u, int first) {
        int[][] removed = ids(u.getRemoved(), first), added = ids(u.getAdded(), first), reweighted = ids(u.getReweighted(), first);
        double[] addW = u.getAdded() == null ? new double[0] : PackedArrays.toDoubleArray(u.getAdded().getWeights());
        double[] reweightW = u.getReweighted() == null ? new double[0] : PackedArrays.toDoubleArray(u.getReweighted().getWeights());
        return new EdgeEdits(u.getAddedVertexCount(), removed[0], removed[1], reweighted[0], reweighted[1], reweightW,
                added[0], added[1], addW);
    }

    private static int[][] ids(EdgeBatch b, int first) {
        if (b == null) return new int[][] {new int[0], new int[0]};
        int[] s = PackedArrays.toIntArray(b.getSources()), t = PackedArrays.toIntArray(b.getTargets());
        for (int i = 0; i < s.length; i++) {
            s[i] -= first;
            t[i] -= first;
        }
        return new int[][] {s, t};
    }

    private static long key(int u, int v, boolean directed) {
        if (!directed && u > v) return ((long) v << 32) | u;
        return ((long) u << 32) | v;
    }
}
