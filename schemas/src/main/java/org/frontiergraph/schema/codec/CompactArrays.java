package org.frontiergraph.schema.codec;

import java.nio.ByteBuffer;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.PackedArrays.MalformedArrayException;

/**
 * Compact arrays (docs/contract.md, "Compact arrays"): the vertex list and per-vertex arrays of a chunk in a few bytes
 * an element where the plain packed form takes 4 or 8. A compact array is a form byte, the element count as an
 * unsigned LEB128 varint, then the elements:
 * <ul>
 *   <li>{@link Form#RAW}: the plain packed bytes (int32 or float64 little-endian), for values no other form holds
 *       exactly (distances that are not whole numbers);</li>
 *   <li>{@link Form#VALUES}: each element as a zig-zag varint;</li>
 *   <li>{@link Form#GAPS}: each element's difference from the previous one (the first: from 0) as a zig-zag varint:
 *       ascending vertex ids take a byte or two each;</li>
 *   <li>{@link Form#FROM_VERTEX} (int32 arrays of a chunk's vertices): each element's difference from the vertex at the
 *       same position (the listed vertex, or {@code firstVertexId + offset + i}) as a zig-zag varint: a parent or a
 *       label near its vertex.</li>
 * </ul>
 * A float64 array in {@code VALUES} or {@code GAPS} holds whole numbers below 2^53 in magnitude and +Infinity: each
 * element is varint 0 for +Infinity, else 1 + the zig-zag of the value ({@code GAPS}: of its difference from the
 * previous finite one). The writers take the smallest form of each array: {@link #putVertices}, {@link #putInts} and
 * {@link #putReals} from arrays (the worker's DELTA pushes), {@link #compact} for a chunk already holding the plain
 * fields (the same bytes); readers decode any form ({@link #expand}).
 */
public final class CompactArrays {
    private CompactArrays() {}

    /** How the elements of a compact array are written (its first byte is the ordinal). */
    public enum Form { RAW, VALUES, GAPS, FROM_VERTEX }

    /** The schema's field of the compact vertex list. */
    public static final String VERTICES = "compactVertices";

    /** The schema's field of {@code a}'s compact form. */
    public static String field(VertexArray a) {
        return "compact" + Character.toUpperCase(a.field.charAt(0)) + a.field.substring(1);
    }

    /** Largest magnitude a float64 in a varint form may have: every whole number up to it is exact. */
    private static final double EXACT = 0x1p53;

    /**
     * Moves {@code chunk}'s vertex list and per-vertex arrays from the plain fields to the compact ones, each in its
     * smallest form. Returns the chunk.
     */
    public static QueryResult compact(QueryResult chunk) {
        int[] at = positions(chunk);
        if (chunk.getVertices() != null) putVertices(chunk, at);
        for (VertexArray a : VertexArray.values()) {
            ByteBuffer plain = a.in(chunk);
            if (plain == null) continue;
            if (a.real) putReals(chunk, a, PackedArrays.toDoubleArray(plain));
            else putInts(chunk, a, PackedArrays.toIntArray(plain), at);
        }
        return chunk;
    }

    /**
     * Sets {@code chunk}'s compact vertex list to {@code ids} (user ids, in the chunk's order) and clears the plain one:
     * what {@link #compact} writes for the same plain list, for a writer that holds the ids in an array.
     */
    public static void putVertices(QueryResult chunk, int[] ids) {
        chunk.put(VERTICES, ints(ids, null));
        chunk.setVertices(null);
    }

    /**
     * Sets {@code a}'s compact array (int32 elements) to {@code values} and clears its plain one, as {@link #compact}
     * does; {@code at}: the vertex (user id) at each position, for {@link Form#FROM_VERTEX} on arrays of ids.
     */
    public static void putInts(QueryResult chunk, VertexArray a, int[] values, int[] at) {
        chunk.put(field(a), ints(values, a.ids ? at : null));
        chunk.put(a.field, null);
    }

    /** Sets {@code a}'s compact array (float64 elements) to {@code values} and clears its plain one, as {@link #compact} does. */
    public static void putReals(QueryResult chunk, VertexArray a, double[] values) {
        chunk.put(field(a), reals(values));
        chunk.put(a.field, null);
    }

    /**
     * Moves {@code chunk}'s compact fields to the plain ones, in place (a chunk without them is left as it is), so that
     * a reader of plain packed arrays reads it. Returns the chunk. @throws MalformedArrayException for a malformed one
     */
    public static QueryResult expand(QueryResult chunk) {
        ByteBuffer listed = (ByteBuffer) chunk.get(VERTICES);
        if (listed != null) {
            chunk.setVertices(PackedArrays.pack(toInts(listed, null)));
            chunk.put(VERTICES, null);
        }
        int[] at = null;
        for (VertexArray a : VertexArray.values()) {
            ByteBuffer c = (ByteBuffer) chunk.get(field(a));
            if (c == null) continue;
            if (!a.real && at == null) at = positions(chunk);
            chunk.put(a.field, a.real ? PackedArrays.pack(toReals(c)) : PackedArrays.pack(toInts(c, at)));
            chunk.put(field(a), null);
        }
        return chunk;
    }

    /** Whether {@code chunk} holds a compact field. */
    public static boolean isCompact(QueryResult chunk) {
        if (chunk.get(VERTICES) != null) return true;
        for (VertexArray a : VertexArray.values()) if (chunk.get(field(a)) != null) return true;
        return false;
    }

    /** The bytes of {@code chunk}'s compact fields. */
    public static long bytes(QueryResult chunk) {
        long n = remaining((ByteBuffer) chunk.get(VERTICES));
        for (VertexArray a : VertexArray.values()) n += remaining((ByteBuffer) chunk.get(field(a)));
        return n;
    }

    private static long remaining(ByteBuffer b) {
        return b == null ? 0 : b.remaining();
    }

    /**
     * The vertex (user id) at each position of {@code chunk}'s arrays: the plain vertex list, or
     * {@code firstVertexId + offset + i} up to the longest int32 array when none is listed.
     */
    private static int[] positions(QueryResult chunk) {
        if (chunk.getVertices() != null) return PackedArrays.toIntArray(chunk.getVertices());
        int n = 0;
        for (VertexArray a : VertexArray.values()) {
            if (a.in(chunk) != null) n = Math.max(n, a.count(chunk));
            ByteBuffer c = (ByteBuffer) chunk.get(field(a));
            if (c != null) n = Math.max(n, count(c));
        }
        int[] at = new int[n];
        for (int i = 0; i < n; i++) at[i] = chunk.getFirstVertexId() + chunk.getOffset() + i;
        return at;
    }

    // ---- writing ----

    /**
     * {@code values} (int32) in their smallest form; {@code at}: the vertex at each position, for FROM_VERTEX (null: not
     * tried). One pass sizes every form, a second writes the smallest; each form has its own loop.
     */
    public static ByteBuffer ints(int[] values, int[] at) {
        int n = values.length;
        boolean fromVertexTried = at != null && at.length >= n;
        long raw = 4L * n, asValues = 0, gaps = 0, fromVertex = fromVertexTried ? 0 : Long.MAX_VALUE;
        long prev = 0;
        for (int v : values) {
            asValues += varintBytes(zigZag(v));
            gaps += varintBytes(zigZag(v - prev));
            prev = v;
        }
        if (fromVertexTried) {
            for (int i = 0; i < n; i++) fromVertex += varintBytes(zigZag((long) values[i] - at[i]));
        }
        Form form = smallest(raw, asValues, gaps, fromVertex);
        Writer w = new Writer(form, n, switch (form) {
            case RAW -> raw;
            case VALUES -> asValues;
            case GAPS -> gaps;
            case FROM_VERTEX -> fromVertex;
        });
        switch (form) {
            case RAW -> {
                for (int v : values) w.int32(v);
            }
            case VALUES -> {
                for (int v : values) w.varint(zigZag(v));
            }
            case GAPS -> {
                prev = 0;
                for (int v : values) {
                    w.varint(zigZag(v - prev));
                    prev = v;
                }
            }
            case FROM_VERTEX -> {
                for (int i = 0; i < n; i++) w.varint(zigZag((long) values[i] - at[i]));
            }
        }
        return w.done();
    }

    /** {@code values} (float64) in their smallest exact form. */
    public static ByteBuffer reals(double[] values) {
        int n = values.length;
        long raw = 8L * n, asValues = 0, gaps = 0;
        long prev = 0;
        boolean whole = true;
        for (int i = 0; i < n && whole; i++) {
            double d = values[i];
            if (d == Double.POSITIVE_INFINITY) {
                asValues++;
                gaps++;
            } else if (d == Math.rint(d) && Math.abs(d) <= EXACT && Double.doubleToRawLongBits(d) != Double.doubleToRawLongBits(-0.0)) {
                long v = (long) d;
                asValues += varintBytes(zigZag(v) + 1);
                gaps += varintBytes(zigZag(v - prev) + 1);
                prev = v;
            } else {
                whole = false;
            }
        }
        Form form = whole ? smallest(raw, asValues, gaps, Long.MAX_VALUE) : Form.RAW;
        Writer w = new Writer(form, n, form == Form.RAW ? raw : form == Form.VALUES ? asValues : gaps);
        if (form == Form.RAW) {
            for (double d : values) w.float64(d);
        } else if (form == Form.VALUES) {
            for (double d : values) w.varint(d == Double.POSITIVE_INFINITY ? 0 : zigZag((long) d) + 1);
        } else {
            prev = 0;
            for (double d : values) {
                if (d == Double.POSITIVE_INFINITY) {
                    w.varint(0);
                } else {
                    long v = (long) d;
                    w.varint(zigZag(v - prev) + 1);
                    prev = v;
                }
            }
        }
        return w.done();
    }

    private static Form smallest(long raw, long values, long gaps, long fromVertex) {
        Form best = Form.RAW;
        long bytes = raw;
        if (values < bytes) { best = Form.VALUES; bytes = values; }
        if (gaps < bytes) { best = Form.GAPS; bytes = gaps; }
        if (fromVertex < bytes) best = Form.FROM_VERTEX;
        return best;
    }

    static long zigZag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static int varintBytes(long u) {
        return u == 0 ? 1 : (64 - Long.numberOfLeadingZeros(u) + 6) / 7;
    }

    /** Writes one compact array into a buffer of its exact size. */
    private static final class Writer {
        private final byte[] out;
        private int p;

        Writer(Form form, int n, long elementBytes) {
            out = new byte[Math.toIntExact(1 + varintBytes(n) + elementBytes)];
            out[p++] = (byte) form.ordinal();
            varint(n);
        }

        void varint(long u) {
            while ((u & ~0x7fL) != 0) {
                out[p++] = (byte) ((u & 0x7f) | 0x80);
                u >>>= 7;
            }
            out[p++] = (byte) u;
        }

        void int32(int v) {
            for (int k = 0; k < 4; k++) out[p++] = (byte) (v >>> (8 * k));
        }

        void float64(double d) {
            long bits = Double.doubleToRawLongBits(d);
            for (int k = 0; k < 8; k++) out[p++] = (byte) (bits >>> (8 * k));
        }

        ByteBuffer done() {
            if (p != out.length) throw new IllegalStateException("compact array of " + p + " bytes, sized " + out.length);
            return ByteBuffer.wrap(out);
        }
    }

    // ---- reading ----

    /** The element count of compact array {@code c}. @throws MalformedArrayException */
    public static int count(ByteBuffer c) {
        Reader r = new Reader(c);
        r.form();
        return r.count();
    }

    /**
     * The int32 elements of compact array {@code c}; {@code at}: the vertex at each position (needed by
     * {@link Form#FROM_VERTEX} only). @throws MalformedArrayException
     */
    public static int[] toInts(ByteBuffer c, int[] at) {
        Reader r = new Reader(c);
        Form form = r.form();
        int n = r.count();
        if (form == Form.FROM_VERTEX && (at == null || at.length < n)) {
            throw new MalformedArrayException("a compact array of " + n + " elements relative to their vertices, with "
                    + (at == null ? "no" : at.length) + " vertices");
        }
        int[] out = new int[n];
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long v = switch (form) {
                case RAW -> r.int32();
                case VALUES -> unZigZag(r.varint());
                case GAPS -> prev + unZigZag(r.varint());
                case FROM_VERTEX -> at[i] + unZigZag(r.varint());
            };
            if (v != (int) v) throw new MalformedArrayException("a compact int32 array holds " + v);
            out[i] = (int) v;
            prev = v;
        }
        r.end();
        return out;
    }

    /** The float64 elements of compact array {@code c}. @throws MalformedArrayException */
    public static double[] toReals(ByteBuffer c) {
        Reader r = new Reader(c);
        Form form = r.form();
        int n = r.count();
        if (form == Form.FROM_VERTEX) throw new MalformedArrayException("a float64 array relative to its vertices");
        double[] out = new double[n];
        long prev = 0;
        for (int i = 0; i < n; i++) {
            if (form == Form.RAW) {
                out[i] = Double.longBitsToDouble(r.int64());
                continue;
            }
            long u = r.varint();
            if (u == 0) {
                out[i] = Double.POSITIVE_INFINITY;
                continue;
            }
            long v = unZigZag(u - 1) + (form == Form.GAPS ? prev : 0);
            out[i] = v;
            prev = v;
        }
        r.end();
        return out;
    }

    static long unZigZag(long u) {
        return (u >>> 1) ^ -(u & 1);
    }

    /** Reads a compact array's bytes, refusing what runs past its end. */
    private static final class Reader {
        private final ByteBuffer b;
        private int p;
        private final int end;

        Reader(ByteBuffer c) {
            b = c;
            p = c.position();
            end = c.limit();
        }

        private int next() {
            if (p >= end) throw new MalformedArrayException("a compact array ends inside an element");
            return b.get(p++) & 0xff;
        }

        Form form() {
            int f = next();
            if (f >= Form.values().length) throw new MalformedArrayException("a compact array of unknown form " + f);
            return Form.values()[f];
        }

        int count() {
            long n = varint();
            if (n > end - p) throw new MalformedArrayException("a compact array of " + n + " elements in " + (end - p) + " bytes");
            return (int) n;
        }

        long varint() {
            long u = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = next();
                u |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) return u;
            }
            throw new MalformedArrayException("a varint longer than 10 bytes in a compact array");
        }

        int int32() {
            int v = 0;
            for (int k = 0; k < 4; k++) v |= next() << (8 * k);
            return v;
        }

        long int64() {
            long v = 0;
            for (int k = 0; k < 8; k++) v |= (long) next() << (8 * k);
            return v;
        }

        void end() {
            if (p != end) throw new MalformedArrayException("a compact array with " + (end - p) + " bytes after its elements");
        }
    }
}
