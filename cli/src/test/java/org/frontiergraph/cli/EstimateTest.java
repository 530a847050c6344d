package org.frontiergraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.gpu.DeviceCsr;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.registry.HeapBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./frontier load --estimate FILE} prints the worker's memory model for the file (HeapBudget's build peak, the
 * CSR and its caches, the device CSR) and exits 0 when it fits the heap budget, 1 when not; it needs no broker.
 */
class EstimateTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream(), errBytes = new ByteArrayOutputStream();

    private int load(String... argv) {
        outBytes.reset();
        errBytes.reset();
        String[] full = new String[argv.length + 1];
        full[0] = "load";
        System.arraycopy(argv, 0, full, 1, argv.length);
        return FrontierCli.run(full, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
                new PrintStream(errBytes, true, StandardCharsets.UTF_8));
    }

    private long field(String name) {
        Matcher m = Pattern.compile("\"" + name + "\": (-?\\d+)").matcher(outBytes.toString(StandardCharsets.UTF_8));
        assertTrue(m.find(), name + " in " + outBytes);
        return Long.parseLong(m.group(1));
    }

    @Test
    void theEstimateIsTheWorkersMemoryModelForTheFile() throws IOException {
        EdgeList e = UniformRandomGraph.generate(5_000, 40_000, 17, 100, true);   // directed, integral weights
        Path file = dir.resolve("g.gr");
        GraphFiles.write(e, file, GraphFormat.DIMACS);
        EdgeList read = GraphFiles.read(file).edges();
        CsrGraph g = GraphBuilder.build(read);

        assertEquals(FrontierCli.OK, load("--estimate", file.toString(), "--heap", "1g"), errBytes.toString(StandardCharsets.UTF_8));
        assertEquals(read.vertexCount(), field("vertices"));
        assertEquals(read.size(), field("inputEdges"));
        assertEquals(g.edgeCount(), field("edges"));
        assertEquals(HeapBudget.buildBytes(read.vertexCount(), read.size(), true), field("hostBuildPeakBytes"));
        assertEquals(g.bytes(), field("hostResidentBytes"));
        assertEquals(g.bytes() + HeapBudget.cacheBytes(g.bytes(), g.edgeCount(), true), field("hostHeldBytes"));
        assertTrue(field("deviceBytes") >= DeviceCsr.bytesFor(g), "the device CSR and the launchers opened at load");
        assertEquals(1L << 30, field("heapBytes"));
        FrontierConfig defaults = new FrontierConfig();
        assertEquals((long) ((1L << 30) * defaults.getHeapBudgetFraction()), field("heapBudgetBytes"));
        assertEquals(HeapBudget.alwaysReserved(defaults), field("reservedBytes"));
        assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains("\"fits\": true"), outBytes.toString(StandardCharsets.UTF_8));

        // a heap whose budget, less the reserve, cannot hold the build: exit 1, nothing else changes
        long need = HeapBudget.buildBytes(read.vertexCount(), read.size(), true) + HeapBudget.alwaysReserved(defaults);
        long heap = (long) (need / defaults.getHeapBudgetFraction()) - (1 << 20);
        assertEquals(FrontierCli.FAILED, load("--estimate", file.toString(), "--heap", Long.toString(heap)));
        assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains("\"fits\": false"), outBytes.toString(StandardCharsets.UTF_8));
        assertEquals(FrontierCli.USAGE, load("--estimate", file.toString(), "--heap", "lots"));
    }

    @Test
    void loadWithoutEstimateStillNeedsAGraphId() {
        assertEquals(FrontierCli.USAGE, load(dir.resolve("none.gr").toString()));
    }
}
