package org.frontiergraph.kernels.bfs;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A search clears only what the one before it reached (bfs.cu): on one residency, searches of every kind follow each
 * other (large reach after small and back, the host loop after the persistent kernel and back, block 0's small
 * levels on and off, single-source SUMMARY and TARGETS answers, a source without out-arcs) and each answer equals
 * the reference's, so no search sees what an earlier one left.
 */
@Tag("gpu")
class GpuBfsReachTest extends GpuTests {
    private static final String[] VARIANTS = {null, "hostloop", "persistent,small=0", "persistent,small=4096",
            "persistent,blocks=2", "persistent,bps=64"};

    static Stream<Fixture> graphs() {
        return Stream.of(
                new Fixture("islands beside a random graph, directed", TestGraphs.islands(true, 5, 1, 2)),
                new Fixture("islands beside a random graph, undirected", TestGraphs.islands(false, 5, 1, 2)),
                TestGraphs.kronecker(),
                new Fixture("long path, 20000 vertices", TestGraphs.path(20000)),
                new Fixture("star with 5000 leaves", TestGraphs.star(5000)));
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
                    BfsResult want = TestGraphs.bfsReference(g, s);
                    BfsResult got = Bfs.run(r, s, variant);
                    Verification v = BfsVerifier.verify(g, s, got, want);
                    assertTrue(v.ok(), () -> where + ": " + v.message());
                    int deepest = Arrays.stream(want.hops()).max().orElse(0);
                    assertEquals(deepest + 1, got.timing().counter("levels"), where + ": levels");
                    // a single-source SUMMARY and a TARGETS answer on the same launcher, right after (default variant)
                    BfsSummaries sum = r.run(Bfs.SUMMARIES, new Sources(new int[] {s}), null);
                    long reached = Arrays.stream(want.hops()).filter(h -> h >= 0).count();
                    assertEquals(reached, sum.reached()[0], where + ": summary reached");
                    assertEquals(deepest, sum.maxHops()[0], where + ": summary max hops");
                    int[] targets = {s, g.vertexCount() - 1, 0, g.vertexCount() / 2};
                    BfsAtTargets at = r.run(Bfs.AT_TARGETS, new Targets(s, targets), null);
                    for (int k = 0; k < targets.length; k++) {
                        assertEquals(want.hops()[targets[k]], at.hops()[k], where + ": hops at " + targets[k]);
                    }
                }
            }
        }
    }

    /** The FULL answer's arrays hold -1 exactly where the reference does, after a larger search on the launcher. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void unreachedStaysUnreachedAfterALargerSearch(Fixture f) {
        CsrGraph g = f.graph();
        int[] sources = TestGraphs.reachSources(g);
        try (ResidentGraph r = gpu.load(g)) {
            for (int s : sources) {
                BfsResult want = TestGraphs.bfsReference(g, s);
                BfsResult got = Bfs.run(r, s, null);
                assertArrayEquals(want.hops(), got.hops(), f.name() + ", source " + s + ": hops");
                for (int v = 0; v < g.vertexCount(); v++) {
                    if (want.hops()[v] < 0) assertEquals(-1, got.parents()[v], f.name() + ": parent of " + v);
                }
            }
        }
    }
}
