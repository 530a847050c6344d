package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.CompactArrays.Form;
import org.frontiergraph.schema.codec.PackedArrays.MalformedArrayException;
import org.junit.jupiter.api.Test;

/** Compact arrays give back exactly what was written, in the smallest form, through Avro bytes; malformed ones are refused. */
class CompactArraysTest {
    static {
        FrontierCodec.trust();   // before Avro is touched: it reads the codec's length bounds once (ContractFingerprintsTest)
    }

    private static Form form(ByteBuffer c) {
        return Form.values()[c.get(c.position())];
    }

    @Test
    void ascendingIdsAreGapsAndWholeDistancesVarints() {
        int[] ids = {3, 4, 9, 130, 131, 100_000};
        ByteBuffer c = CompactArrays.ints(ids, null);
        assertEquals(Form.GAPS, form(c));
        assertEquals(1 + 1 + 9, c.remaining());   // form, count; gaps 3 1 5 121 1 99869, zig-zagged: 1 1 1 2 1 3 bytes
        assertArrayEquals(ids, CompactArrays.toInts(c, null));

        double[] d = {0, 12, Double.POSITIVE_INFINITY, 1e15, -7};
        ByteBuffer r = CompactArrays.reals(d);
        assertTrue(form(r) == Form.VALUES || form(r) == Form.GAPS);
        assertArrayEquals(d, CompactArrays.toReals(r));
    }

    /** docs/contract.md's example ("Compact arrays"), byte for byte; the Python client's test reads the same bytes. */
    @Test
    void theContractsExample() {
        int[] at = {1000, 1001, 1005};
        assertArrayEquals(new byte[] {2, 3, (byte) 0xD0, 0x0F, 2, 8}, bytes(CompactArrays.ints(at, null)));
        assertArrayEquals(new byte[] {1, 3, 1, 0x19, 0},
                bytes(CompactArrays.reals(new double[] {0, 12, Double.POSITIVE_INFINITY})));
        assertArrayEquals(new byte[] {3, 3, 0, 1, (byte) 0xDB, 0x0F}, bytes(CompactArrays.ints(new int[] {1000, 1000, -1}, at)));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void valuesNoVarintHoldsExactlyStayRaw() {
        for (double odd : new double[] {0.5, -0.0, Double.NaN, Double.NEGATIVE_INFINITY, 0x1p60}) {
            double[] d = {1, odd, 3};
            ByteBuffer r = CompactArrays.reals(d);
            assertEquals(Form.RAW, form(r), "for " + odd);
            double[] back = CompactArrays.toReals(r);
            for (int i = 0; i < d.length; i++) assertEquals(Double.doubleToRawLongBits(d[i]), Double.doubleToRawLongBits(back[i]));
        }
        int[] extremes = {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0};
        assertArrayEquals(extremes, CompactArrays.toInts(CompactArrays.ints(extremes, null), null));
    }

    @Test
    void parentsNearTheirVerticesAreWrittenFromTheVertex() {
        int[] at = {1_000_000, 2_000_000, 3_000_000};
        int[] parents = {1_000_001, 1_999_999, -1};
        ByteBuffer c = CompactArrays.ints(parents, at);
        assertEquals(Form.FROM_VERTEX, form(c));
        assertArrayEquals(parents, CompactArrays.toInts(c, at));
        assertThrows(MalformedArrayException.class, () -> CompactArrays.toInts(c, null));
    }

    @Test
    void aChunkRoundTripsThroughAvroBytesCompact() throws Exception {
        SplittableRandom random = new SplittableRandom(31);
        int n = 5000;
        int[] vertices = random.ints(n, 0, 300_000).sorted().distinct().toArray();
        n = vertices.length;
        int[] parents = new int[n];
        double[] distances = new double[n];
        for (int i = 0; i < n; i++) {
            parents[i] = random.nextInt(8) == 0 ? -1 : vertices[i] + random.nextInt(-50, 50);
            distances[i] = random.nextInt(16) == 0 ? Double.POSITIVE_INFINITY : random.nextInt(0, 5_000_000);
        }
        QueryResult chunk = QueryResult.newBuilder().setQueryId("s").setGraphId("g").setStatus(ResultStatus.OK)
                .setFirstVertexId(1).setVertexCount(300_001).setDelta(true)
                .setVertices(PackedArrays.pack(vertices)).setDistances(PackedArrays.pack(distances)).setParents(PackedArrays.pack(parents))
                .build();
        long plain = FrontierCodec.encode(chunk).length;
        CompactArrays.compact(chunk);
        assertNull(chunk.getVertices());
        assertNull(chunk.getDistances());
        assertTrue(CompactArrays.isCompact(chunk));
        byte[] wire = FrontierCodec.encode(chunk);
        assertTrue(wire.length * 2L < plain, "compact " + wire.length + " bytes against " + plain + " plain");
        QueryResult back = CompactArrays.expand(FrontierCodec.decode(wire, QueryResult.class));
        assertArrayEquals(vertices, PackedArrays.toIntArray(back.getVertices()));
        assertArrayEquals(parents, PackedArrays.toIntArray(back.getParents()));
        assertArrayEquals(distances, PackedArrays.toDoubleArray(back.getDistances()));
        assertTrue(!CompactArrays.isCompact(back));
    }

    @Test
    void aChunkWithoutAListReadsParentsFromItsRange() {
        int[] labels = {10, 10, 12, 12};
        QueryResult chunk = QueryResult.newBuilder().setQueryId("s").setGraphId("g").setStatus(ResultStatus.OK)
                .setFirstVertexId(10).setOffset(0).setVertexCount(4).setLabels(PackedArrays.pack(labels)).build();
        CompactArrays.compact(chunk);
        assertArrayEquals(labels, PackedArrays.toIntArray(CompactArrays.expand(chunk).getLabels()));
    }

    @Test
    void malformedArraysAreRefused() {
        byte[][] bad = {
            {},                                   // no form
            {9, 0},                               // unknown form
            {(byte) Form.VALUES.ordinal(), 3, 2},  // three elements, one there
            {(byte) Form.VALUES.ordinal(), 1, (byte) 0x80},   // a varint cut short
            {(byte) Form.VALUES.ordinal(), 1, 2, 2},          // a byte after the elements
            {(byte) Form.RAW.ordinal(), 1, 1, 2},             // a raw int32 cut short
        };
        for (byte[] b : bad) assertThrows(MalformedArrayException.class, () -> CompactArrays.toInts(ByteBuffer.wrap(b), null));
        byte[] tooBig = {(byte) Form.VALUES.ordinal(), 1, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x10};   // 2^32
        assertThrows(MalformedArrayException.class, () -> CompactArrays.toInts(ByteBuffer.wrap(tooBig), null));
    }
}
