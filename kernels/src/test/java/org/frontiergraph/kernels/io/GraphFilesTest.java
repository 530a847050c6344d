package org.frontiergraph.kernels.io;

import static org.frontiergraph.kernels.io.GraphTexts.bytes;
import static org.frontiergraph.kernels.io.GraphTexts.describe;
import static org.frontiergraph.kernels.io.GraphTexts.gzip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.frontiergraph.kernels.graph.EdgeList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files on disk: gzip detection, truncated gzip, progress, and write/read round trips. */
class GraphFilesTest {
    private static final String DIMACS_TEXT = "c tiny\r\np sp 3 3\r\na 1 2 5\r\na 2 3\r\na 3 3 1\r\n";

    @TempDir
    Path dir;

    @Test
    void gzipIsDetectedFromContentAndFormatFromName() throws Exception {
        Path gz = dir.resolve("tiny.gr.gz");
        Files.write(gz, gzip(bytes(DIMACS_TEXT)));
        Path plain = dir.resolve("tiny.gr");
        Files.write(plain, bytes(DIMACS_TEXT));
        Path misnamed = dir.resolve("tiny-really-gzipped.gr");
        Files.write(misnamed, gzip(bytes(DIMACS_TEXT)));
        for (Path p : List.of(gz, plain, misnamed)) {
            LoadedGraph g = GraphFiles.read(p);
            assertEquals(GraphFormat.DIMACS, g.format());
            assertEquals("0->1:5 1->2:1 2->2:1", describe(g.edges()), p.toString());
            assertEquals(1, g.selfLoops());
        }
    }

    @Test
    void truncatedGzipIsAClearError() throws Exception {
        StringBuilder sb = new StringBuilder("p sp 1000 20000\n");
        Random r = new Random(7);
        for (int i = 0; i < 20000; i++) {
            sb.append("a ").append(1 + r.nextInt(1000)).append(' ').append(1 + r.nextInt(1000)).append(' ')
                    .append(r.nextInt(100)).append('\n');
        }
        byte[] full = gzip(bytes(sb.toString()));
        Path cut = dir.resolve("cut.gr.gz");
        Files.write(cut, Arrays.copyOf(full, full.length / 2));
        GraphFileException e = assertThrows(GraphFileException.class, () -> GraphFiles.read(cut));
        assertTrue(e.reason().startsWith("truncated or corrupt gzip data"), e.getMessage());
        assertTrue(e.getMessage().startsWith("cut.gr.gz:"), e.getMessage());
        assertTrue(e.line() > 1, e.getMessage());

        Path header = dir.resolve("header.gr.gz");
        Files.write(header, Arrays.copyOf(full, 5));
        GraphFileException h = assertThrows(GraphFileException.class, () -> GraphFiles.read(header));
        assertTrue(h.reason().startsWith("truncated or corrupt gzip header"), h.getMessage());

        byte[] corrupt = full.clone();
        for (int i = 100; i < 140; i++) corrupt[i] ^= 0x5a;
        Path bad = dir.resolve("bad.gr.gz");
        Files.write(bad, corrupt);
        GraphFileException c = assertThrows(GraphFileException.class, () -> GraphFiles.read(bad));
        assertTrue(c.reason().startsWith("truncated or corrupt gzip") || c.reason().contains("arc"), c.getMessage());
    }

    @Test
    void progressReportsBytesOfTheFile() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 300_000; i++) sb.append(i).append('\t').append(i + 1).append('\n');
        Path p = dir.resolve("chain.txt");
        Files.write(p, bytes(sb.toString()));
        List<Long> seen = new ArrayList<>();
        LoadedGraph g = GraphFiles.read(p, GraphFormat.SNAP, seen::add);
        assertEquals(300_001, g.vertexCount());
        assertTrue(seen.size() >= 3, seen.toString());
        for (int i = 1; i < seen.size(); i++) assertTrue(seen.get(i) >= seen.get(i - 1), seen.toString());
        assertEquals(Files.size(p), seen.get(seen.size() - 1));
    }

    @Test
    void missingFileIsAnIoError() {
        assertThrows(java.nio.file.NoSuchFileException.class, () -> GraphFiles.read(dir.resolve("none.gr")));
        assertThrows(IllegalArgumentException.class, () -> GraphFiles.read(dir.resolve("none.csv")));
    }

    @Test
    void dimacsRoundTripDirected() throws Exception {
        EdgeList e = randomEdges(500, 4000, true, 11, false);
        e.add(3, 3, 2); // a self-loop survives
        e.add(1, 2, 0.125); // a decimal weight survives
        for (String name : List.of("g.gr", "g.gr.gz")) {
            Path p = dir.resolve(name);
            GraphFiles.write(e, p);
            LoadedGraph g = GraphFiles.read(p);
            assertEquals(describe(e), describe(g.edges()), name);
            assertEquals(e.vertexCount(), g.vertexCount());
            assertTrue(g.weighted());
        }
    }

    @Test
    void dimacsWritesUndirectedEdgesAsTwoArcs() throws Exception {
        EdgeList e = new EdgeList(4, false);
        e.add(0, 1, 3);
        e.add(2, 2, 1);
        e.add(3, 2, 4);
        Path p = dir.resolve("u.gr");
        GraphFiles.write(e, p);
        LoadedGraph g = GraphFiles.read(p);
        assertEquals("0->1:3 1->0:3 2->2:1 3->2:4 2->3:4", describe(g.edges()));
        assertEquals(GraphFilesTestSupport.csrSignature(GraphFilesTestSupport.asDirected(e)),
                GraphFilesTestSupport.csrSignature(g.edges()));
    }

    @Test
    void matrixMarketRoundTrip() throws Exception {
        for (boolean directed : new boolean[] {true, false}) {
            for (int kind = 0; kind < 3; kind++) { // pattern, integer, real
                EdgeList e = randomEdges(300, 2000, directed, 20 + kind, kind == 2);
                if (kind == 0) e = unitWeights(e);
                Path p = dir.resolve("g" + directed + kind + ".mtx.gz");
                GraphFiles.write(e, p);
                LoadedGraph g = GraphFiles.read(p);
                assertEquals(directed, g.edges().directed());
                assertEquals(kind != 0, g.weighted());
                assertEquals(e.vertexCount(), g.vertexCount());
                // symmetric files store (max, min): compare as undirected edge sets
                assertEquals(GraphFilesTestSupport.csrSignature(e), GraphFilesTestSupport.csrSignature(g.edges()));
                if (directed) assertEquals(describe(e), describe(g.edges()));
            }
        }
    }

    @Test
    void snapRoundTrip() throws Exception {
        EdgeList e = randomEdges(200, 1500, true, 31, true);
        e.add(199, 199, 1); // largest id used, so the vertex count survives
        Path p = dir.resolve("g.txt");
        GraphFiles.write(e, p);
        LoadedGraph g = GraphFiles.read(p);
        assertEquals(describe(e), describe(g.edges()));
        assertEquals(200, g.vertexCount());

        EdgeList u = unitWeights(randomEdges(50, 100, false, 32, false));
        u.add(49, 0, 1);
        Path q = dir.resolve("u.edges");
        GraphFiles.write(u, q);
        assertTrue(Files.readString(q).contains("read with undirected = true"));
        LoadedGraph h = GraphFiles.read(q, GraphFormat.SNAP, true, null);
        assertFalse(h.weighted());
        assertEquals(describe(u), describe(h.edges()));
    }

    @Test
    void writeRejectsNonFiniteWeights() {
        EdgeList e = new EdgeList(2, true);
        e.add(0, 1, Double.NaN);
        assertThrows(IllegalArgumentException.class,
                () -> GraphFiles.write(e, new ByteArrayOutputStream(), GraphFormat.DIMACS));
    }

    static EdgeList randomEdges(int n, int m, boolean directed, long seed, boolean decimals) {
        Random r = new Random(seed);
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < m; i++) {
            double w = decimals ? r.nextInt(1000) / 8.0 + r.nextDouble() : r.nextInt(100_000);
            e.add(r.nextInt(n), r.nextInt(n), w);
        }
        return e;
    }

    static EdgeList unitWeights(EdgeList e) {
        EdgeList out = new EdgeList(e.vertexCount(), e.directed());
        for (int i = 0; i < e.size(); i++) out.add(e.source(i), e.target(i), 1);
        return out;
    }
}
