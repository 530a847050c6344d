package org.frontiergraph.bench.peers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peers' files, read back byte by byte with the layouts of shared/peers/README.md (gapbs {@code reader.h},
 * ECL-MST {@code ECLgraph.h}).
 */
class PeerFilesTest {
    @TempDir
    Path dir;

    private static CsrGraph graph(int n, boolean directed, double... triples) {
        EdgeList e = new EdgeList(n, directed);
        for (int i = 0; i < triples.length; i += 3) e.add((int) triples[i], (int) triples[i + 1], triples[i + 2]);
        return GraphBuilder.build(e);
    }

    /** 5 vertices (vertex 4 isolated), a duplicate {1,3} (kept at weight 2) and a self-loop (dropped). */
    private static CsrGraph undirected() {
        return graph(5, false, 0, 1, 7, 1, 2, 3, 2, 0, 9, 3, 1, 2, 1, 3, 4, 2, 2, 5);
    }

    /** u->v and v->u with different weights (MST takes 3), a one-way arc, an isolated vertex 4. */
    private static CsrGraph directed() {
        return graph(5, true, 0, 1, 5, 1, 0, 3, 1, 2, 8, 3, 0, 1, 2, 3, 6);
    }

    /** gapbs's serialized CSR as reader.h reads it: one CSR, or two (out, then in) when directed. */
    record Sg(boolean directed, long arcs, long n, long[][] offsets, int[][] neighbours, int[][] weights) {
        static Sg read(Path file, boolean weighted) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            byte flag = b.get();
            assertTrue(flag == 0 || flag == 1, "bool directed is one byte, 0 or 1");
            boolean directed = flag == 1;
            long arcs = b.getLong(), n = b.getLong();
            int parts = directed ? 2 : 1;
            long[][] off = new long[parts][(int) n + 1];
            int[][] nb = new int[parts][(int) arcs], w = new int[parts][weighted ? (int) arcs : 0];
            for (int p = 0; p < parts; p++) {
                for (int i = 0; i <= n; i++) off[p][i] = b.getLong();
                for (int a = 0; a < arcs; a++) {
                    nb[p][a] = b.getInt();
                    if (weighted) w[p][a] = b.getInt();
                }
            }
            assertFalse(b.hasRemaining(), "trailing bytes in " + file);
            return new Sg(directed, arcs, n, off, nb, w);
        }
    }

    /** ECL-MST's ECLgraph as readECLgraph reads it. */
    record Egr(int nodes, int edges, int[] nindex, int[] nlist, int[] eweight) {
        static Egr read(Path file) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            int nodes = b.getInt(), edges = b.getInt();
            int[] index = new int[nodes + 1], list = new int[edges], weight = new int[edges];
            for (int i = 0; i <= nodes; i++) index[i] = b.getInt();
            for (int i = 0; i < edges; i++) list[i] = b.getInt();
            for (int i = 0; i < edges; i++) weight[i] = b.getInt();
            assertFalse(b.hasRemaining(), "trailing bytes in " + file);
            return new Egr(nodes, edges, index, list, weight);
        }

        int weight(int u, int v) {
            for (int j = nindex[u]; j < nindex[u + 1]; j++) if (nlist[j] == v) return eweight[j];
            return -1;
        }
    }

    private static long[] longs(int[] xs) {
        long[] out = new long[xs.length];
        for (int i = 0; i < xs.length; i++) out[i] = xs[i];
        return out;
    }

    private static int[] ints(double[] xs) {
        int[] out = new int[xs.length];
        for (int i = 0; i < xs.length; i++) out[i] = (int) xs[i];
        return out;
    }

    @Test
    void undirectedSgAndWsgHoldTheCsr() throws IOException {
        CsrGraph g = undirected();
        PeerFiles.writeSg(g, dir.resolve("g.sg"));
        PeerFiles.writeWsg(g, dir.resolve("g.wsg"));
        for (boolean weighted : new boolean[] {false, true}) {
            Sg sg = Sg.read(dir.resolve(weighted ? "g.wsg" : "g.sg"), weighted);
            assertFalse(sg.directed());
            assertEquals(8, sg.arcs(), "both arcs of the 4 edges: the header counts arcs, as gapbs's writer does");
            assertEquals(5, sg.n());
            assertArrayEquals(new long[] {0, 2, 5, 7, 8, 8}, sg.offsets()[0]);
            assertArrayEquals(new int[] {1, 2, 0, 2, 3, 0, 1, 1}, sg.neighbours()[0]);
            if (weighted) assertArrayEquals(new int[] {7, 9, 7, 3, 2, 9, 3, 2}, sg.weights()[0]);
            assertArrayEquals(g.columns(), sg.neighbours()[0]);
        }
        assertEquals(1 + 8 + 8 + 6 * 8 + 8 * 4, Files.size(dir.resolve("g.sg")));
        assertEquals(1 + 8 + 8 + 6 * 8 + 8 * 8, Files.size(dir.resolve("g.wsg")));
    }

    @Test
    void directedFilesAppendTheTranspose() throws IOException {
        CsrGraph g = directed();
        PeerFiles.writeSg(g, dir.resolve("g.sg"));
        PeerFiles.writeWsg(g, dir.resolve("g.wsg"));
        CsrGraph t = g.transpose();
        for (boolean weighted : new boolean[] {false, true}) {
            Sg sg = Sg.read(dir.resolve(weighted ? "g.wsg" : "g.sg"), weighted);
            assertTrue(sg.directed());
            assertEquals(5, sg.arcs());
            // out-arcs: 0->1, 1->0, 1->2, 2->3, 3->0
            assertArrayEquals(new long[] {0, 1, 3, 4, 5, 5}, sg.offsets()[0]);
            assertArrayEquals(new int[] {1, 0, 2, 3, 0}, sg.neighbours()[0]);
            // in-arcs: 0<-1, 0<-3, 1<-0, 2<-1, 3<-2
            assertArrayEquals(new long[] {0, 2, 3, 4, 5, 5}, sg.offsets()[1]);
            assertArrayEquals(new int[] {1, 3, 0, 1, 2}, sg.neighbours()[1]);
            assertArrayEquals(longs(t.rowOffsets()), sg.offsets()[1]);
            if (weighted) {
                assertArrayEquals(new int[] {5, 3, 8, 6, 1}, sg.weights()[0]);
                assertArrayEquals(new int[] {3, 1, 5, 8, 6}, sg.weights()[1]);
                assertArrayEquals(ints(t.weights()), sg.weights()[1]);
            }
        }
    }

    @Test
    void egrIsSymmetricWithTheSmallerWeightOfBothDirections() throws IOException {
        PeerFiles.writeEgr(directed(), dir.resolve("d.egr"));
        Egr d = Egr.read(dir.resolve("d.egr"));
        assertEquals(5, d.nodes());
        assertEquals(8, d.edges(), "4 undirected edges {0,1} {1,2} {2,3} {0,3}, both arcs each");
        assertArrayEquals(new int[] {0, 2, 4, 6, 8, 8}, d.nindex());
        assertArrayEquals(new int[] {1, 3, 0, 2, 1, 3, 0, 2}, d.nlist(), "rows sorted by target");
        assertEquals(3, d.weight(0, 1), "min(5, 3)");
        assertEquals(3, d.weight(1, 0));
        assertEquals(8, d.weight(2, 1));
        assertEquals(1, d.weight(0, 3));

        CsrGraph u = undirected();
        PeerFiles.writeEgr(u, dir.resolve("u.egr"));
        Egr e = Egr.read(dir.resolve("u.egr"));
        assertEquals(u.vertexCount(), e.nodes());
        assertEquals(u.arcCount(), e.edges());
        assertArrayEquals(u.rowOffsets(), e.nindex());
        assertArrayEquals(u.columns(), e.nlist());
        assertArrayEquals(ints(u.weights()), e.eweight());
        for (int a = 0; a < e.nodes(); a++) {
            for (int j = e.nindex()[a]; j < e.nindex()[a + 1]; j++) {
                assertEquals(e.eweight()[j], e.weight(e.nlist()[j], a), "arc " + a + "->" + e.nlist()[j]);
            }
        }
    }

    @Test
    void refusesWeightsThatAreNotInt32() {
        Path f = dir.resolve("g.wsg");
        IllegalArgumentException fraction = assertThrows(IllegalArgumentException.class,
                () -> PeerFiles.writeWsg(graph(3, true, 0, 1, 2, 1, 2, 2.5), f));
        assertTrue(fraction.getMessage().contains("arc 1->2 has weight 2.5"), fraction.getMessage());
        IllegalArgumentException large = assertThrows(IllegalArgumentException.class,
                () -> PeerFiles.writeEgr(graph(3, false, 0, 1, 3e9), dir.resolve("g.egr")));
        assertTrue(large.getMessage().contains("3.0E9"), large.getMessage());
        assertFalse(Files.exists(f), "nothing written for a refused graph");
    }

    @Test
    void answersAreLittleEndianInt32() throws IOException {
        int[] values = {0, -1, 7, Integer.MAX_VALUE, 1 << 20};
        Path f = dir.resolve("a.i32");
        PeerFiles.writeInts(f, values);
        assertArrayEquals(new byte[] {0, 0, 0, 0, -1, -1, -1, -1, 7, 0, 0, 0}, java.util.Arrays.copyOf(
                Files.readAllBytes(f), 12));
        assertArrayEquals(values, PeerReport.readInts(f));
    }
}
