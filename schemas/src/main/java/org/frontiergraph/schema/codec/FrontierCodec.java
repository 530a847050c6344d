package org.frontiergraph.schema.codec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.WorkerStatus;

/**
 * Avro single-object encoding for every Frontier message: bytes {@code C3 01}, the schema's 8-byte CRC-64-AVRO
 * fingerprint (little-endian), then the Avro binary body. The fingerprint names the record type, so one topic can
 * carry snapshots, updates and queries and a consumer needs no schema registry.
 */
public final class FrontierCodec {
    private static final byte MAGIC_0 = (byte) 0xC3;
    private static final byte MAGIC_1 = (byte) 0x01;
    private static final int HEADER = 10;

    private static final Map<Long, Class<? extends SpecificRecord>> BY_FINGERPRINT = new HashMap<>();
    private static final Map<Class<?>, BinaryMessageDecoder<?>> DECODERS = new HashMap<>();
    /** Every earlier schema registered, by its history file's name. */
    private static final Map<String, Schema> HISTORY = new TreeMap<>();

    /** The longest string a message may declare (ids, names, reasons): Avro allocates by the declared length. */
    public static final int MAX_STRING_BYTES = 1 << 20;
    /** The longest bytes field a message may declare: bounds what one hostile length prefix can allocate. */
    public static final int MAX_BYTES_LENGTH = 64 << 20;

    static {
        boundDeclaredLengths();
        trustOurPackage();
        register(GraphSnapshotChunk.class, GraphSnapshotChunk.getClassSchema(), GraphSnapshotChunk.getDecoder());
        register(GraphUpdate.class, GraphUpdate.getClassSchema(), GraphUpdate.getDecoder());
        register(GraphQuery.class, GraphQuery.getClassSchema(), GraphQuery.getDecoder());
        register(QueryResult.class, QueryResult.getClassSchema(), QueryResult.getDecoder());
        register(LatencyEvent.class, LatencyEvent.getClassSchema(), LatencyEvent.getDecoder());
        register(ErrorEvent.class, ErrorEvent.getClassSchema(), ErrorEvent.getDecoder());
        register(GraphStatus.class, GraphStatus.getClassSchema(), GraphStatus.getDecoder());
        register(Subscription.class, Subscription.getClassSchema(), Subscription.getDecoder());
        register(WorkerStatus.class, WorkerStatus.getClassSchema(), WorkerStatus.getDecoder());
        registerHistory();
    }

    private FrontierCodec() {}

    /**
     * Makes Avro 1.12 trust the contract's classes (done once, by loading this class). Call it at start-up before
     * building records whose builders fill defaults (e.g. {@code GraphQuery.newBuilder()...build()} without a
     * result mode): Avro checks the enum classes of defaults too. Equivalent to
     * {@code -Dorg.apache.avro.SERIALIZABLE_PACKAGES=org.frontiergraph.schema}.
     */
    public static void trust() {
        // the static initializer did the work
    }

    /**
     * Avro allocates a string or bytes field by the length its prefix declares, so a 16-byte record declaring a 2 GB
     * string exhausts the heap. Bound them (unless set already; Avro reads these once, on first use). Collections
     * need nothing: Avro 1.12 grows them as items arrive, within a share of the heap.
     */
    private static void boundDeclaredLengths() {
        if (System.getProperty("org.apache.avro.limits.string.maxLength") == null) {
            System.setProperty("org.apache.avro.limits.string.maxLength", Integer.toString(MAX_STRING_BYTES));
        }
        if (System.getProperty("org.apache.avro.limits.bytes.maxLength") == null) {
            System.setProperty("org.apache.avro.limits.bytes.maxLength", Integer.toString(MAX_BYTES_LENGTH));
        }
    }

    /**
     * Avro 1.12 refuses to instantiate classes it does not trust; trust the contract's generated classes: every record
     * and enum the message schemas name (a type added to a schema is trusted with it).
     */
    private static void trustOurPackage() {
        ClassSecurityValidator.Builder ours = ClassSecurityValidator.builder();
        Set<String> named = new TreeSet<>();
        for (Schema m : List.of(GraphSnapshotChunk.getClassSchema(), GraphUpdate.getClassSchema(), GraphQuery.getClassSchema(),
                QueryResult.getClassSchema(), LatencyEvent.getClassSchema(), ErrorEvent.getClassSchema(),
                GraphStatus.getClassSchema(), Subscription.getClassSchema(), WorkerStatus.getClassSchema())) {
            namedTypes(m, named);
        }
        for (String name : named) {
            try {
                ours.add(Class.forName(name, false, FrontierCodec.class.getClassLoader()));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("schema type " + name + " has no generated class", e);
            }
        }
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(ClassSecurityValidator.getGlobal(), ours.build()));
    }

    /** The full names of the records and enums {@code s} holds, itself included, into {@code into}. */
    static void namedTypes(Schema s, Set<String> into) {
        switch (s.getType()) {
            case RECORD -> {
                if (!into.add(s.getFullName())) return;
                for (Schema.Field f : s.getFields()) namedTypes(f.schema(), into);
            }
            case ENUM, FIXED -> into.add(s.getFullName());
            case UNION -> s.getTypes().forEach(t -> namedTypes(t, into));
            case ARRAY -> namedTypes(s.getElementType(), into);
            case MAP -> namedTypes(s.getValueType(), into);
            default -> { }
        }
    }

    private static <T extends SpecificRecord> void register(Class<T> type, Schema schema, BinaryMessageDecoder<T> decoder) {
        BY_FINGERPRINT.put(SchemaNormalization.parsingFingerprint64(schema), type);
        DECODERS.put(type, decoder);
    }

    /** Where the earlier schemas of the message types are: {@code <Type>-<n>.avsc}, n = 1, 2, ... */
    public static final String HISTORY_FOLDER = "/org/frontiergraph/schema/history/";

    /**
     * The earlier versions of every message type's schema (kept in {@link #HISTORY_FOLDER} by the schemas build,
     * whenever a fingerprint changes): records written with one are still read, resolved to the current schema (new
     * fields take their defaults). Logs are kept forever, so old records stay valid. Each type's files are read in
     * order, {@code <Type>-1.avsc}, {@code -2} ..., up to the first number that is missing.
     */
    private static void registerHistory() {
        for (Class<? extends SpecificRecord> type : new ArrayList<>(BY_FINGERPRINT.values())) {
            for (int n = 1; ; n++) {
                String file = type.getSimpleName() + "-" + n + ".avsc";
                Schema earlier = readHistory(file);
                if (earlier == null) break;
                if (!earlier.getFullName().equals(type.getName())) {
                    throw new IllegalStateException("schema history file " + file + " holds " + earlier.getFullName());
                }
                decoder(type).addSchema(earlier);
                BY_FINGERPRINT.put(SchemaNormalization.parsingFingerprint64(earlier), type);
                HISTORY.put(file, earlier);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends SpecificRecord> BinaryMessageDecoder<T> decoder(Class<T> type) {
        return (BinaryMessageDecoder<T>) DECODERS.get(type);
    }

    /** The schema in history file {@code file}, or null when there is no such file. */
    private static Schema readHistory(String file) {
        try (var in = FrontierCodec.class.getResourceAsStream(HISTORY_FOLDER + file)) {
            return in == null ? null : new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read schema history file " + file, e);
        }
    }

    /** The earlier schemas the codec reads, by history file name ({@code QueryResult-2.avsc}, ...). */
    public static Map<String, Schema> history() {
        return Collections.unmodifiableMap(HISTORY);
    }

    private static final Map<Schema, BinaryMessageEncoder<SpecificRecord>> ENCODERS = new java.util.concurrent.ConcurrentHashMap<>();

    /** Encodes any generated Frontier record. */
    public static byte[] encode(SpecificRecord record) {
        try {
            // one encoder per schema: making one computes the schema's canonical form and fingerprint (tens of
            // microseconds, once per output record before); Avro's message encoders are thread-safe
            BinaryMessageEncoder<SpecificRecord> encoder =
                    ENCODERS.computeIfAbsent(record.getSchema(), schema -> new BinaryMessageEncoder<>(SpecificData.get(), schema));
            // written twice: counted (a bytes field of megabytes counts in O(1)), then into an array of exactly that
            // size, so an answer chunk's packed arrays are copied once here (Avro's own encode(record) copies them
            // into a growing buffer, then into a ByteBuffer, and that was copied into the array again)
            Counting counted = new Counting();
            encoder.encode(record, counted);
            Exact out = new Exact(counted.count);
            encoder.encode(record, out);
            return out.array();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + record.getSchema().getName(), e);
        }
    }

    /** Counts the bytes written to it. */
    private static final class Counting extends java.io.OutputStream {
        long count;

        @Override public void write(int b) { count++; }
        @Override public void write(byte[] b, int off, int len) { count += len; }
    }

    /** Writes into an array of the size counted first; a record that wrote another size is a bug here. */
    private static final class Exact extends java.io.OutputStream {
        private final byte[] bytes;
        private int at;

        Exact(long size) {
            if (size > Integer.MAX_VALUE - 8) throw new IllegalStateException("record of " + size + " bytes");
            bytes = new byte[(int) size];
        }

        @Override public void write(int b) { bytes[at++] = (byte) b; }
        @Override public void write(byte[] b, int off, int len) {
            System.arraycopy(b, off, bytes, at, len);
            at += len;
        }

        byte[] array() {
            if (at != bytes.length) throw new IllegalStateException("record wrote " + at + " bytes, counted " + bytes.length);
            return bytes;
        }
    }

    /** The record type named by a message's fingerprint header. */
    public static Class<? extends SpecificRecord> typeOf(byte[] message) throws MalformedMessageException {
        if (message == null) throw new MalformedMessageException("record has no value (null)");
        if (message.length < HEADER) {
            throw new MalformedMessageException("record is " + message.length + " bytes, shorter than the 10-byte Avro single-object header");
        }
        if (message[0] == 0x00) {
            throw new MalformedMessageException("record starts with 0x00: schema-registry framing, not Avro single-object encoding"
                    + " (C3 01 + fingerprint); a reader with frontier.serialization.read=registry reads both");
        }
        if (message[0] != MAGIC_0 || message[1] != MAGIC_1) {
            throw new MalformedMessageException(String.format(
                    "record starts with %02X %02X, not the Avro single-object marker C3 01", message[0] & 0xff, message[1] & 0xff));
        }
        long fp = ByteBuffer.wrap(message, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        Class<? extends SpecificRecord> type = BY_FINGERPRINT.get(fp);
        if (type == null) {
            throw new MalformedMessageException(String.format("unknown schema fingerprint %016x (not a Frontier message type)", fp));
        }
        return type;
    }

    /** The message type whose schema has the full name {@code fullName} (a writer's schema from a registry). */
    static Class<? extends SpecificRecord> messageType(String fullName) throws MalformedMessageException {
        for (Class<? extends SpecificRecord> type : DECODERS.keySet().stream().map(FrontierCodec::messageClass).toList()) {
            if (type.getName().equals(fullName)) return type;
        }
        throw new MalformedMessageException("the registry's schema is " + fullName + ", not a Frontier message type");
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends SpecificRecord> messageClass(Class<?> type) {
        return (Class<? extends SpecificRecord>) type;
    }

    /** Decodes a message of any Frontier type. */
    public static SpecificRecord decode(byte[] message) throws MalformedMessageException {
        Class<? extends SpecificRecord> type = typeOf(message);
        try {
            return (SpecificRecord) DECODERS.get(type).decode(message);
        } catch (BadHeaderException e) {
            throw new MalformedMessageException("bad Avro header: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new MalformedMessageException("cannot decode " + type.getSimpleName() + ": " + describe(e));
        }
    }

    /** Decodes a message that must be of {@code type}. */
    public static <T extends SpecificRecord> T decode(byte[] message, Class<T> type) throws MalformedMessageException {
        SpecificRecord r = decode(message);
        if (!type.isInstance(r)) {
            throw new MalformedMessageException("expected " + type.getSimpleName() + " but got " + r.getClass().getSimpleName());
        }
        return type.cast(r);
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : " (" + m + ")") + " - truncated or corrupt body?";
    }

    /** A message that is not a well-formed Frontier Avro message. */
    public static final class MalformedMessageException extends Exception {
        public MalformedMessageException(String message) {
            super(message);
        }
    }
}
