package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.frontiergraph.schema.EdgeBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PackedArraysTest {
    private static final long SEED = 0x5eed_0010L;

    private static String hex(ByteBuffer b) {
        byte[] bytes = new byte[b.remaining()];
        b.duplicate().get(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Test
    void theLayoutIsLittleEndianInt32AndFloat64BackToBack() {
        ByteBuffer ints = PackedArrays.pack(new int[] {1, -1, 0x01020304});
        assertEquals("01000000" + "ffffffff" + "04030201", hex(ints));
        assertEquals(0, ints.position());
        assertEquals(12, ints.limit());
        // 1.0 = 0x3FF0000000000000, +Infinity = 0x7FF0000000000000
        assertEquals("000000000000f03f" + "000000000000f07f", hex(PackedArrays.pack(new double[] {1.0, Double.POSITIVE_INFINITY})));
        ByteBuffer plain = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(7).putInt(-3).flip();
        assertArrayEquals(new int[] {7, -3}, PackedArrays.toIntArray(plain), "any little-endian writer is a valid producer");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 7, 1_000, 60_001})
    void roundTripsOfEveryLengthAndSlice(int n) {
        SplittableRandom r = new SplittableRandom(SEED + n);
        int[] ints = new int[n];
        double[] doubles = new double[n];
        for (int i = 0; i < n; i++) {
            ints[i] = r.nextInt();
            doubles[i] = i % 5 == 0 ? Double.POSITIVE_INFINITY : r.nextDouble() * 1e9;
        }
        assertArrayEquals(ints, PackedArrays.toIntArray(PackedArrays.pack(ints)), "seed " + (SEED + n));
        assertArrayEquals(doubles, PackedArrays.toDoubleArray(PackedArrays.pack(doubles)), "seed " + (SEED + n));
        assertEquals(n, PackedArrays.intCount(PackedArrays.pack(ints)));
        assertEquals(n, PackedArrays.doubleCount(PackedArrays.pack(doubles)));
        int from = n / 3, to = n - n / 4;
        assertArrayEquals(Arrays.copyOfRange(ints, from, to), PackedArrays.toIntArray(PackedArrays.pack(ints, from, to)));
        assertArrayEquals(Arrays.copyOfRange(doubles, from, to),
                PackedArrays.toDoubleArray(PackedArrays.pack(doubles, from, to)));
    }

    @Test
    void gatheredSlicesTakeTheListedPositionsInOrder() {
        int[] values = {10, 11, 12, 13, 14};
        double[] d = {0.5, 1.5, 2.5, 3.5, 4.5};
        int[] at = {4, 0, 2, 2, 1};
        assertArrayEquals(new int[] {12, 12, 11}, PackedArrays.toIntArray(PackedArrays.pack(values, at, 2, 5)));
        assertArrayEquals(new double[] {4.5, 0.5}, PackedArrays.toDoubleArray(PackedArrays.pack(d, at, 0, 2)));
        assertEquals(0, PackedArrays.pack(values, at, 3, 3).remaining());
    }

    /** A short array read straight from a heap buffer's bytes, wherever it starts in them (position, array offset). */
    @Test
    void shortArraysInsideLargerBuffersReadTheirOwnBytes() {
        int[] values = {-1, 0x7fffffff, Integer.MIN_VALUE, 0x01020304, 42};
        byte[] packed = new byte[4 * values.length];
        PackedArrays.pack(values).get(packed);
        byte[] around = new byte[packed.length + 9];
        Arrays.fill(around, (byte) 0x5a);
        System.arraycopy(packed, 0, around, 5, packed.length);
        ByteBuffer positioned = ByteBuffer.wrap(around, 5, packed.length);
        assertArrayEquals(values, PackedArrays.toIntArray(positioned), "position 5 of a larger array");
        assertEquals(5, positioned.position(), "the buffer is not consumed");
        ByteBuffer sliced = ByteBuffer.wrap(around, 5, packed.length).slice();
        assertArrayEquals(values, PackedArrays.toIntArray(sliced), "a slice: array offset 5");
        ByteBuffer direct = ByteBuffer.allocateDirect(packed.length).put(packed).flip();
        assertArrayEquals(values, PackedArrays.toIntArray(direct), "a direct buffer");
    }

    @Test
    void emptyArraysAreZeroBytes() {
        assertEquals(0, PackedArrays.pack(new int[0]).remaining());
        assertEquals(0, PackedArrays.pack(new double[0]).remaining());
        assertArrayEquals(new int[0], PackedArrays.toIntArray(ByteBuffer.allocate(0)));
        assertArrayEquals(new double[0], PackedArrays.toDoubleArray(ByteBuffer.allocate(0)));
        assertEquals(0, PackedArrays.ints(ByteBuffer.allocate(0)).remaining());
    }

    @Test
    void readersTakePositionToLimitOfAnyBufferAndLeaveItAlone() {
        ByteBuffer packed = PackedArrays.pack(new int[] {5, 6, 7});
        // what Avro hands back: a big-endian buffer; here also with something before the array
        ByteBuffer avro = ByteBuffer.allocate(16);
        avro.put(new byte[] {9, 9, 9, 9}).put(packed.duplicate()).flip().position(4);
        assertEquals(ByteOrder.BIG_ENDIAN, avro.order());
        assertArrayEquals(new int[] {5, 6, 7}, PackedArrays.toIntArray(avro));
        assertEquals(7, PackedArrays.ints(avro).get(2));
        assertEquals(4, avro.position(), "the caller's position is kept");
        assertEquals(ByteOrder.BIG_ENDIAN, avro.order(), "the caller's order is kept");
        int[] into = {-1, -1, -1, -1, -1};
        assertEquals(3, PackedArrays.copy(avro, into, 1));
        assertArrayEquals(new int[] {-1, 5, 6, 7, -1}, into);
        double[] dInto = new double[3];
        assertEquals(2, PackedArrays.copy(PackedArrays.pack(new double[] {2.25, -0.0}), dInto, 1));
        assertArrayEquals(new double[] {0, 2.25, -0.0}, dInto);
        assertEquals(-0.0, PackedArrays.doubles(PackedArrays.pack(new double[] {2.25, -0.0})).get(1));
    }

    @Test
    void anEdgeBatchPacksItsThreeArrays() {
        EdgeBatch b = PackedArrays.edgeBatch(new int[] {1, 2}, new int[] {3, 4}, new double[] {0.5, 8});
        assertArrayEquals(new int[] {1, 2}, PackedArrays.toIntArray(b.getSources()));
        assertArrayEquals(new int[] {3, 4}, PackedArrays.toIntArray(b.getTargets()));
        assertArrayEquals(new double[] {0.5, 8}, PackedArrays.toDoubleArray(b.getWeights()));
        assertEquals(0, PackedArrays.edgeBatch(new int[] {1}, new int[] {2}, new double[0]).getWeights().remaining());
    }

    @Test
    void buffersFilledOneByOneAreLittleEndian() {
        ByteBuffer b = PackedArrays.int32Buffer(2).putInt(258).putInt(-2).flip();
        assertEquals("02010000" + "feffffff", hex(b));
        ByteBuffer d = PackedArrays.float64Buffer(1).putDouble(1.0).flip();
        assertEquals("000000000000f03f", hex(d));
        assertThrows(IllegalArgumentException.class, () -> PackedArrays.int32Buffer(-1));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 13})
    void lengthsThatAreNotWholeElementsAreRejectedWithAReason(int bytes) {
        ByteBuffer odd = ByteBuffer.allocate(bytes);
        String m = assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.toIntArray(odd)).getMessage();
        assertTrue(m.contains(bytes + " bytes") && m.contains("multiple of 4"), m);
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.ints(odd));
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.intCount(odd));
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.copy(odd, new int[8], 0));
        String d = assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.toDoubleArray(odd)).getMessage();
        assertTrue(d.contains("multiple of 8"), d);
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.doubleCount(odd));
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.doubles(odd));
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.copy(odd, new double[8], 0));
        // 12 bytes: three int32 values, but not whole float64 values
        assertEquals(3, PackedArrays.intCount(ByteBuffer.allocate(12)));
        assertThrows(PackedArrays.MalformedArrayException.class, () -> PackedArrays.doubleCount(ByteBuffer.allocate(12)));
    }
}
