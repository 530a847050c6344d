package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.junit.jupiter.api.Test;

class FrontierCodecTest {
    static GraphSnapshotChunk chunk() {
        return GraphSnapshotChunk.newBuilder().setGraphId("g").setVersion(7).setChunkIndex(1).setChunkCount(3)
                .setVertexCount(4).setEdgeCount(5).setDirected(true).setFirstVertexId(1)
                .setEdges(new EdgeBatch(PackedArrays.pack(new int[] {1, 2}), PackedArrays.pack(new int[] {2, 3}),
                        PackedArrays.pack(new double[] {0.5, 36946.0}))).build();
    }

    @Test
    void everyMessageTypeRoundTripsThroughSingleObjectEncoding() throws Exception {
        List<SpecificRecord> messages = List.of(
                chunk(),
                GraphUpdate.newBuilder().setGraphId("g").setBaseVersion(7L)
                        .setReweighted(new EdgeBatch(PackedArrays.pack(new int[] {1}), PackedArrays.pack(new int[] {2}),
                                PackedArrays.pack(new double[] {9.0}))).build(),
                GraphQuery.newBuilder().setQueryId("q").setGraphId("g").setAlgorithm(Algorithm.SSSP).setSource(1)
                        .setTargets(List.of(3, 4)).setResultMode(ResultMode.TARGETS).setDeadlineEpochMs(123L).build(),
                QueryResult.newBuilder().setQueryId("q").setGraphId("g").setStatus(ResultStatus.OK).setBackend("cpu")
                        .setDistances(PackedArrays.pack(new double[] {0.0, Double.POSITIVE_INFINITY}))
                        .setParents(PackedArrays.pack(new int[] {1, -1})).build(),
                ErrorEvent.newBuilder().setSourceTopic("t").setPartition(0).setOffset(9).setCode("X").setReason("r")
                        .setTimestampMs(1).build());
        for (SpecificRecord m : messages) {
            byte[] bytes = FrontierCodec.encode(m);
            assertEquals((byte) 0xC3, bytes[0], "single-object marker");
            assertEquals((byte) 0x01, bytes[1], "single-object marker");
            SpecificRecord back = FrontierCodec.decode(bytes);
            assertInstanceOf(m.getClass(), back);
            assertEquals(m, back, "round trip of " + m.getSchema().getName());
            assertArrayEquals(bytes, FrontierCodec.encode(back));
        }
    }

    @Test
    void packedArraysArriveAsTheirLittleEndianBytes() throws Exception {
        int[] parents = {4, -1, 264_346, 0};
        double[] distances = {0.0, Double.POSITIVE_INFINITY, 803.0, 1e-300};
        QueryResult r = QueryResult.newBuilder().setQueryId("q").setGraphId("g").setStatus(ResultStatus.OK)
                .setOffset(60_000).setVertices(PackedArrays.pack(new int[] {7, 8, 9, 10}))
                .setDistances(PackedArrays.pack(distances)).setParents(PackedArrays.pack(parents))
                .setMstEdges(new EdgeBatch(PackedArrays.pack(new int[] {1}), PackedArrays.pack(new int[] {2}),
                        PackedArrays.pack(new double[0]))).build();
        QueryResult back = FrontierCodec.decode(FrontierCodec.encode(r), QueryResult.class);
        assertArrayEquals(parents, PackedArrays.toIntArray(back.getParents()));
        assertArrayEquals(distances, PackedArrays.toDoubleArray(back.getDistances()));
        assertArrayEquals(new int[] {7, 8, 9, 10}, PackedArrays.toIntArray(back.getVertices()));
        assertEquals(0, back.getMstEdges().getWeights().remaining());
        assertTrue(back.getHops() == null, "absent arrays stay null");
        // the Avro body holds each array as a length (zig-zag varint: 16 bytes -> 0x20) and then the raw bytes
        byte[] body = FrontierCodec.encode(r);
        String hex = java.util.HexFormat.of().formatHex(body);
        assertTrue(hex.contains("20" + "04000000" + "ffffffff" + "9a080400" + "00000000"), hex);
        // an unweighted batch defaults to empty weights
        EdgeBatch unweighted = EdgeBatch.newBuilder().setSources(PackedArrays.pack(new int[] {1}))
                .setTargets(PackedArrays.pack(new int[] {2})).build();
        assertEquals(0, unweighted.getWeights().remaining());
    }

    @Test
    void typeIsToldByFingerprint() throws Exception {
        assertEquals(GraphSnapshotChunk.class, FrontierCodec.typeOf(FrontierCodec.encode(chunk())));
        assertThrows(FrontierCodec.MalformedMessageException.class,
                () -> FrontierCodec.decode(FrontierCodec.encode(chunk()), GraphQuery.class));
    }

    @Test
    void malformedInputGetsAReasonNotACrash() {
        byte[] good = FrontierCodec.encode(chunk());
        String empty = assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierCodec.decode(new byte[0])).getMessage();
        assertTrue(empty.contains("shorter"), empty);
        String json = assertThrows(FrontierCodec.MalformedMessageException.class,
                () -> FrontierCodec.decode("{\"graphId\":1}".getBytes())).getMessage();
        assertTrue(json.contains("C3 01"), json);
        byte[] registry = good.clone();
        registry[0] = 0;
        assertTrue(assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierCodec.decode(registry))
                .getMessage().contains("registry"));
        byte[] unknown = good.clone();
        unknown[5] ^= 0x55;
        assertTrue(assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierCodec.decode(unknown))
                .getMessage().contains("fingerprint"));
        byte[] truncated = Arrays.copyOf(good, good.length - 9);
        assertTrue(assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierCodec.decode(truncated))
                .getMessage().contains("GraphSnapshotChunk"));
        assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierCodec.decode(null));
    }

    @Test
    void aDeclaredLengthBeyondTheBoundIsRefusedBeforeAnythingIsAllocated() {
        // a GraphQuery header, then a queryId whose length prefix declares 2,147,483,638 bytes: 16 bytes in all
        byte[] header = Arrays.copyOf(FrontierCodec.encode(GraphQuery.newBuilder().setQueryId("q").setGraphId("g")
                .setAlgorithm(Algorithm.BFS).build()), 10);
        byte[] bomb = Arrays.copyOf(header, 16);
        byte[] length = {(byte) 0xec, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};   // zig-zag varint of 2^31 - 10
        System.arraycopy(length, 0, bomb, 10, length.length);
        bomb[15] = 'x';
        String reason = assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierCodec.decode(bomb)).getMessage();
        assertTrue(reason.contains("exceeds maximum allowed"), reason);
    }

    /** A GraphUpdate written before addedVertexCount existed (the log keeps it forever) still reads, as 0 vertices added. */
    @Test
    void updatesWrittenWithTheEarlierSchemaStillRead() throws Exception {
        Schema v1;
        try (InputStream in = FrontierCodec.class.getResourceAsStream("/org/frontiergraph/schema/history/GraphUpdate-1.avsc")) {
            v1 = new Schema.Parser().parse(in);
        }
        assertTrue(v1.getField("addedVertexCount") == null);
        Schema batch = v1.getField("reweighted").schema().getTypes().get(1);
        GenericRecord b = new GenericData.Record(batch);
        b.put("sources", PackedArrays.pack(new int[] {1}));
        b.put("targets", PackedArrays.pack(new int[] {2}));
        b.put("weights", PackedArrays.pack(new double[] {3.5}));
        GenericRecord old = new GenericData.Record(v1);
        old.put("graphId", "g");
        old.put("reweighted", b);
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);
        byte[] message = new byte[bytes.remaining()];
        bytes.get(message);
        GraphUpdate u = FrontierCodec.decode(message, GraphUpdate.class);
        assertEquals("g", u.getGraphId());
        assertEquals(0, u.getAddedVertexCount());
        assertArrayEquals(new double[] {3.5}, PackedArrays.toDoubleArray(u.getReweighted().getWeights()));
    }

    /**
     * The codec writes a record into an array of exactly its size (counted first): the bytes must be those of Avro's
     * own single-object encoder, also for packed arrays that are slices (non-zero position) of larger buffers and for
     * an answer chunk of megabytes.
     */
    @Test
    void encodingIsAvrosOwnBytesForSlicedAndLargeBuffers() throws Exception {
        double[] dist = new double[100_000];
        int[] parents = new int[100_000];
        for (int i = 0; i < dist.length; i++) {
            dist[i] = i * 0.5;
            parents[i] = i - 1;
        }
        ByteBuffer sliced = PackedArrays.pack(dist);
        sliced.position(8 * 1_000);   // a view that starts inside its array
        QueryResult big = QueryResult.newBuilder().setQueryId("q-\u00e9").setGraphId("g").setStatus(ResultStatus.OK)
                .setBackend("cpu").setChunkIndex(2).setChunkCount(5).setOffset(1_000).setVertexCount(100_000)
                .setDistances(sliced).setParents(PackedArrays.pack(parents, 1_000, 100_000)).build();
        BinaryMessageEncoder<QueryResult> avro = QueryResult.getEncoder();
        for (SpecificRecord m : List.of(big, chunk())) {
            ByteBuffer expected = m instanceof QueryResult q ? avro.encode(q) : GraphSnapshotChunk.getEncoder().encode((GraphSnapshotChunk) m);
            byte[] want = new byte[expected.remaining()];
            expected.get(want);
            byte[] got = FrontierCodec.encode(m);
            assertArrayEquals(want, got, m.getSchema().getName());
        }
        assertEquals(8 * 1_000, sliced.position(), "encoding leaves the buffer's position alone");
        QueryResult back = FrontierCodec.decode(FrontierCodec.encode(big), QueryResult.class);
        assertArrayEquals(Arrays.copyOfRange(dist, 1_000, 100_000), PackedArrays.toDoubleArray(back.getDistances()));
        assertArrayEquals(Arrays.copyOfRange(parents, 1_000, 100_000), PackedArrays.toIntArray(back.getParents()));
    }

    /**
     * Avro 1.12 refuses classes it does not trust: the codec trusts every record and enum the message schemas name, so
     * a client JVM started without {@code -Dorg.apache.avro.SERIALIZABLE_PACKAGES} (these tests have it) decodes a
     * push holding each nested type ({@link UntrustedJvmProbe}).
     */
    @Test
    void aJvmWithoutTheTrustPropertyDecodesEveryNestedType() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"), UntrustedJvmProbe.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe finished");
        assertEquals(0, p.exitValue(), out);
    }
}
