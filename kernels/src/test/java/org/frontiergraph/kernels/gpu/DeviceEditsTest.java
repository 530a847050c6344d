package org.frontiergraph.kernels.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UpdateStreams;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host's half of device edits (no GPU needed): the ops {@link DeviceEdits#of} reads from the host copy after a
 * run of updates, applied in any order to the arcs before the run, give exactly the arcs after it (the device's
 * kernels do the same to the slack layout; SlackEditsGpuTest checks that half).
 */
class DeviceEditsTest {
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theOpsTakeTheArcsBeforeARunToTheArcsAfterIt(boolean directed) {
        Random rnd = new Random(directed ? 71 : 72);
        CsrGraph start = GraphBuilder.build(UniformRandomGraph.generate(400, 1_600, directed ? 73 : 74, 20, directed));
        MutableGraph m = new MutableGraph(start);
        ChangeLog.Cursor cursor = m.log().cursor(ChangeLog.Detail.EDGES);
        Map<Long, Double> arcs = arcsOf(start);
        int removals = 0, additions = 0;
        for (int run = 0; run < 60; run++) {
            int updates = 1 + rnd.nextInt(run % 10 == 9 ? 300 : 8);
            for (int i = 0; i < updates; i++) {
                EdgeEdits e = UpdateStreams.randomUpdate(rnd, m.current(), true);
                try {
                    m.apply(e, 0, Long.MAX_VALUE);
                } catch (InvalidGraphException x) {
                    // refused whole: nothing recorded
                }
            }
            DeviceEdits ops = DeviceEdits.of(m, cursor.read().edges());
            assertEquals(!directed, ops.mirrored(), "an undirected graph's entries stand for both arcs");
            assertEquals(directed ? ops.entries() : 2 * ops.entries(), ops.size());
            assertStats(ops);
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < ops.size(); i++) {
                int u = ops.srcOf(i), v = ops.removes(i) ? ~ops.dstOf(i) : ops.dstOf(i);
                long key = ((long) u << 32) | v;
                assertTrue(seen.add(key), "one op per arc, run " + run);
                if (ops.removes(i)) {
                    if (arcs.remove(key) != null) removals++;
                } else {
                    assertTrue(ops.valueOf(i) >= 0, "a weight, not a marker, run " + run);
                    if (arcs.put(key, ops.valueOf(i)) == null) additions++;
                }
            }
            assertEquals(arcsOf(m.current()), arcs, "arcs after run " + run);
        }
        assertTrue(removals > 20 && additions > 20, "removals " + removals + ", additions " + additions);
    }

    /** The checks' summary, computed on all cores for a large batch, equals a count over the ops one by one. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLargeBatchIsSummarisedAsItsOpsOneByOne(boolean fractional) {
        Random rnd = new Random(fractional ? 81 : 82);
        int e = 3 * DeviceEdits.PARALLEL_MIN + 17;
        int[] src = new int[e], dst = new int[e];
        double[] value = new double[e];
        for (int i = 0; i < e; i++) {
            src[i] = rnd.nextInt(1_000);
            int v = rnd.nextInt(1_000);
            boolean remove = rnd.nextInt(10) == 0;
            dst[i] = remove ? ~v : v;
            value[i] = remove ? 0 : fractional && i == e - 5 ? 2.5 : 1 + rnd.nextInt(1_000_000);
        }
        value[e / 2] = dst[e / 2] < 0 ? 0 : 3_000_000;
        DeviceEdits ops = new DeviceEdits(src, dst, value, true);
        assertStats(ops);
        assertEquals(!fractional, ops.integral());
        assertTrue(ops.removals() > 0 && !ops.zero());
        value[7] = 0;
        dst[7] = 5;
        assertTrue(new DeviceEdits(src, dst, value, false).zero(), "a zero weight set");
    }

    private static void assertStats(DeviceEdits ops) {
        double max = 0;
        boolean integral = true, zero = false;
        int removals = 0;
        for (int i = 0; i < ops.size(); i++) {
            if (ops.removes(i)) {
                removals++;
                continue;
            }
            double w = ops.valueOf(i);
            max = Math.max(max, w);
            zero |= w == 0;
            integral &= w == Math.rint(w) && w <= Integer.MAX_VALUE - 1;
        }
        assertEquals(max, ops.maxWeight());
        assertEquals(integral, ops.integral());
        assertEquals(zero, ops.zero());
        assertEquals(removals, ops.removals());
    }

    private static Map<Long, Double> arcsOf(CsrGraph g) {
        Map<Long, Double> arcs = new HashMap<>();
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int e = off[u]; e < off[u + 1]; e++) arcs.put(((long) u << 32) | col[e], w[e]);
        }
        return arcs;
    }
}
