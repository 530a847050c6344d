package org.frontiergraph.kernels.bfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.contract.TestGraphs.Fixture;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CPU engine's batched BFS summaries ({@link CpuBfsSummaries}), each way of computing them (the bit-parallel
 * passes of {@link CpuMultiSourceBfs}, the sequential search per source, and the choice between them), equal
 * {@link BfsReference}'s summaries source by source: batches of 1, 2, 63, 64, 65 and 130 sources with repeats and
 * sources without out-arcs, on directed and undirected graphs (seeded random, Kronecker, a grid, graphs of many
 * components, USA-road-d.NY when the shared datasets are present). The contract tests ({@code BfsContract}) check the
 * same through the engine's {@code Bfs.SUMMARIES} on more graphs.
 */
class CpuBfsSummariesTest {
    static final int[] SIZES = {1, 2, 63, 64, 65, 130};

    /** The three ways a batch is answered, by name. */
    static Stream<Way> ways() {
        return Stream.of(new Way("bitParallel", CpuBfsSummaries::bitParallel),
                new Way("perSource", CpuBfsSummaries::perSource),
                new Way("run", CpuBfsSummaries::run));
    }

    record Way(String name, BiFunction<CsrGraph, int[], BfsSummaries> batch) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Fixture> graphs() {
        return Stream.of(
                TestGraphs.random(3_000, 9_000, 21, 10, true),
                TestGraphs.random(3_000, 9_000, 22, 10, false),
                TestGraphs.random(2_000, 40_000, 23, 10, true),   // dense: the engine's choice is bit-parallel
                TestGraphs.kronecker(),
                new Fixture("grid 40 x 75 seed=24", GraphBuilder.build(GridRoadGraph.generate(40, 75, 24, 9))),
                new Fixture("components seed=25 directed", components(4_000, 25, true)),
                new Fixture("components seed=26 undirected", components(4_000, 26, false)),
                new Fixture("long path, 20000 vertices", TestGraphs.path(20_000)));
    }

    static Stream<Arguments> cases() {
        return graphs().flatMap(f -> ways().map(w -> Arguments.of(f, w)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void summariesEqualTheReferences(Fixture f, Way way) {
        for (int size : SIZES) assertSummaries(f.name(), f.graph(), batch(f.graph(), size, 31 + size), way);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ways")
    void summariesOnNewYork(Way way) {
        var ny = TestGraphs.real(Datasets.NY);
        Assumptions.assumeTrue(ny.isPresent(), "../shared/datasets/" + Datasets.NY + " absent");
        int[] all = batch(ny.get(), 130, 41);
        for (int size : SIZES) assertSummaries("USA-road-d.NY", ny.get(), Arrays.copyOf(all, size), way);
    }

    /** One source 130 times, and a batch of sources that reach only themselves. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("ways")
    void repeatsAndLoneSources(Way way) {
        CsrGraph g = components(4_000, 27, true);
        int[] same = new int[130];
        Arrays.fill(same, TestGraphs.sources(g, 3, 5)[2]);
        assertSummaries("one source 130 times", g, same, way);
        int[] lone = IntStream.range(0, g.vertexCount()).filter(v -> g.degree(v) == 0).limit(65).toArray();
        assertEquals(65, lone.length, "the fixture has vertices without out-arcs");
        assertSummaries("sources without out-arcs", g, lone, way);
    }

    @Test
    void passesAreFewMultiplesOfTheCoresOfNearlyEqualSize() {
        assertArrayEquals(new int[] {0, 1, 2}, CpuBfsSummaries.passBounds(2, 2));
        assertArrayEquals(new int[] {0, 1}, CpuBfsSummaries.passBounds(1, 2));
        assertArrayEquals(new int[] {0, 32, 64}, CpuBfsSummaries.passBounds(64, 2));
        assertArrayEquals(new int[] {0, 64}, CpuBfsSummaries.passBounds(64, 1));
        assertArrayEquals(new int[] {0, 43, 86, 130}, CpuBfsSummaries.passBounds(130, 1));
        assertArrayEquals(new int[] {0, 32, 65, 97, 130}, CpuBfsSummaries.passBounds(130, 2));
        assertArrayEquals(new int[] {0, 64, 128, 192, 256}, CpuBfsSummaries.passBounds(256, 4));
        assertArrayEquals(new int[] {0, 2, 4, 6, 8, 10, 12, 14, 16}, CpuBfsSummaries.passBounds(16, 8));
    }

    @Test
    void bitParallelRunsOnDenseGraphsWithAPassOfEightPerCore() {
        CsrGraph dense = TestGraphs.random(2_000, 40_000, 23, 10, true).graph();
        CsrGraph sparse = TestGraphs.random(3_000, 9_000, 21, 10, true).graph();
        assertTrue(CpuBfsSummaries.bitParallelPays(dense, 16, 2));
        assertFalse(CpuBfsSummaries.bitParallelPays(dense, 15, 2));
        assertTrue(CpuBfsSummaries.bitParallelPays(dense, 8, 1));
        assertFalse(CpuBfsSummaries.bitParallelPays(sparse, 1000, 2));
        BfsSummaries batch = CpuBfsSummaries.bitParallel(dense, TestGraphs.sources(dense, 130, 3));
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(CpuBfsSummaries.passBounds(130, cores).length - 1, batch.timing().counter("passes"),
                "130 sources on " + cores + " cores");
        assertTrue(batch.timing().counter("levels") >= 4, "levels " + batch.timing().counter("levels"));
    }

    private static void assertSummaries(String name, CsrGraph g, int[] sources, Way way) {
        BfsSummaries got = way.batch().apply(g, sources);
        BfsSummaries want = BfsSummaries.of(Arrays.stream(sources)
                .mapToObj(s -> TestGraphs.bfsReference(g, s)).toArray(BfsResult[]::new));
        String batch = name + ", " + way + ", " + sources.length + " sources";
        assertArrayEquals(sources, got.sources(), batch + ": sources in order");
        for (int i = 0; i < sources.length; i++) {
            String where = batch + ": summary from " + sources[i] + " (position " + i + ")";
            assertEquals(want.reached()[i], got.reached()[i], where + ": reached");
            assertEquals(want.maxHops()[i], got.maxHops()[i], where + ": max hops");
        }
    }

    /**
     * {@code size} seeded sources: distinct ones ({@link TestGraphs#sources}), every fifth position a repeat of an
     * earlier one, and every seventh a vertex without out-arcs when the graph has one.
     */
    static int[] batch(CsrGraph g, int size, long seed) {
        int[] distinct = TestGraphs.sources(g, size, seed);
        int[] lone = IntStream.range(0, g.vertexCount()).filter(v -> g.degree(v) == 0).limit(size).toArray();
        int[] s = new int[size];
        for (int i = 0; i < size; i++) {
            if (i % 5 == 4) s[i] = s[i / 2];
            else if (i % 7 == 6 && lone.length > 0) s[i] = lone[i % lone.length];
            else s[i] = distinct[i % distinct.length];
        }
        return s;
    }

    /**
     * A graph of many components: the vertices cut into seeded blocks of 1 to 200 (blocks of one are isolated
     * vertices), each block with about 1.5 random arcs a vertex inside it and nothing between blocks.
     */
    static CsrGraph components(int n, long seed, boolean directed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList e = new EdgeList(n, directed);
        for (int start = 0; start < n; ) {
            int size = Math.min(n - start, r.nextInt(10) == 0 ? 1 : 1 + r.nextInt(200));
            for (int i = 0; size > 1 && i < size * 3 / 2; i++) {
                e.add(start + r.nextInt(size), start + r.nextInt(size), 1 + r.nextInt(9));
            }
            start += size;
        }
        return GraphBuilder.build(e);
    }
}
