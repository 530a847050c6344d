package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A search resets only what the one before it reached (sssp.cu, sssp_async.cu): on one residency, searches of both
 * launchers follow each other (large reach after small and back, near-far after async and back, block 0's rounds
 * on, off and with other limits, other grids), with
 * single-source SUMMARY and TARGETS answers between them, and each answer equals Dijkstra's: distances bit for bit,
 * parents a shortest-path tree with -1 exactly where nothing is reached, so no search sees what an earlier one left.
 * (Searches after the standing trees' seeded settle runs, which mark the async launcher fresh: DeviceTreesGpuTest.)
 */
@Tag("gpu")
class GpuSsspReachTest extends GpuTests {
    private static final String[] VARIANTS = {null, "nearfar", "async", "nearfar,small=0", "async,blocks=2",
            "nearfar,small=4096", "nearfar,blocks=2", "async,bps=2", "nearfar,bps=1,small=16"};

    static Stream<Fixture> graphs() {
        return Stream.of(
                new Fixture("islands beside a sparse random graph, directed", TestGraphs.islands(true, 3, 1, 100)),
                new Fixture("islands beside a dense random graph, undirected", TestGraphs.islands(false, 12, 1, 20)),
                new Fixture("islands, zero weights among them, undirected", TestGraphs.islands(false, 4, 0, 4)),
                new Fixture("islands, fractional weights, directed", fractional(TestGraphs.islands(true, 10, 1, 1000))),
                TestGraphs.kronecker(),
                new Fixture("long path, 20000 vertices", TestGraphs.path(20000)),
                new Fixture("star with 5000 leaves", TestGraphs.star(5000)));
    }

    /** Weights divided by 64, plus 0.1 (sums that round). */
    private static CsrGraph fractional(CsrGraph g) {
        EdgeList e = new EdgeList(g.vertexCount(), true, (int) g.arcCount());
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int k = g.rowStart(u); k < g.rowEnd(u); k++) e.add(u, g.columns()[k], g.weights()[k] / 64.0 + 0.1);
        }
        return GraphBuilder.build(e);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void searchesInAnyOrderSeeNothingLeftBefore(Fixture f) {
        CsrGraph g = f.graph();
        int[] sources = TestGraphs.reachSources(g);
        try (ResidentGraph r = gpu.load(g)) {
            int i = 0;
            for (int round = 0; round < 2; round++) {
                for (int s : sources) {
                    String variant = VARIANTS[i++ % VARIANTS.length];
                    String where = f.name() + ", source " + s + ", variant " + variant;
                    SsspResult want = TestGraphs.ssspReference(g, s);
                    SsspResult got = Sssp.run(r, s, variant);
                    Verification v = SsspVerifier.verify(g, s, got, want);
                    assertTrue(v.ok(), () -> where + ": " + v.message());
                    assertArrayEquals(want.distances(), got.distances(), where + ": distances");
                    for (int x = 0; x < g.vertexCount(); x++) {
                        if (want.distances()[x] == Double.POSITIVE_INFINITY) {
                            assertEquals(SsspResult.NO_PARENT, got.parents()[x], where + ": parent of " + x);
                        }
                    }
                    // a single-source SUMMARY and a TARGETS answer on the default launcher, right after
                    SsspSummaries sum = r.run(Sssp.SUMMARIES, new Sources(new int[] {s}), null);
                    double[] expect = SsspSummaries.summarize(want.distances());
                    assertEquals((long) expect[0], sum.reached()[0], where + ": summary reached");
                    assertEquals(expect[1], sum.maxDistances()[0], where + ": summary largest distance");
                    int[] targets = {s, g.vertexCount() - 1, 0, g.vertexCount() / 2};
                    SsspAtTargets at = r.run(Sssp.AT_TARGETS, new Targets(s, targets), null);
                    for (int k = 0; k < targets.length; k++) {
                        int t = targets[k];
                        assertEquals(want.distances()[t], at.distances()[k], where + ": distance at " + t);
                        if (want.distances()[t] == Double.POSITIVE_INFINITY) {
                            assertEquals(SsspResult.NO_PARENT, at.parents()[k], where + ": parent at " + t);
                        }
                    }
                }
            }
        }
    }

    /** Several sources answered one by one on the single-source launcher ({@code pass=1}), repeats among them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void summariesOneByOneReadEachSearchsOwnReach(Fixture f) {
        CsrGraph g = f.graph();
        int[] s = TestGraphs.reachSources(g);
        int[] batch = Arrays.copyOf(s, s.length + 2);
        batch[s.length] = s[1];
        batch[s.length + 1] = s[0];
        try (ResidentGraph r = gpu.load(g)) {
            SsspSummaries sum = r.run(Sssp.SUMMARIES, new Sources(batch), "default,pass=1");
            for (int i = 0; i < batch.length; i++) {
                double[] expect = SsspSummaries.summarize(TestGraphs.ssspReference(g, batch[i]).distances());
                String where = f.name() + ", source " + batch[i] + " at " + i;
                assertEquals((long) expect[0], sum.reached()[i], where + ": reached");
                assertEquals(expect[1], sum.maxDistances()[i], where + ": largest distance");
            }
        }
    }
}
