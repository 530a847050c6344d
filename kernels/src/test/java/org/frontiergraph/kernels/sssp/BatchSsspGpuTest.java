package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batched SSSP SUMMARY answers a block a source ({@link BatchSssp}, sssp_batch.cu) against Dijkstra's, source by
 * source, the largest distance exactly: MultiSsspGpuTest's graphs (zero, fractional and heavy-tailed weights,
 * directed and undirected, disconnected graphs, hubs, long paths, a Kronecker graph, road grids), batches of 1 to 70
 * sources with repeats, fewer blocks than sources (a slot runs many sources in turn, its keys and marks reused), narrow
 * and wide buckets, every run repeated (the slots' state carries over between launches). Then USA-road-d.NY where
 * the datasets are present, and what a batch costs there and on a Kronecker graph against the other ways (printed).
 * Skipped where no GPU is present.
 */
@Tag("gpu")
class BatchSsspGpuTest extends GpuTests {
    /** Runs the batch under each variant, {@code repeats} times, and checks every summary (MultiSsspGpuTest's check). */
    private static SsspSummaries check(String name, ResidentGraph dev, CsrGraph g, int[] sources, int repeats,
                                       String... variants) {
        return MultiSsspGpuTest.check(name, dev, g, sources, repeats, variants);
    }

    /** A batch of {@code count} sources: every vertex of a small graph, else seeded picks, with a repeat. */
    private static int[] batch(CsrGraph g, int count) {
        if (g.vertexCount() <= count) return IntStream.range(0, g.vertexCount()).toArray();
        return TestGraphs.batch(g, count - 1, 29);
    }

    static Stream<Fixture> graphs() {
        return MultiSsspGpuTest.graphs();
    }

    /** Batches of 1, 2, 13 and 40 sources a block a source; 40 on 3 blocks; narrow and wide buckets. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("graphs")
    void summariesEqualDijkstras(Fixture f) {
        CsrGraph g = f.graph();
        try (ResidentGraph dev = gpu.load(g)) {
            check(f.name(), dev, g, batch(g, 40), 2, "default,way=batch", "default,way=batch,slots=3");
            check(f.name(), dev, g, batch(g, 13), 1, "default,way=batch,df=0.01", "default,way=batch,df=1000000");
            check(f.name(), dev, g, batch(g, 2), 1, "default,way=batch");
            check(f.name(), dev, g, new int[] {g.vertexCount() - 1}, 1, "default,way=batch");
        }
    }

    @Test
    void aBurstOnARoadGridTakesTheBatchWayByDefault() {
        CsrGraph g = GraphBuilder.build(GridRoadGraph.generate(100, 100, 9, 1000));
        int[] sources = TestGraphs.sources(g, 70, 23);
        try (ResidentGraph dev = gpu.load(g)) {
            SsspSummaries r = check("grid road 100x100, 70 sources", dev, g, sources, 2, "default");
            assertEquals(Math.min(70, BatchSssp.slots(g.vertexCount())), r.timing().counter("blocks"),
                    () -> r.timing().counters().toString());
            int[] same = new int[GpuSsspSummaries.BATCH_MIN_SOURCES];
            check("grid road 100x100, one source 16 times", dev, g, same, 2, "default", "default,way=batch,slots=1");
        }
    }

    // ---------------------------------------------------------------- real graphs, and what a batch costs

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.frontiergraph.kernels.contract.TestGraphs#realNames")
    void realGraphs(String file) {
        Optional<CsrGraph> g = TestGraphs.real(file);
        assumeTrue(g.isPresent(), file + " not found under ../shared/datasets");
        int[] sources = TestGraphs.batch(g.get(), 47, 43);
        try (ResidentGraph dev = gpu.load(g.get())) {
            check(file, dev, g.get(), sources, 2, "default,way=batch", "default,way=batch,slots=7");
            int[] burst = TestGraphs.sources(g.get(), Math.min(64, g.get().vertexCount()), 44);
            for (String way : new String[] {"default,way=multi", "default,way=batch", "default"}) {
                System.out.println("[batch-sssp] " + file + " " + cost(dev, g.get(), burst, way, 3));
            }
        }
    }

    /** Median device ms a source of {@code runs} runs of the batch under {@code variant} (answers checked first). */
    private static String cost(ResidentGraph dev, CsrGraph g, int[] sources, String variant, int runs) {
        SsspSummaries first = check("timing", dev, g, sources, 1, variant);
        double[] ms = new double[runs];
        SsspSummaries last = first;
        for (int r = 0; r < runs; r++) {
            last = dev.run(Sssp.SUMMARIES, new Sources(sources), variant);
            ms[r] = last.timing().computeNanos() / 1e6;
        }
        Arrays.sort(ms);
        double median = ms[runs / 2];
        return String.format("%-34s k=%3d %9.3f ms  %.4f ms/source  %s", variant, sources.length, median,
                median / sources.length, last.timing().counters());
    }

    /** NY batches of 8 to 512 sources: side by side (the old way) against a block a source, and the default; printed. */
    @Test
    void costOnNewYork() {
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        assumeTrue(ny.isPresent(), "USA-road-d.NY not found under ../shared/datasets");
        CsrGraph g = ny.get();
        try (ResidentGraph dev = gpu.load(g)) {
            for (int k : new int[] {8, 16, 24, 32, 64, 128, 256, 512}) {
                int[] sources = TestGraphs.sources(g, k, 100 + k);
                if (k <= 64) System.out.println("[batch-sssp] NY " + cost(dev, g, sources, "default,way=multi", 3));
                System.out.println("[batch-sssp] NY " + cost(dev, g, sources, "default,way=batch", 3));
                System.out.println("[batch-sssp] NY " + cost(dev, g, sources, "default", 3));
            }
        }
    }

    /** A Kronecker graph (scale 18, 8 M arcs): one at a time (its default), side by side, a block a source; printed. */
    @Test
    void costOnKronecker() {
        assumeTrue(Datasets.file(Datasets.NY).isPresent(), "timing runs where the datasets are");
        CsrGraph g = GraphBuilder.build(KroneckerGraph.generate(18, 16, 7));
        try (ResidentGraph dev = gpu.load(g)) {
            int[] sources = TestGraphs.sources(g, 64, 5);
            System.out.println("[batch-sssp] kron18 " + cost(dev, g, sources, "default", 3));
            System.out.println("[batch-sssp] kron18 " + cost(dev, g, sources, "default,way=multi", 3));
            System.out.println("[batch-sssp] kron18 " + cost(dev, g, sources, "default,way=batch", 3));
        }
    }
}
