package org.frontiergraph.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Any Frontier record as one line of JSON: every field of its schema by name, enums by symbol, nested records as
 * objects, and packed arrays (docs/contract.md, "Packed arrays") decoded into JSON arrays: float64 for
 * {@code distances} and {@code weights}, int32 for the others; an infinite or NaN distance is null, as in every
 * answer the CLI prints.
 */
final class RecordJson {
    /** The packed fields of float64 elements; every other packed field holds int32. */
    private static final Set<String> FLOAT64 = Set.of("distances", "weights");

    private RecordJson() {}

    /** {@code record} as one line. */
    static void writeLine(SpecificRecord record, Writer out) throws IOException {
        try (JsonGenerator g = JsonAnswer.generator(out)) {
            write(g, record);
        }
        out.write('\n');
        out.flush();
    }

    private static void write(JsonGenerator g, SpecificRecord r) throws IOException {
        g.writeStartObject();
        for (Schema.Field f : r.getSchema().getFields()) {
            g.writeFieldName(f.name());
            value(g, f.name(), r.get(f.pos()));
        }
        g.writeEndObject();
    }

    private static void value(JsonGenerator g, String field, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof SpecificRecord r) {
            write(g, r);
        } else if (v instanceof ByteBuffer b) {
            packed(g, field, b);
        } else if (v instanceof List<?> l) {
            g.writeStartArray();
            for (Object x : l) value(g, field, x);
            g.writeEndArray();
        } else if (v instanceof CharSequence || v instanceof Enum<?>) {
            g.writeString(v.toString());
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Double || v instanceof Float) {
            JsonAnswer.number(g, ((Number) v).doubleValue());
        } else if (v instanceof Number n) {
            g.writeNumber(n.longValue());
        } else {
            g.writeString(v.toString());
        }
    }

    private static void packed(JsonGenerator g, String field, ByteBuffer b) throws IOException {
        g.writeStartArray();
        if (FLOAT64.contains(field)) {
            DoubleBuffer d = PackedArrays.doubles(b);
            for (int i = 0; i < d.limit(); i++) JsonAnswer.number(g, d.get(i));
        } else {
            IntBuffer ints = PackedArrays.ints(b);
            for (int i = 0; i < ints.limit(); i++) g.writeNumber(ints.get(i));
        }
        g.writeEndArray();
    }
}
