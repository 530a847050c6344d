package org.frontiergraph.schema.codec;

import java.util.Arrays;
import java.util.Locale;

/**
 * How a Frontier message is framed on a topic. Either way the body is the Avro binary encoding of the record.
 * <ul>
 *   <li>{@link #SINGLE_OBJECT}: Avro single-object encoding, {@code C3 01} and the schema's 8-byte CRC-64-AVRO
 *       fingerprint; needs no registry ({@link FrontierCodec}).</li>
 *   <li>{@link #REGISTRY}: the schema registry wire format, byte {@code 00} and the schema's 4-byte big-endian id in a
 *       registry (Confluent Schema Registry's framing, which Apicurio, Karapace and Redpanda serve too).</li>
 * </ul>
 */
public enum Framing {
    SINGLE_OBJECT("single-object"),
    REGISTRY("registry");

    private final String setting;

    Framing(String setting) {
        this.setting = setting;
    }

    /** The name used in settings: {@code single-object} or {@code registry}. */
    public String setting() {
        return setting;
    }

    /** The framing a setting names ({@code single-object} or {@code registry}, any case). */
    public static Framing of(String setting) {
        String s = setting == null ? "" : setting.trim().toLowerCase(Locale.ROOT);
        for (Framing f : values()) {
            if (f.setting.equals(s)) return f;
        }
        throw new IllegalArgumentException("unknown serialization '" + setting + "': expected one of "
                + Arrays.stream(values()).map(Framing::setting).toList());
    }
}
