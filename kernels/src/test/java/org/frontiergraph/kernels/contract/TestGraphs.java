package org.frontiergraph.kernels.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.mst.KruskalReference;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * Graph fixtures shared by the contract tests of every backend (in the kernels test-jar), and memoized reference
 * answers so that several backends' tests in one JVM compute each reference once.
 *
 * <p>Real graphs come from {@code ../shared/datasets} ({@link Datasets}) and are read with {@link GraphFiles}:
 * DIMACS road graphs and email-Enron as directed arcs, facebook_combined as undirected edges, luxembourg_osm as the
 * undirected graph its {@code symmetric} banner declares. <b>Weight rule for unweighted graphs</b> (SNAP two-column
 * lists, MatrixMarket {@code pattern}): every edge has weight 1, so SSSP distances equal BFS hops there; the loader
 * applies the same rule. {@link #real(String)} is empty when the file is absent: tests skip with
 * {@code Assumptions.assumeTrue(graph.isPresent())}.
 */
public final class TestGraphs {
    /** A graph with a name that assertion messages carry (a seed, when it was generated). */
    public record Fixture(String name, CsrGraph graph) {
        @Override
        public String toString() { return name; }
    }

    /** USA-road-d.NY's minimum spanning forest weight (one tree; beyond float32's exact integers). */
    public static final double NY_MST_WEIGHT = 261159288;

    private static final Map<String, Optional<CsrGraph>> REAL = new ConcurrentHashMap<>();
    private static final Map<String, CsrGraph> GENERATED = new ConcurrentHashMap<>();
    private static final Map<CsrGraph, Map<Integer, BfsResult>> BFS_REFERENCE = new ConcurrentHashMap<>();
    private static final Map<CsrGraph, Map<Integer, SsspResult>> SSSP_REFERENCE = new ConcurrentHashMap<>();
    private static final Map<CsrGraph, MstResult> MST_REFERENCE = new ConcurrentHashMap<>();

    private TestGraphs() {}

    // ---------------------------------------------------------------- hand-made graphs

    /** Small hand-made graphs covering the storage policy's and the algorithms' edge cases. */
    public static Stream<Fixture> tiny() {
        return Stream.of(
                new Fixture("single vertex", build(1, false)),
                new Fixture("5 vertices, no edges", build(5, true)),
                new Fixture("undirected path 0-1-2-3", build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1)),
                new Fixture("directed path 0->1->2->3", build(4, true, 0, 1, 1, 1, 2, 1, 2, 3, 1)),
                new Fixture("directed cycle 0->1->2->0 plus sink 3", build(4, true, 0, 1, 2, 1, 2, 3, 2, 0, 4, 2, 3, 1)),
                new Fixture("disconnected: two triangles and an isolated vertex",
                        build(7, false, 0, 1, 1, 1, 2, 2, 2, 0, 3, 3, 4, 1, 4, 5, 1, 5, 3, 1)),
                new Fixture("duplicates and self-loops (directed)",
                        build(4, true, 0, 1, 5, 0, 1, 2, 1, 1, 1, 1, 2, 7, 1, 2, 3, 0, 2, 9, 2, 2, 0, 2, 3, 1)),
                new Fixture("duplicates and self-loops (undirected)",
                        build(4, false, 0, 1, 5, 1, 0, 2, 1, 1, 1, 1, 2, 7, 2, 1, 3, 0, 2, 9, 2, 3, 1, 3, 3, 4)),
                new Fixture("MST ties: 4-cycle with a chord, all weights 1",
                        build(4, false, 0, 1, 1, 1, 2, 1, 2, 3, 1, 3, 0, 1, 0, 2, 1)),
                new Fixture("MST ties: two weights, equal-weight alternatives",
                        build(5, false, 0, 1, 2, 0, 2, 2, 1, 2, 1, 2, 3, 2, 1, 3, 2, 3, 4, 1, 2, 4, 1)),
                new Fixture("zero weights", build(4, true, 0, 1, 0, 1, 2, 0, 0, 2, 0, 2, 3, 5)),
                new Fixture("fractional weights: 0.1 + 0.2 != 0.3",
                        build(4, false, 0, 1, 0.1, 1, 2, 0.2, 0, 2, 0.3, 2, 3, 0.7, 1, 3, 1.0)),
                new Fixture("source without out-arcs", build(3, true, 1, 0, 1, 2, 0, 1)),
                new Fixture("star with 5000 leaves", star(5000)),
                new Fixture("long path, 20000 vertices", path(20000)));
    }

    /**
     * Builds a graph from (source, target, weight) triples. Ids are given as numbers for brevity.
     */
    public static CsrGraph build(int n, boolean directed, double... triples) {
        if (triples.length % 3 != 0) throw new IllegalArgumentException("expected (u, v, w) triples");
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < triples.length; i += 3) e.add((int) triples[i], (int) triples[i + 1], triples[i + 2]);
        return GraphBuilder.build(e);
    }

    public static CsrGraph star(int leaves) {
        EdgeList e = new EdgeList(leaves + 1, false, leaves);
        for (int i = 1; i <= leaves; i++) e.add(0, i, 1 + i % 7);
        return GraphBuilder.build(e);
    }

    public static CsrGraph path(int n) {
        EdgeList e = new EdgeList(n, false, n);
        for (int i = 0; i + 1 < n; i++) e.add(i, i + 1, 1 + i % 3);
        return GraphBuilder.build(e);
    }

    // ---------------------------------------------------------------- generated graphs

    /**
     * Seeded uniform random graphs, directed and undirected, sparse (many unreachable vertices) and dense
     * (large frontiers: parallel and bottom-up BFS steps), with fractional weights in one of them.
     */
    public static Stream<Fixture> random() {
        List<Fixture> list = new ArrayList<>();
        for (long seed : new long[] {1, 2, 3}) {
            list.add(random(2_000, 2_500, seed, 100, true));
            list.add(random(2_000, 2_500, seed, 100, false));
            list.add(random(3_000, 30_000, seed, 10, true));
            list.add(random(3_000, 30_000, seed, 10, false));
        }
        // large enough for parallel top-down steps (frontiers of > 32k arcs while many arcs are unexplored)
        list.add(random(200_000, 2_000_000, 5, 1000, true));
        list.add(random(60_000, 600_000, 7, 1000, true));
        list.add(random(60_000, 600_000, 7, 1000, false));
        list.add(new Fixture("random n=5000 m=40000 seed=11 fractional weights", GENERATED.computeIfAbsent("frac",
                k -> fractional(UniformRandomGraph.generate(5_000, 40_000, 11, 1 << 20, false)))));
        return list.stream();
    }

    public static Fixture random(int n, long m, long seed, int maxWeight, boolean directed) {
        String name = "random n=" + n + " m=" + m + " seed=" + seed + " maxWeight=" + maxWeight
                + (directed ? " directed" : " undirected");
        return new Fixture(name, GENERATED.computeIfAbsent(name,
                k -> GraphBuilder.build(UniformRandomGraph.generate(n, m, seed, maxWeight, directed))));
    }

    /** Weights scaled by 1/1024 (exact fractions whose sums round, like real-valued road lengths). */
    private static CsrGraph fractional(EdgeList e) {
        EdgeList out = new EdgeList(e.vertexCount(), e.directed(), e.size());
        for (int i = 0; i < e.size(); i++) out.add(e.source(i), e.target(i), e.weight(i) / 1024.0 + 0.1);
        return GraphBuilder.build(out);
    }

    /** Graph500 Kronecker graph, scale 13, edge factor 16. */
    public static Fixture kronecker() {
        int scale = 13, edgeFactor = 16;
        long seed = 500;
        String name = "kronecker scale=" + scale + " edgeFactor=" + edgeFactor + " seed=" + seed;
        return new Fixture(name, GENERATED.computeIfAbsent(name,
                k -> GraphBuilder.build(KroneckerGraph.generate(scale, edgeFactor, seed))));
    }

    // ---------------------------------------------------------------- real graphs

    /** The real dataset files the contracts run on, by {@link Datasets} name. */
    public static Stream<String> realNames() {
        return Stream.of(Datasets.ROME, Datasets.NY, Datasets.FACEBOOK, Datasets.ENRON, Datasets.LUXEMBOURG);
    }

    /** A real graph, read once per JVM; empty when the shared datasets are absent. */
    public static Optional<CsrGraph> real(String name) {
        return REAL.computeIfAbsent(name, k -> Datasets.file(k).map(TestGraphs::read));
    }

    private static CsrGraph read(Path file) {
        String name = file.getFileName().toString();
        try {
            // facebook_combined lists each undirected edge once; the others follow their format's default
            boolean undirected = name.equals(Datasets.FACEBOOK);
            return GraphFiles.read(file, GraphFormat.fromFileName(name), undirected, null).toCsr();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    // ---------------------------------------------------------------- sources and references

    /** {@code count} distinct sources: vertex 0, the last vertex, then seeded picks. Deterministic. */
    public static int[] sources(CsrGraph g, int count, long seed) {
        int n = g.vertexCount();
        Set<Integer> s = new LinkedHashSet<>();
        s.add(0);
        if (count > 1) s.add(n - 1);
        SplittableRandom r = new SplittableRandom(seed);
        while (s.size() < Math.min(count, n)) s.add(r.nextInt(n));
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * A random graph on vertices 0..9999 ({@code degree} arcs a vertex, weights in [lo, hi)) and, after it, small
     * components: chains of 1 to 60 vertices (a search from their head reaches few vertices over many levels), and a
     * vertex with no arcs: where searches of large and small reach follow each other.
     */
    public static CsrGraph islands(boolean directed, int degree, int lo, int hi) {
        int big = 10_000, n = big + 60 * 61 / 2 + 1;
        EdgeList e = new EdgeList(n, directed, degree * big + n);
        SplittableRandom r = new SplittableRandom(31);
        for (int i = 0; i < degree * big; i++) e.add(r.nextInt(big), r.nextInt(big), lo + r.nextInt(hi - lo));
        int v = big;
        for (int len = 1; len <= 60; len++) {
            for (int k = 1; k < len; k++) e.add(v + k - 1, v + k, lo + r.nextInt(hi - lo));
            v += len;
        }
        return GraphBuilder.build(e);
    }

    /**
     * Sources of mixed reach on {@link #islands}: seeded picks (large reach) alternating with tail vertices (chains on
     * the islands: small reach), then the vertex without arcs and the first pick again.
     */
    public static int[] reachSources(CsrGraph g) {
        List<Integer> s = new ArrayList<>();
        int[] random = sources(g, 6, 5);
        for (int i = 0; i < random.length; i++) {
            s.add(random[i]);
            s.add(g.vertexCount() - 1 - 37 * i % Math.max(1, g.vertexCount() / 2));
        }
        s.add(g.vertexCount() - 1);
        s.add(random[0]);
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Tiny, random and Kronecker graphs: where batched answers are checked source by source. */
    public static Stream<Fixture> batchGraphs() {
        return Stream.concat(Stream.concat(tiny(), random()), Stream.of(kronecker()));
    }

    /** A batch of sources on {@code g}: {@code count} distinct ones ({@link #sources}), then the first again. */
    public static int[] batch(CsrGraph g, int count, long seed) {
        int[] s = sources(g, count, seed);
        int[] withRepeat = java.util.Arrays.copyOf(s, s.length + 1);
        withRepeat[s.length] = s[0];
        return withRepeat;
    }

    /** The source of the answers-at-targets contract tests (a seeded one; 0 on a one-vertex graph). */
    public static int targetsSource(CsrGraph g) {
        return sources(g, 2, 3)[g.vertexCount() > 1 ? 1 : 0];
    }

    /** Up to 40 targets for {@code source} ({@link #batch}: with a repeat), the source itself last. */
    public static int[] targetsWithSource(CsrGraph g, int source) {
        int[] targets = batch(g, Math.min(g.vertexCount(), 40), 4);
        int[] withSource = java.util.Arrays.copyOf(targets, targets.length + 1);
        withSource[targets.length] = source;
        return withSource;
    }

    public static BfsResult bfsReference(CsrGraph g, int source) {
        return BFS_REFERENCE.computeIfAbsent(g, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(source, s -> BfsReference.run(g, s));
    }

    public static SsspResult ssspReference(CsrGraph g, int source) {
        return SSSP_REFERENCE.computeIfAbsent(g, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(source, s -> DijkstraReference.run(g, s));
    }

    public static MstResult mstReference(CsrGraph g) {
        return MST_REFERENCE.computeIfAbsent(g, KruskalReference::run);
    }
}
