package org.frontiergraph.schema.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import org.frontiergraph.schema.EdgeBatch;

/**
 * The contract's packed arrays: an Avro {@code bytes} field holding int32 (4 bytes an element) or float64 (IEEE 754,
 * 8 bytes an element) values, little-endian, back to back; the element count is the length divided by 4 or 8.
 * Hops, parents, distances, result vertices and every {@code EdgeBatch} field travel this way, so neither side
 * makes an object per element: {@link #pack} copies a range of a Java array into a buffer in one bulk copy (or
 * gathers listed positions), and {@link #ints}/{@link #doubles} read a received buffer in place.
 *
 * <p>Buffers made here are little-endian heap buffers, position 0, limit = length, ready to set on a record. Readers
 * accept any buffer (Avro hands back big-endian ones, perhaps not at position 0): they read position..limit as
 * little-endian and never move the caller's position.
 */
public final class PackedArrays {
    /** Bytes of a packed int32 element. */
    public static final int INT32_BYTES = Integer.BYTES;
    /** Bytes of a packed float64 element. */
    public static final int FLOAT64_BYTES = Double.BYTES;

    private PackedArrays() {}

    // ---- writing ----

    /** All of {@code values}, packed. */
    public static ByteBuffer pack(int[] values) {
        return pack(values, 0, values.length);
    }

    /** {@code values[from .. to-1]}, packed (one bulk copy). */
    public static ByteBuffer pack(int[] values, int from, int to) {
        ByteBuffer b = int32Buffer(to - from);
        b.asIntBuffer().put(values, from, to - from);
        return b;
    }

    /** {@code values[at[i]]} for {@code i} in {@code from .. to-1}, packed: a gathered slice. */
    public static ByteBuffer pack(int[] values, int[] at, int from, int to) {
        ByteBuffer b = int32Buffer(to - from);
        for (int i = from; i < to; i++) b.putInt(values[at[i]]);
        return b.flip();
    }

    /** All of {@code values}, packed. */
    public static ByteBuffer pack(double[] values) {
        return pack(values, 0, values.length);
    }

    /** {@code values[from .. to-1]}, packed (one bulk copy). */
    public static ByteBuffer pack(double[] values, int from, int to) {
        ByteBuffer b = float64Buffer(to - from);
        b.asDoubleBuffer().put(values, from, to - from);
        return b;
    }

    /** {@code values[at[i]]} for {@code i} in {@code from .. to-1}, packed: a gathered slice. */
    public static ByteBuffer pack(double[] values, int[] at, int from, int to) {
        ByteBuffer b = float64Buffer(to - from);
        for (int i = from; i < to; i++) b.putDouble(values[at[i]]);
        return b.flip();
    }

    /**
     * An {@code EdgeBatch} of these arrays, packed as they are (user ids; {@code weights} empty for an unweighted
     * batch or a removal). The worker checks that the lengths agree.
     */
    public static EdgeBatch edgeBatch(int[] sources, int[] targets, double[] weights) {
        return new EdgeBatch(pack(sources), pack(targets), pack(weights));
    }

    /**
     * An empty little-endian buffer for {@code count} int32 values, for values computed one by one: fill it with
     * {@code putInt}, then {@code flip()} it.
     */
    public static ByteBuffer int32Buffer(int count) {
        return allocate(count, INT32_BYTES);
    }

    /** As {@link #int32Buffer}, for {@code count} float64 values ({@code putDouble}, then {@code flip()}). */
    public static ByteBuffer float64Buffer(int count) {
        return allocate(count, FLOAT64_BYTES);
    }

    private static ByteBuffer allocate(int count, int width) {
        if (count < 0) throw new IllegalArgumentException("negative element count " + count);
        return ByteBuffer.allocate(Math.multiplyExact(count, width)).order(ByteOrder.LITTLE_ENDIAN);
    }

    // ---- reading ----

    /** The number of int32 values in {@code packed}. @throws MalformedArrayException when not a multiple of 4 bytes */
    public static int intCount(ByteBuffer packed) {
        return count(packed, INT32_BYTES, "int32");
    }

    /** The number of float64 values in {@code packed}. @throws MalformedArrayException when not a multiple of 8 bytes */
    public static int doubleCount(ByteBuffer packed) {
        return count(packed, FLOAT64_BYTES, "float64");
    }

    /**
     * The int32 values of {@code packed} in place: a little-endian view of its position..limit, nothing copied
     * ({@code get(i)} is element i). @throws MalformedArrayException when the length is not a multiple of 4
     */
    public static IntBuffer ints(ByteBuffer packed) {
        intCount(packed);
        return packed.duplicate().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    }

    /** The float64 values of {@code packed} in place (see {@link #ints}). @throws MalformedArrayException */
    public static DoubleBuffer doubles(ByteBuffer packed) {
        doubleCount(packed);
        return packed.duplicate().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
    }

    /** The int32 values of {@code packed} as a new array. @throws MalformedArrayException */
    public static int[] toIntArray(ByteBuffer packed) {
        int n = intCount(packed);
        if (n <= SMALL && packed.hasArray()) {   // an update's one or two ids: no views
            byte[] b = packed.array();
            int[] out = new int[n];
            for (int i = 0, p = packed.arrayOffset() + packed.position(); i < n; i++, p += INT32_BYTES) {
                out[i] = (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
            }
            return out;
        }
        IntBuffer view = packed.duplicate().order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] out = new int[view.remaining()];
        view.get(out);
        return out;
    }

    /** Arrays of at most this many values are read straight from a heap buffer's bytes. */
    private static final int SMALL = 16;

    /** The float64 values of {@code packed} as a new array. @throws MalformedArrayException */
    public static double[] toDoubleArray(ByteBuffer packed) {
        DoubleBuffer view = doubles(packed);
        double[] out = new double[view.remaining()];
        view.get(out);
        return out;
    }

    /** Copies the int32 values of {@code packed} into {@code into} from index {@code at}; returns how many. */
    public static int copy(ByteBuffer packed, int[] into, int at) {
        IntBuffer view = ints(packed);
        int n = view.remaining();
        view.get(into, at, n);
        return n;
    }

    /** Copies the float64 values of {@code packed} into {@code into} from index {@code at}; returns how many. */
    public static int copy(ByteBuffer packed, double[] into, int at) {
        DoubleBuffer view = doubles(packed);
        int n = view.remaining();
        view.get(into, at, n);
        return n;
    }

    private static int count(ByteBuffer packed, int width, String type) {
        int bytes = packed.remaining();
        if (bytes % width != 0) {
            throw new MalformedArrayException("a packed " + type + " array of " + bytes + " bytes: not a multiple of "
                    + width + " (" + type + " little-endian, " + width + " bytes an element)");
        }
        return bytes / width;
    }

    /** A packed array whose length is not a whole number of elements. */
    public static final class MalformedArrayException extends IllegalArgumentException {
        public MalformedArrayException(String message) {
            super(message);
        }
    }
}
