package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.sssp.GpuSsspSummaries;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BFS SUMMARY bursts a thread block a source (the batched SSSP with every arc counting 1, {@code sssp_batch_unit}):
 * reached counts and deepest levels equal to the reference's, source by source, on sparse graphs where a burst takes
 * that way by default (road grids, islands, a long path, a star, directed and undirected random graphs, NY where the
 * datasets are present) and, forced ({@code way=batch}), on a Kronecker graph; batches with repeats, sources without
 * out-arcs and isolated vertices, every run repeated (the slots' state carries over), fewer blocks than sources; the
 * bit-parallel passes ({@code way=multi}) give the same answers. Then what a burst of NY costs each way (printed).
 */
@Tag("gpu")
class GpuBfsBurstTest extends GpuTests {
    static Stream<Fixture> graphs() {
        Stream<Fixture> made = Stream.of(
                new Fixture("road grid 120 x 120", GraphBuilder.build(GridRoadGraph.generate(120, 120, 5, 100))),
                new Fixture("islands, directed", TestGraphs.islands(true, 3, 1, 2)),
                new Fixture("islands, undirected", TestGraphs.islands(false, 3, 1, 2)),
                TestGraphs.random(20_000, 60_000, 41, 9, true),
                TestGraphs.random(20_000, 40_000, 42, 9, false),
                new Fixture("long path, 20000 vertices", TestGraphs.path(20000)),
                new Fixture("star with 5000 leaves", TestGraphs.star(5000)),
                TestGraphs.kronecker());
        Stream<Fixture> real = TestGraphs.real("USA-road-d.NY.gr.gz").stream().map(g -> new Fixture("USA-road-d.NY", g));
        return Stream.concat(made, real);
    }

    /** 60 sources: seeded picks, the last vertex, vertices without out-arcs where there are, and repeats. */
    static int[] burst(CsrGraph g) {
        int[] picks = TestGraphs.sources(g, 40, 7);
        int[] sinks = IntStream.range(0, g.vertexCount()).filter(v -> g.degree(v) == 0).limit(5).toArray();
        return IntStream.concat(IntStream.concat(Arrays.stream(picks), Arrays.stream(sinks)),
                Arrays.stream(picks).limit(15)).toArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void burstsEqualTheReference(Fixture f) {
        CsrGraph g = f.graph();
        int[] sources = burst(g);
        BfsSummaries want = BfsSummaries.of(Arrays.stream(sources).parallel()
                .mapToObj(s -> TestGraphs.bfsReference(g, s)).toArray(BfsResult[]::new));
        boolean byDefault = GpuSsspSummaries.batches(g);
        try (ResidentGraph r = gpu.load(g)) {
            for (String v : new String[] {null, "default,way=batch", "default,way=batch,slots=3", "default,way=multi"}) {
                if (v == null && !byDefault) continue;
                for (int run = 0; run < 2; run++) {
                    BfsSummaries got = r.run(Bfs.SUMMARIES, new Sources(sources), v);
                    String where = f.name() + ", " + v + ", run " + run;
                    assertArrayEquals(sources, got.sources(), where + ": sources in order");
                    assertArrayEquals(want.reached(), got.reached(), where + ": reached");
                    assertArrayEquals(want.maxHops(), got.maxHops(), where + ": deepest level");
                    boolean blocks = v == null ? byDefault : v.contains("way=batch");
                    assertEquals(blocks, got.timing().counters().containsKey("blocks"), where + ": the way taken");
                }
            }
        }
    }

    @Test
    void aBurstOfNewYorkCostsLessABlockASource() {
        CsrGraph g = TestGraphs.real("USA-road-d.NY.gr.gz").orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(g != null, "USA-road-d.NY.gr.gz not present");
        int[] sources = TestGraphs.sources(g, 256, 11);
        try (ResidentGraph r = gpu.load(g)) {
            double[] ms = new double[2];
            String[] ways = {"default,way=multi", "default,way=batch"};
            for (int w = 0; w < 2; w++) {
                r.run(Bfs.SUMMARIES, new Sources(sources), ways[w]);   // warm: launchers opened, code loaded
                long best = Long.MAX_VALUE;
                for (int i = 0; i < 3; i++) {
                    best = Math.min(best, r.run(Bfs.SUMMARIES, new Sources(sources), ways[w]).timing().computeNanos());
                }
                ms[w] = best / 1e6 / sources.length;
            }
            System.out.printf("[bfs bursts] USA-road-d.NY, 256 sources, device ms a source: bit-parallel passes %.4f,"
                    + " a block a source %.4f%n", ms[0], ms[1]);
            assertTrue(ms[0] > 0 && ms[1] > 0, "both timed");
        }
    }
}
