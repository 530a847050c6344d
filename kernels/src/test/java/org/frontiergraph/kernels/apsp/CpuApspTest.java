package org.frontiergraph.kernels.apsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.generate.seeds.MartinDense;
import org.frontiergraph.kernels.generate.seeds.MartinFixedDegree;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.junit.jupiter.api.Test;

/** The CPU APSP's own choices (default variant, limits) and the verifier failing on wrong answers. */
class CpuApspTest {
    private static final long SEED = 99;

    @Test
    void floydWarshallReferenceAgreesWithDijkstraFromEverySource() {
        for (boolean directed : new boolean[] {true, false}) {
            CsrGraph g = GraphBuilder.build(UniformRandomGraph.generate(200, 500, SEED, 50, directed));
            ApspResult fw = FloydWarshallReference.run(g);
            for (int s = 0; s < g.vertexCount(); s++) {
                assertArrayEquals(DijkstraReference.run(g, s).distances(), fw.row(s), "seed " + SEED + ", source " + s);
            }
        }
    }

    @Test
    void defaultIsFloydWarshallOnlyWhenNearlyComplete() {
        assertEquals(CpuApsp.REPEATED_SSSP,
                CpuApsp.defaultVariant(GraphBuilder.build(MartinFixedDegree.generate(3_000, SEED))));
        // 003's dense graphs (degree n / 5): still repeated SSSP (measured faster, see CpuApsp.DIJKSTRA_ARC_COST)
        assertEquals(CpuApsp.REPEATED_SSSP, CpuApsp.defaultVariant(GraphBuilder.build(MartinDense.generate(1_000, SEED))));
        assertEquals(CpuApsp.FLOYD_WARSHALL,
                CpuApsp.defaultVariant(GraphBuilder.build(MartinFixedDegree.generate(600, 300, SEED))));
    }

    @Test
    void limitsSayWhatAnApspNeeds() {
        GraphTooLargeException tooMany = assertThrows(GraphTooLargeException.class,
                () -> new ApspLimits(30_000).check(30_001, Long.MAX_VALUE));
        assertEquals("APSP on 30001 vertices needs 7.2 GB (30001 x 30001 distances); the limit is 30000 vertices (7.2 GB)",
                tooMany.getMessage());
        GraphTooLargeException noMemory = assertThrows(GraphTooLargeException.class,
                () -> new ApspLimits(30_000).check(20_000, 1_000_000_000L));
        assertTrue(noMemory.getMessage().startsWith("APSP on 20000 vertices needs 3.2 GB"), noMemory.getMessage());
        assertTrue(noMemory.getMessage().contains("the limit is 1.0 GB free here"), noMemory.getMessage());
        new ApspLimits(30_000).check(10_000, 1_000_000_000L);
        assertEquals(ApspLimits.DEFAULT_MAX_VERTICES, ApspLimits.defaults().maxVertices());
        assertThrows(IllegalArgumentException.class, () -> new ApspLimits(ApspLimits.ARRAY_MAX_VERTICES + 1));
    }

    @Test
    void verifierFailsOnWrongAnswersOfSmallGraphs() {
        // 300 vertices: compared with the Floyd-Warshall reference
        assertVerifierCatches(GraphBuilder.build(UniformRandomGraph.generate(300, 900, SEED, 20, true)));
    }

    @Test
    void verifierFailsOnWrongAnswersOfLargerGraphs() {
        // 700 vertices: compared with Dijkstra from every source
        assertVerifierCatches(GraphBuilder.build(UniformRandomGraph.generate(700, 2_100, SEED, 20, true)));
    }

    @Test
    void verifierSamplesSourcesOfLargeGraphs() {
        int[] s = ApspVerifier.sampledSources(10_000);
        assertEquals(ApspVerifier.SAMPLED_SOURCES, s.length);
        assertEquals(0, s[0]);
        assertEquals(9_999, s[1]);
        assertArrayEquals(s, ApspVerifier.sampledSources(10_000));
    }

    private static void assertVerifierCatches(CsrGraph g) {
        ApspResult good = CpuApsp.run(g, CpuApsp.REPEATED_SSSP);
        assertTrue(ApspVerifier.verify(g, good).ok(), ApspVerifier.verify(g, good).message());
        int n = g.vertexCount();
        int finite = -1, infinite = -1;
        for (int i = 0; i < n * n && (finite < 0 || infinite < 0); i++) {
            double d = good.distances()[i];
            if (d == Double.POSITIVE_INFINITY) infinite = i; else if (d > 0) finite = i;
        }
        assertTrue(finite >= 0 && infinite >= 0, "seed " + SEED + ": the graph should have both kinds of pairs");
        final int f = finite, inf = infinite;
        assertFails(g, good, d -> d[f] += 1, "one distance too long");
        assertFails(g, good, d -> d[f] -= 1, "one distance too short");
        assertFails(g, good, d -> d[inf] = 5, "an unreachable pair given a distance");
        assertFails(g, good, d -> d[f] = Double.POSITIVE_INFINITY, "a reachable pair given infinity");
        assertFails(g, good, d -> d[n + 1] = 1, "a non-zero diagonal");
        assertFails(g, good, d -> d[f] = Double.NaN, "NaN");
        assertFalse(ApspVerifier.verify(g, new ApspResult(n - 1, new double[(n - 1) * (n - 1)], null)).ok());
        assertFalse(ApspVerifier.verify(g, null).ok());
    }

    private static void assertFails(CsrGraph g, ApspResult good, Consumer<double[]> damage, String what) {
        double[] d = good.distances().clone();
        damage.accept(d);
        Verification v = ApspVerifier.verify(g, new ApspResult(good.vertexCount(), d, good.timing()));
        assertFalse(v.ok(), "seed " + SEED + ": the verifier accepted " + what);
    }
}
