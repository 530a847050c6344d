package org.frontiergraph.schema.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.schema.codec.FrontierCodec.MalformedMessageException;

/**
 * Reads and writes Frontier messages in the {@link Framing} a deployment chose, per direction
 * ({@code frontier.serialization.read} / {@code .write}).
 * <ul>
 *   <li>Writing with {@link Framing#REGISTRY}: the record's schema is registered under the topic-name strategy's
 *       subject, {@code <topic>-value} (once: ids are cached), and the message is {@code 00}, the id (4 bytes,
 *       big-endian), the Avro body.</li>
 *   <li>Reading with {@link Framing#REGISTRY} takes either framing, as the first byte tells: {@code 00} is registry
 *       framing (the writer's schema is fetched by id, once, and resolved to the contract's current schema),
 *       {@code C3 01} single-object encoding. So a pipeline can move producer by producer. Reading with
 *       {@link Framing#SINGLE_OBJECT} refuses registry-framed records (no registry to ask).</li>
 * </ul>
 * The registry's URL and credentials are client settings, under the names Kafka's Avro serializers read:
 * {@value #URL} and {@value #USER_INFO} ({@code user:password}, HTTP basic authentication).
 */
public final class FrontierSerde {
    /** The client setting that holds the registry's URL. */
    public static final String URL = "schema.registry.url";
    /** The client setting that holds {@code user:password} for the registry (HTTP basic authentication). */
    public static final String USER_INFO = "basic.auth.user.info";
    /** The client setting that says where the credentials come from; only {@code USER_INFO} is supported. */
    public static final String CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    /** A client setting (Java client, CLI): the framing it reads, {@code single-object} (default) or {@code registry}. */
    public static final String READ = "frontier.serialization.read";
    /** A client setting (Java client, CLI): the framing it writes, {@code single-object} (default) or {@code registry}. */
    public static final String WRITE = "frontier.serialization.write";
    private static final Duration REGISTRY_TIMEOUT = Duration.ofSeconds(10);
    private static final byte REGISTRY_MAGIC = 0x00;
    private static final int REGISTRY_HEADER = 5;

    private static final FrontierSerde SINGLE_OBJECT = new FrontierSerde(Framing.SINGLE_OBJECT, Framing.SINGLE_OBJECT, null);

    private final Framing read;
    private final Framing write;
    private final SchemaRegistryClient registry;
    private final Map<Integer, SpecificDatumReader<SpecificRecord>> readers = new ConcurrentHashMap<>();
    private final Map<Schema, SpecificDatumWriter<SpecificRecord>> writers = new ConcurrentHashMap<>();

    private FrontierSerde(Framing read, Framing write, SchemaRegistryClient registry) {
        this.read = read;
        this.write = write;
        this.registry = registry;
    }

    /** Single-object encoding both ways, no registry: what Frontier reads and writes unless configured otherwise. */
    public static FrontierSerde singleObject() {
        return SINGLE_OBJECT;
    }

    /** {@code read} and {@code write} framings; a registry client when either is {@link Framing#REGISTRY}. */
    public static FrontierSerde of(Framing read, Framing write, SchemaRegistryClient registry) {
        if (read == Framing.SINGLE_OBJECT && write == Framing.SINGLE_OBJECT) return SINGLE_OBJECT;
        if (registry == null) throw new IllegalArgumentException("registry framing needs a schema registry (" + URL + ")");
        return new FrontierSerde(read, write, registry);
    }

    /**
     * The serde for {@code read} and {@code write} framings (setting names, {@code single-object} or {@code registry}),
     * with the registry named by the client settings {@code settings} ({@value #URL}, {@value #USER_INFO}).
     */
    public static FrontierSerde of(String read, String write, Map<?, ?> settings) {
        Framing r = Framing.of(read);
        Framing w = Framing.of(write);
        if (r == Framing.SINGLE_OBJECT && w == Framing.SINGLE_OBJECT) return SINGLE_OBJECT;
        Object url = settings.get(URL);
        if (url == null || url.toString().isBlank()) {
            throw new IllegalArgumentException("serialization 'registry' needs the registry's URL in the Kafka client setting "
                    + URL + " (e.g. http://registry:8081)");
        }
        Object source = settings.get(CREDENTIALS_SOURCE);
        if (source != null && !source.toString().isBlank() && !"USER_INFO".equals(source.toString())) {
            throw new IllegalArgumentException(CREDENTIALS_SOURCE + "=" + source + " is not supported: give the credentials in "
                    + USER_INFO + " (user:password)");
        }
        Object userInfo = settings.get(USER_INFO);
        return of(r, w, new SchemaRegistryClient(url.toString(), userInfo == null ? null : userInfo.toString(), REGISTRY_TIMEOUT));
    }

    /**
     * A client's serde, all from its Kafka client settings: the framings {@value #READ} and {@value #WRITE}
     * ({@code single-object} when absent) and the registry ({@value #URL}, {@value #USER_INFO}).
     */
    public static FrontierSerde fromClientSettings(Map<?, ?> settings) {
        Object read = settings.get(READ);
        Object write = settings.get(WRITE);
        return of(read == null ? Framing.SINGLE_OBJECT.setting() : read.toString(),
                write == null ? Framing.SINGLE_OBJECT.setting() : write.toString(), settings);
    }

    public Framing read() {
        return read;
    }

    public Framing write() {
        return write;
    }

    /** The subject a topic's values are registered under (the topic-name strategy). */
    public static String subject(String topic) {
        return topic + "-value";
    }

    /**
     * Registers {@code schema} for {@code topic} now when writing with registry framing (nothing otherwise): a writer
     * that knows its topics and types fails at start-up, not at its first record, when the registry is out of reach.
     */
    public void register(String topic, Schema schema) {
        if (write == Framing.REGISTRY) registry.register(subject(topic), schema);
    }

    /** Encodes {@code record}, a message for {@code topic}, in the write framing. */
    public byte[] encode(String topic, SpecificRecord record) {
        if (write == Framing.SINGLE_OBJECT) return FrontierCodec.encode(record);
        Schema schema = record.getSchema();
        int id = registry.register(subject(topic), schema);
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.write(REGISTRY_MAGIC);
        out.writeBytes(ByteBuffer.allocate(4).putInt(id).array());
        try {
            BinaryEncoder body = EncoderFactory.get().directBinaryEncoder(out, null);
            writers.computeIfAbsent(schema, s -> new SpecificDatumWriter<>(s, SpecificData.get())).write(record, body);
            body.flush();
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + schema.getName(), e);
        }
        return out.toByteArray();
    }

    /** The record type of a message in either framing (a registry-framed one's writer schema is fetched once). */
    public Class<? extends SpecificRecord> typeOf(byte[] message) throws MalformedMessageException {
        if (!registryFramed(message)) return FrontierCodec.typeOf(message);
        return FrontierCodec.messageType(writerSchema(registryId(message)).getFullName());
    }

    /**
     * The writer's schema of registry id {@code id}. An id or schema the registry refuses (a 4xx answer: unknown id,
     * not Avro) makes the record malformed; a registry out of reach or failing stays a {@link
     * SchemaRegistryClient.RegistryException}: the record may be readable later.
     */
    private Schema writerSchema(int id) throws MalformedMessageException {
        try {
            return registry.schema(id);
        } catch (SchemaRegistryClient.RegistryException e) {
            if (e.status() / 100 == 4) throw new MalformedMessageException(e.getMessage());
            throw e;
        }
    }

    /** Decodes a message of any Frontier type, in either framing when reading with {@link Framing#REGISTRY}. */
    public SpecificRecord decode(byte[] message) throws MalformedMessageException {
        if (!registryFramed(message)) return FrontierCodec.decode(message);
        int id = registryId(message);
        SpecificDatumReader<SpecificRecord> reader = readers.get(id);
        if (reader == null) {
            Schema writer = writerSchema(id);
            Class<? extends SpecificRecord> type = FrontierCodec.messageType(writer.getFullName());
            reader = new SpecificDatumReader<>(writer, SpecificData.get().getSchema(type), SpecificData.get());
            readers.put(id, reader);
        }
        try {
            return reader.read(null, DecoderFactory.get().binaryDecoder(message, REGISTRY_HEADER, message.length - REGISTRY_HEADER, null));
        } catch (IOException | RuntimeException e) {
            throw new MalformedMessageException("cannot decode registry-framed " + reader.getExpected().getName() + " (schema id "
                    + id + "): " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        }
    }

    /** Decodes a message that must be of {@code type}. */
    public <T extends SpecificRecord> T decode(byte[] message, Class<T> type) throws MalformedMessageException {
        SpecificRecord r = decode(message);
        if (!type.isInstance(r)) {
            throw new MalformedMessageException("expected " + type.getSimpleName() + " but got " + r.getClass().getSimpleName());
        }
        return type.cast(r);
    }

    /** True for a registry-framed message this serde reads; a single-object reader leaves it to FrontierCodec's refusal. */
    private boolean registryFramed(byte[] message) {
        return read == Framing.REGISTRY && message != null && message.length > 0 && message[0] == REGISTRY_MAGIC;
    }

    private static int registryId(byte[] message) throws MalformedMessageException {
        if (message.length < REGISTRY_HEADER) {
            throw new MalformedMessageException("record is " + message.length
                    + " bytes, shorter than the 5-byte schema-registry header (00 and a schema id)");
        }
        return ByteBuffer.wrap(message, 1, 4).getInt();
    }
}
