package org.frontiergraph.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.Test;

/** Snapshot chunks as the client packs them: every edge once, in user ids, each chunk under 1 MiB. */
class FrontierClientTest {
    private static final long SEED = 0x5eed_0012L;

    /** The codec is the settings' own when they name one, else none; the client's other producer settings stay. */
    @Test
    void producerPublishesUncompressedUnlessTheSettingsNameACodec() {
        java.util.Properties plain = FrontierClient.kafka("h:9092");
        assertEquals("none", FrontierClient.producerSettings(plain).getProperty("compression.type"));
        assertEquals("0", FrontierClient.producerSettings(plain).getProperty("linger.ms"), "a lone query leaves at once");
        java.util.Properties lz4 = FrontierClient.kafka("h:9092");
        lz4.put("compression.type", "lz4");
        lz4.put("acks", "1");
        lz4.put("linger.ms", "5");
        java.util.Properties p = FrontierClient.producerSettings(lz4);
        assertEquals("lz4", p.getProperty("compression.type"));
        assertEquals("5", p.getProperty("linger.ms"), "the settings' linger wins");
        assertEquals("all", p.getProperty("acks"), "acks=all is the client's: a snapshot chunk is never lost");
        assertEquals("h:9092", p.getProperty("bootstrap.servers"));
        assertEquals(Integer.toString(1 << 20), p.getProperty("max.request.size"), "1 MiB unless the settings say otherwise");
        lz4.put("max.request.size", "8388608");
        assertEquals("8388608", FrontierClient.producerSettings(lz4).getProperty("max.request.size"), "larger chunks, larger requests");
    }

    @Test
    void snapshotChunksCarryEveryEdgePackedInUserIds() throws Exception {
        SnapshotEdges edges = randomEdges(30_000, 120_000, 5_000);
        for (boolean weighted : new boolean[] {true, false}) {
            List<GraphSnapshotChunk> chunks = FrontierClient.chunks("g", 3, edges, 1, weighted, FrontierClient.CHUNK_EDGES);
            assertEquals((edges.size() + FrontierClient.CHUNK_EDGES - 1) / FrontierClient.CHUNK_EDGES, chunks.size());
            int e = 0;
            for (GraphSnapshotChunk sent : chunks) {
                byte[] bytes = FrontierCodec.encode(sent);
                assertTrue(bytes.length < 1 << 20, "chunk " + sent.getChunkIndex() + ": " + bytes.length + " bytes");
                GraphSnapshotChunk c = FrontierCodec.decode(bytes, GraphSnapshotChunk.class);
                assertEquals(edges.size(), c.getEdgeCount());
                int[] s = PackedArrays.toIntArray(c.getEdges().getSources()), t = PackedArrays.toIntArray(c.getEdges().getTargets());
                double[] w = PackedArrays.toDoubleArray(c.getEdges().getWeights());
                assertEquals(weighted ? s.length : 0, w.length, "weights only when weighted");
                for (int i = 0; i < s.length; i++, e++) {
                    String where = "edge " + e + " (seed " + SEED + ", weighted " + weighted + ")";
                    assertEquals(edges.sources()[e] + 1, s[i], where);
                    assertEquals(edges.targets()[e] + 1, t[i], where);
                    if (weighted) assertEquals(edges.weights()[e], w[i], where);
                }
            }
            assertEquals(edges.size(), e, "every edge sent once, none of the arrays' spare room");
        }
    }

    @Test
    void snapshotEdgesMustFitTheirArrays() {
        int[] ids = new int[3];
        assertThrows(IllegalArgumentException.class, () -> new SnapshotEdges(4, true, 4, ids, ids, new double[3]));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotEdges(4, true, 3, ids, ids, new double[2]));
        assertThrows(IllegalArgumentException.class, () -> new SnapshotEdges(-1, true, 0, ids, ids, new double[3]));
        assertThrows(IllegalArgumentException.class, () -> SnapshotEdges.of(4, true, ids, new int[2], new double[3]));
        assertEquals(3, SnapshotEdges.of(4, true, ids, ids, new double[3]).size());
    }

    /** {@code m} random edges (weights 1..100) on {@code n} vertices, in arrays with {@code spare} unused entries more. */
    private static SnapshotEdges randomEdges(int n, int m, int spare) {
        Random random = new Random(SEED);
        int[] s = new int[m + spare], t = new int[m + spare];
        double[] w = new double[m + spare];
        for (int i = 0; i < s.length; i++) {
            s[i] = random.nextInt(n);
            t[i] = random.nextInt(n);
            w[i] = 1 + random.nextInt(100);
        }
        return new SnapshotEdges(n, true, m, s, t, w);
    }
}
