package org.frontiergraph.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.KroneckerGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.generate.seeds.Counterexample;
import org.frontiergraph.kernels.generate.seeds.GtGraphRandom;
import org.frontiergraph.kernels.generate.seeds.HarishRandom;
import org.frontiergraph.kernels.generate.seeds.HarishScaleFree;
import org.frontiergraph.kernels.generate.seeds.MartinDense;
import org.frontiergraph.kernels.generate.seeds.MartinFixedDegree;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./frontier generate} writes what the generator gives, in a file that GraphFiles (and so {@code load}) reads back. */
class GenerateTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream(), errBytes = new ByteArrayOutputStream();

    private int generate(String... argv) {
        outBytes.reset();
        errBytes.reset();
        String[] full = new String[argv.length + 1];
        full[0] = "generate";
        System.arraycopy(argv, 0, full, 1, argv.length);
        return FrontierCli.run(full, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
                new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    }

    private String err() { return errBytes.toString(StandardCharsets.UTF_8); }

    @Test
    void everyKindRoundTripsThroughDimacs() throws IOException {
        check("gtgraph.gr", GtGraphRandom.generate(1 << 9, 1 << 10, 7), "--kind", "gtgraph", "--vertices", "512",
                "--seed", "7");
        check("harish.gr", HarishRandom.generate(2_000, 6, 7), "--kind", "harish-random", "--vertices", "2000",
                "--seed", "7");
        check("scalefree.gr", HarishScaleFree.generate(3_000, 7), "--kind", "harish-scalefree", "--vertices", "3000",
                "--seed", "7");
        check("martin.gr", MartinFixedDegree.generate(2_000, 7, 7), "--kind", "martin", "--vertices", "2000",
                "--seed", "7");
        check("dense.gr", MartinDense.generate(300, 7), "--kind", "martin-dense", "--vertices", "300", "--seed", "7");
        check("counterexample.gr", Counterexample.generate(), "--kind", "counterexample");
        check("uniform.gr", UniformRandomGraph.generate(1_000, 5_000, 7, 1000, true), "--kind", "uniform",
                "--vertices", "1000", "--edges", "5000", "--seed", "7");
        check("kronecker.gr", KroneckerGraph.generate(10, 8, 7), "--kind", "kronecker", "--scale", "10",
                "--degree", "8", "--seed", "7");
        check("grid.gr", GridRoadGraph.generate(31, 32, 7, 100), "--kind", "grid", "--vertices", "1000", "--seed", "7");
    }

    @Test
    void otherFormatsAndGzip() throws IOException {
        check("martin.mtx", MartinFixedDegree.generate(500, 7, 3), "--kind", "martin", "--vertices", "500", "--seed", "3");
        check("gtgraph.mtx.gz", GtGraphRandom.generate(256, 512, 3), "--kind", "gtgraph", "--vertices", "256",
                "--seed", "3");
        check("martin.txt", MartinFixedDegree.generate(500, 7, 3), "--kind", "martin", "--vertices", "500", "--seed", "3");
        check("gtgraph.txt.gz", GtGraphRandom.generate(256, 512, 3), "--kind", "gtgraph", "--vertices", "256",
                "--seed", "3");
        // --format overrides the name
        check("dense.graph", MartinDense.generate(100, 3), "--kind", "martin-dense", "--vertices", "100", "--seed", "3",
                "--format", "mtx");
        byte[] gz = Files.readAllBytes(dir.resolve("gtgraph.mtx.gz"));
        assertTrue(gz[0] == 0x1f && gz[1] == (byte) 0x8b, "gzip magic");
        assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains("100 vertices"), outBytes.toString());
    }

    @Test
    void sameSeedSameFileOtherSeedOtherFile() throws IOException {
        assertEquals(0, generate("--kind", "harish-scalefree", "--vertices", "2000", "--seed", "5", dir.resolve("a.gr").toString()));
        assertEquals(0, generate("--kind", "harish-scalefree", "--vertices", "2000", "--seed", "5", dir.resolve("b.gr").toString()));
        assertEquals(0, generate("--kind", "harish-scalefree", "--vertices", "2000", "--seed", "6", dir.resolve("c.gr").toString()));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.gr")), Files.readAllBytes(dir.resolve("b.gr")));
        assertFalse(Arrays.equals(Files.readAllBytes(dir.resolve("a.gr")), Files.readAllBytes(dir.resolve("c.gr"))));
    }

    @Test
    void usageErrorsExitTwoWithOneLine() {
        String file = dir.resolve("x.gr").toString();
        assertUsage("Missing required option: '--kind=KIND'", file);
        assertUsage("--kind: 'nope' is not a graph kind (gtgraph, harish-random,", "--kind", "nope", file);
        assertUsage("Missing required parameter: 'FILE'", "--kind", "martin");
        assertUsage("--edges does not apply to --kind martin", "--kind", "martin", "--edges", "5", file);
        assertUsage("--vertices: 'ten' is not a count (a non-negative integer)", "--kind", "martin", "--vertices", "ten", file);
        assertUsage("--vertices: '-5' is not a count (a non-negative integer)", "--kind", "martin", "--vertices", "-5", file);
        assertUsage("cannot tell the graph format", "--kind", "martin", dir.resolve("x.bin").toString());
        assertUsage("--format: 'csv' is not a graph file format (dimacs, snap or mtx)", "--kind", "martin", "--format", "csv", file);
        assertUsage("degree must be in 0..4", "--kind", "martin", "--vertices", "5", file);
        assertUsage("kronecker --vertices must be a power of two", "--kind", "kronecker", "--vertices", "1000", file);
        assertUsage("unknown option '--frobnicate'", "--kind", "martin", "--frobnicate", "1", file);
        assertFalse(Files.exists(dir.resolve("x.gr")));
    }

    @Test
    void ioErrorsExitOne() {
        int rc = generate("--kind", "counterexample", dir.resolve("no/such/dir/x.gr").toString());
        assertEquals(1, rc, err());
        assertTrue(err().startsWith("frontier: cannot write "), err());
        assertEquals(1, err().lines().count(), err());
    }

    private void assertUsage(String reason, String... argv) {
        assertEquals(2, generate(argv), err());
        assertTrue(err().startsWith("frontier generate: ") && err().contains(reason), err());
        assertEquals(1, err().lines().count(), err());
    }

    /**
     * Generates {@code name} with {@code argv} and reads it back as {@code ./frontier load} does (SNAP files of
     * undirected graphs with --undirected): the same graph as {@code expected} under the storage policy, and for
     * directed graphs the very same edge list.
     */
    private void check(String name, EdgeList expected, String... argv) throws IOException {
        Path file = dir.resolve(name);
        String[] full = Arrays.copyOf(argv, argv.length + 1);
        full[argv.length] = file.toString();
        assertEquals(0, generate(full), name + ": " + err());
        GraphFormat format = name.endsWith(".graph") ? GraphFormat.MATRIX_MARKET : GraphFormat.fromFileName(name);
        boolean undirected = format == GraphFormat.SNAP && !expected.directed();
        LoadedGraph back = GraphFiles.read(file, format, undirected, null);
        assertEquals(expected.vertexCount(), back.vertexCount(), name);
        CsrGraph want = GraphBuilder.build(expected), got = back.toCsr();
        assertArrayEquals(want.rowOffsets(), got.rowOffsets(), name + ": row offsets");
        assertArrayEquals(want.columns(), got.columns(), name + ": columns");
        assertArrayEquals(want.weights(), got.weights(), name + ": weights");
        if (expected.directed()) {
            EdgeList e = back.edges();
            assertEquals(expected.size(), e.size(), name);
            assertArrayEquals(Arrays.copyOf(expected.sourcesArray(), expected.size()), Arrays.copyOf(e.sourcesArray(), e.size()), name);
            assertArrayEquals(Arrays.copyOf(expected.targetsArray(), expected.size()), Arrays.copyOf(e.targetsArray(), e.size()), name);
            assertArrayEquals(Arrays.copyOf(expected.weightsArray(), expected.size()), Arrays.copyOf(e.weightsArray(), e.size()), name);
        }
    }
}
