package org.frontiergraph.kernels.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.frontiergraph.kernels.engine.Source;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.io.GraphFiles;

/** The graphs the GPU tests cross-check: seeded random, Kronecker and grid graphs, and every shared dataset. */
final class GpuTestGraphs {
    private GpuTestGraphs() {}

    record Named(String name, Supplier<CsrGraph> graph) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Named> all() {
        List<Named> list = new ArrayList<>();
        list.add(new Named("uniform directed n=5000 m=40000 w<=100 seed=11",
                () -> GraphBuilder.build(UniformRandomGraph.generate(5_000, 40_000, 11, 100, true))));
        list.add(new Named("uniform undirected n=20000 m=200000 w<=1000 seed=12",
                () -> GraphBuilder.build(UniformRandomGraph.generate(20_000, 200_000, 12, 1000, false))));
        list.add(new Named("uniform undirected sparse n=100000 m=120000 w<=9 seed=13 (many components)",
                () -> GraphBuilder.build(UniformRandomGraph.generate(100_000, 120_000, 13, 9, false))));
        list.add(new Named("fractional weights directed n=3000 m=30000 seed=14", () -> fractional(3_000, 30_000, 14, true)));
        list.add(new Named("fractional weights undirected n=3000 m=30000 seed=15", () -> fractional(3_000, 30_000, 15, false)));
        list.add(new Named("zero weights undirected n=2000 m=10000 seed=16", () -> zeroWeights(2_000, 10_000, 16)));
        list.add(new Named("kronecker scale=12 ef=16 seed=17",
                () -> GraphBuilder.build(KroneckerGraph.generate(12, 16, 17))));
        list.add(new Named("kronecker scale=16 ef=16 seed=18",
                () -> GraphBuilder.build(KroneckerGraph.generate(16, 16, 18))));
        list.add(new Named("grid road 300x300 w<=1000 seed=19",
                () -> GraphBuilder.build(GridRoadGraph.generate(300, 300, 19, 1000))));
        list.add(new Named("path of 5000 vertices", GpuTestGraphs::path));
        list.add(new Named("single vertex", () -> GraphBuilder.build(new EdgeList(1, false))));
        for (Path file : datasets()) {
            list.add(new Named("dataset " + file.getFileName(), () -> {
                try {
                    return GraphFiles.read(file).toCsr();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
        return list.stream();
    }

    /** Every graph file in the datasets folder (../shared/datasets or FRONTIER_DATASETS), none when absent. */
    static List<Path> datasets() {
        return Datasets.dir().map(dir -> {
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(p -> p.getFileName().toString().matches(".*\\.(gr|txt|mtx)(\\.gz)?"))
                        .sorted().toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).orElse(List.of());
    }

    static CsrGraph fractional(int n, int m, long seed, boolean directed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList list = new EdgeList(n, directed, m);
        for (int i = 0; i < m; i++) list.add(r.nextInt(n), r.nextInt(n), r.nextInt(1, 1000) / 7.0 + r.nextDouble());
        return GraphBuilder.build(list);
    }

    static CsrGraph zeroWeights(int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EdgeList list = new EdgeList(n, false, m);
        for (int i = 0; i < m; i++) list.add(r.nextInt(n), r.nextInt(n), r.nextInt(4) == 0 ? 0 : r.nextInt(1, 20));
        return GraphBuilder.build(list);
    }

    static CsrGraph path() {
        int n = 5_000;
        EdgeList list = new EdgeList(n, false, n);
        for (int i = 0; i + 1 < n; i++) list.add(i, i + 1, 1 + (i % 7));
        return GraphBuilder.build(list);
    }

    /** Source vertex 0 and a few seeded random ones. */
    static int[] sources(CsrGraph g, long seed, int count) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] s = new int[count + 1];
        for (int i = 1; i <= count; i++) s[i] = r.nextInt(g.vertexCount());
        return s;
    }
}
