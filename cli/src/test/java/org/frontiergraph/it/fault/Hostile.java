package org.frontiergraph.it.fault;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Hostile records for the graphs topic, each with the error code(s) it must be answered with: one error event each,
 * and for a query with an id also a failed QueryResult. Seeded; each record's graph id is its own, so no hostile
 * record touches another's state (the half-snapshot's pending version, the graph a wrong key names, aside).
 */
final class Hostile {
    /** The kinds of record, the codes their one error event may carry, and whether a QueryResult answers it too. */
    enum Kind {
        RANDOM_BYTES(Set.of("MALFORMED_RECORD"), false),
        TRUNCATED_BODY(Set.of("MALFORMED_RECORD"), false),
        /** A valid header (a query's fingerprint) on random bytes: whatever they decode to, one error event. */
        GARBAGE_BODY(null, false),
        WRONG_FINGERPRINT(Set.of("MALFORMED_RECORD"), false),
        REGISTRY_FRAMING(Set.of("MALFORMED_RECORD"), false),
        /** No value: a tombstone, of a graph nobody loaded (its own id): nothing to drop. */
        NULL_VALUE(Set.of("UNKNOWN_GRAPH"), false),
        WRONG_TYPE(Set.of("MALFORMED_RECORD"), false),
        /** 2,147,483,647 chunks declared, one edge sent. */
        BOMB_CHUNK_COUNT(Set.of("INVALID_SNAPSHOT"), false),
        /** 900 million edges declared (under max-edges): far beyond the heap budget. */
        BOMB_EDGE_COUNT(Set.of("GRAPH_TOO_LARGE"), false),
        /** 199,999,999 vertices and one edge: 800 MB to build (the rows' counts, then offsets). */
        BOMB_VERTEX_COUNT(Set.of("GRAPH_TOO_LARGE"), false),
        /** A query whose queryId declares a 2 GB string. */
        BOMB_STRING_LENGTH(Set.of("MALFORMED_RECORD"), false),
        NAN_WEIGHT(Set.of("INVALID_WEIGHT"), false),
        NEGATIVE_WEIGHT(Set.of("INVALID_WEIGHT"), false),
        OUT_OF_RANGE_EDGE(Set.of("INVALID_VERTEX"), false),
        OUT_OF_RANGE_SOURCE(Set.of("INVALID_VERTEX"), true),
        WRONG_KEY_QUERY(Set.of("INVALID_KEY"), true),
        WRONG_KEY_UPDATE(Set.of("INVALID_KEY"), false),
        UNKNOWN_GRAPH_QUERY(Set.of("UNKNOWN_GRAPH"), true),
        UNKNOWN_GRAPH_UPDATE(Set.of("UNKNOWN_GRAPH"), false),
        /** Chunk 0 of 2, the other never sent: dropped when frontier.pending-snapshot-ttl runs out. */
        HALF_SNAPSHOT(Set.of("INCOMPLETE_SNAPSHOT"), false);

        final Set<String> codes;
        final boolean answered;

        Kind(Set<String> codes, boolean answered) {
            this.codes = codes;
            this.answered = answered;
        }

        boolean accepts(String code) {
            return codes == null || codes.contains(code);
        }
    }

    /** One hostile record: its kind, key and value, and the query id a failed QueryResult carries (if any). */
    record Record(Kind kind, String key, byte[] value, String queryId) {}

    private final Random rnd;
    private final String goodGraph;
    private final int goodVertices;

    /** {@code goodGraph}: a graph that exists (with {@code goodVertices} vertices), for wrong keys and bad sources. */
    Hostile(long seed, String goodGraph, int goodVertices) {
        this.rnd = new Random(seed);
        this.goodGraph = goodGraph;
        this.goodVertices = goodVertices;
    }

    Record make(Kind kind, int i) {
        String id = "hostile-" + i;
        return switch (kind) {
            case RANDOM_BYTES -> new Record(kind, id, bytes(rnd.nextInt(64)), null);
            case TRUNCATED_BODY -> {
                byte[] full = FrontierCodec.encode(chunk(id, 1, 3, 1, 0, 1, 2.0));
                yield new Record(kind, id, Arrays.copyOf(full, 10 + rnd.nextInt(full.length - 10)), null);
            }
            case GARBAGE_BODY -> {
                byte[] header = Arrays.copyOf(FrontierCodec.encode(query("x", id, 0)), 10);
                byte[] v = Arrays.copyOf(header, 10 + 1 + rnd.nextInt(80));
                for (int k = 10; k < v.length; k++) v[k] = (byte) rnd.nextInt(256);
                yield new Record(kind, id, v, null);
            }
            case WRONG_FINGERPRINT -> {
                byte[] v = FrontierCodec.encode(query("q-" + id, id, 0));
                for (int k = 2; k < 10; k++) v[k] = (byte) rnd.nextInt(256);
                yield new Record(kind, id, v, null);
            }
            case REGISTRY_FRAMING -> {
                byte[] body = FrontierCodec.encode(query("q-" + id, id, 0));
                byte[] v = new byte[5 + body.length - 10];
                v[0] = 0;
                v[4] = (byte) (1 + rnd.nextInt(100));
                System.arraycopy(body, 10, v, 5, body.length - 10);
                yield new Record(kind, id, v, null);
            }
            case NULL_VALUE -> new Record(kind, id, null, null);
            case WRONG_TYPE -> new Record(kind, id, FrontierCodec.encode(ErrorEvent.newBuilder().setSourceTopic("x")
                    .setPartition(0).setOffset(0).setGraphId(id).setCode("X").setReason("not for the graphs topic")
                    .setTimestampMs(0).build()), null);
            case BOMB_CHUNK_COUNT -> new Record(kind, id, FrontierCodec.encode(chunk(id, Integer.MAX_VALUE, 3, 1, 0, 1, 1.0)), null);
            case BOMB_EDGE_COUNT -> new Record(kind, id, FrontierCodec.encode(chunk(id, 2, 3, 900_000_000L, 0, 1, 1.0)), null);
            case BOMB_VERTEX_COUNT -> new Record(kind, id, FrontierCodec.encode(chunk(id, 1, 199_999_999, 1, 0, 1, 1.0)), null);
            case BOMB_STRING_LENGTH -> {
                byte[] v = Arrays.copyOf(Arrays.copyOf(FrontierCodec.encode(query("x", id, 0)), 10), 16);
                byte[] length = {(byte) 0xec, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};   // zig-zag varint of 2^31 - 10
                System.arraycopy(length, 0, v, 10, length.length);
                v[15] = 'q';
                yield new Record(kind, id, v, null);
            }
            case NAN_WEIGHT -> new Record(kind, id, FrontierCodec.encode(chunk(id, 1, 3, 1, 0, 1, Double.NaN)), null);
            case NEGATIVE_WEIGHT -> new Record(kind, id, FrontierCodec.encode(chunk(id, 1, 3, 1, 0, 1, -1.0 - rnd.nextInt(9))), null);
            case OUT_OF_RANGE_EDGE -> new Record(kind, id, FrontierCodec.encode(chunk(id, 1, 3, 1, 0, 3 + rnd.nextInt(1000), 1.0)), null);
            case OUT_OF_RANGE_SOURCE -> {
                String q = "q-" + id;
                yield new Record(kind, goodGraph, FrontierCodec.encode(query(q, goodGraph, goodVertices + rnd.nextInt(1000))), q);
            }
            case WRONG_KEY_QUERY -> {
                String q = "q-" + id;
                yield new Record(kind, id, FrontierCodec.encode(query(q, goodGraph, 0)), q);
            }
            case WRONG_KEY_UPDATE -> new Record(kind, id, FrontierCodec.encode(GraphUpdate.newBuilder().setGraphId(goodGraph)
                    .setAdded(PackedArrays.edgeBatch(new int[] {0}, new int[] {1}, new double[] {1.0})).build()), null);
            case UNKNOWN_GRAPH_QUERY -> {
                String q = "q-" + id;
                yield new Record(kind, id, FrontierCodec.encode(query(q, id, 0)), q);
            }
            case UNKNOWN_GRAPH_UPDATE -> new Record(kind, id, FrontierCodec.encode(GraphUpdate.newBuilder().setGraphId(id)
                    .setAdded(PackedArrays.edgeBatch(new int[] {0}, new int[] {1}, new double[] {1.0})).build()), null);
            case HALF_SNAPSHOT -> new Record(kind, id, FrontierCodec.encode(chunk(id, 2, 3, 2, 0, 1, 1.0)), null);
        };
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        if (n >= 2 && b[0] == (byte) 0xC3 && b[1] == 0x01) b[1] = 0x02;   // never a valid header by chance
        return b;
    }

    /** Chunk 0 of {@code chunkCount}, one edge (u, v, w) in a {@code vertices}-vertex graph of {@code edges} edges. */
    private static GraphSnapshotChunk chunk(String id, int chunkCount, int vertices, long edges, int u, int v, double w) {
        return GraphSnapshotChunk.newBuilder().setGraphId(id).setVersion(1).setChunkIndex(0).setChunkCount(chunkCount)
                .setVertexCount(vertices).setEdgeCount(edges).setDirected(true).setFirstVertexId(0)
                .setEdges(PackedArrays.edgeBatch(new int[] {u}, new int[] {v}, new double[] {w})).build();
    }

    private static GraphQuery query(String queryId, String graphId, int source) {
        return GraphQuery.newBuilder().setQueryId(queryId).setGraphId(graphId).setAlgorithm(Algorithm.BFS).setSource(source).build();
    }
}
