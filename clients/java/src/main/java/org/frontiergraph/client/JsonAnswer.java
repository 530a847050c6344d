package org.frontiergraph.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Writes a result as JSON in the user's vertex ids: {@code {"status":..., "graphVersion":..., "backend":...,
 * "distances": {"<id>": number|null}}} for SSSP, {@code "hops"} for BFS (with {@code "parents"} for both),
 * {@code "totalWeight"}, {@code "components"}, {@code "edges"} for MST, {@code "components"},
 * {@code "largestComponent"} and {@code "labels": {"<id>": label}} for CC (a label is the id of the smallest vertex
 * of the component), and for APSP {@code "distances":
 * {"<source id>": [number|null, ...]}} (one row per source, every vertex in id order). Unreachable vertices are null.
 * An answer asked by name ends with {@code "names": {"<id>": "name"}}: the names of every vertex it mentions (the
 * chunks' {@code nameIds}/{@code names}, docs/contract.md "Vertex names").
 * Written by Jackson's streaming generator, so a large answer is never held as a tree.
 */
public final class JsonAnswer {
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)   // the caller owns the writer (often System.out)
            .build();

    private JsonAnswer() {}

    public static void write(List<QueryResult> chunks, Writer out) throws IOException {
        for (QueryResult c : chunks) CompactArrays.expand(c);
        try (JsonGenerator g = generator(out)) {
            g.writeStartObject();
            header(g, chunks.get(0));
            body(g, chunks);
            names(g, chunks);
            g.writeEndObject();
            g.writeRaw('\n');
        }
        out.flush();
    }

    /**
     * One push of a subscription as one line of JSON: {@code "subscriptionId"}, {@code "graphId"}, {@code "reason"}
     * (INITIAL, UPDATE, RESYNC, END), {@code "sequence"}, {@code "graphVersion"}, {@code "delta"}, {@code "status"},
     * {@code "algorithm"}, {@code "source"}, {@code "vertexCount"} (and {@code "error"} when the subscription failed),
     * then the payload as {@link #write} writes an answer, in user ids: a complete push every vertex, a DELTA push
     * only the vertices that changed ({@code "distances"}, {@code "hops"}, {@code "parents"}), or for MST the forest
     * edges that joined or changed weight ({@code "edges"}) and those that left it ({@code "removedEdges"}, pairs), or
     * for CC the changed vertices' {@code "labels"}; then each push content of {@link AnswerFields.PushContent} the
     * push holds, every chunk's records in one array (CC's {@code "componentChanges": [{"merged": label now, "from":
     * [labels before]}, {"split": label before, "into": [labels now]}]}). Compact arrays are written as the plain
     * ones (each chunk expanded in place, {@link CompactArrays#expand}).
     */
    public static void writePush(List<QueryResult> chunks, Writer out) throws IOException {
        for (QueryResult c : chunks) CompactArrays.expand(c);
        QueryResult h = chunks.get(0);
        try (JsonGenerator g = generator(out)) {
            g.writeStartObject();
            g.writeStringField("subscriptionId", h.getQueryId());
            g.writeStringField("graphId", h.getGraphId());
            g.writeStringField("reason", h.getReason() == null ? null : h.getReason().name());
            if (h.getSequence() != null) g.writeNumberField("sequence", h.getSequence());
            g.writeNumberField("graphVersion", h.getGraphVersion());
            g.writeBooleanField("delta", h.getDelta());
            g.writeStringField("status", h.getStatus().name());
            g.writeStringField("algorithm", h.getAlgorithm() == null ? null : h.getAlgorithm().name());
            if (h.getSource() != null) g.writeNumberField("source", h.getSource());
            g.writeNumberField("vertexCount", h.getVertexCount());
            if (h.getError() != null) g.writeStringField("error", h.getError());
            body(g, chunks);
            boolean removed = chunks.stream().anyMatch(c -> c.getRemovedEdges() != null);
            if (removed) {
                g.writeArrayFieldStart("removedEdges");
                for (QueryResult c : chunks) {
                    if (c.getRemovedEdges() == null) continue;
                    IntBuffer s = PackedArrays.ints(c.getRemovedEdges().getSources()), t = PackedArrays.ints(c.getRemovedEdges().getTargets());
                    for (int i = 0; i < s.limit(); i++) {
                        g.writeStartArray();
                        g.writeNumber(s.get(i));
                        g.writeNumber(t.get(i));
                        g.writeEndArray();
                    }
                }
                g.writeEndArray();
            }
            for (AnswerFields.PushContent p : AnswerFields.PushContent.values()) {
                if (p.in(h) == null) continue;
                g.writeArrayFieldStart(p.field);
                for (QueryResult c : chunks) {
                    if (p.in(c) == null) continue;
                    for (Object r : p.in(c)) record(g, p, (IndexedRecord) r);
                }
                g.writeEndArray();
            }
            names(g, chunks);
            g.writeEndObject();
            g.writeRaw('\n');
        }
        out.flush();
    }

    /** {@code "names": {"<id>": "name"}} of every chunk's name dictionary, when one has any. */
    private static void names(JsonGenerator g, List<QueryResult> chunks) throws IOException {
        java.util.Map<Integer, String> names = names(chunks);
        if (names.isEmpty()) return;
        g.writeObjectFieldStart("names");
        for (java.util.Map.Entry<Integer, String> e : names.entrySet()) g.writeStringField(Integer.toString(e.getKey()), e.getValue());
        g.writeEndObject();
    }

    /** The vertex names the chunks carry (answers asked by name), by id, ascending; empty when none. */
    public static java.util.SortedMap<Integer, String> names(List<QueryResult> chunks) {
        java.util.SortedMap<Integer, String> names = new java.util.TreeMap<>();
        for (QueryResult c : chunks) {
            if (c.getNameIds() == null || c.getNames() == null) continue;
            IntBuffer ids = PackedArrays.ints(c.getNameIds());
            for (int i = 0; i < ids.limit() && i < c.getNames().size(); i++) names.put(ids.get(i), c.getNames().get(i));
        }
        return names;
    }

    /**
     * The summary numbers and the arrays of an answer (or a push), every chunk's, in user ids: the fields of
     * {@link AnswerFields} in their order, then the edges. Distances in row blocks ({@code rows} set: APSP) are a matrix.
     */
    private static void body(JsonGenerator g, List<QueryResult> chunks) throws IOException {
        QueryResult h = chunks.get(0);
        for (AnswerFields.Summary s : AnswerFields.Summary.values()) {
            Number x = s.in(h);
            if (x instanceof Double d) number(g, s.json, d);
            else if (x != null) g.writeNumberField(s.json, x.longValue());
        }
        for (AnswerFields.VertexArray a : AnswerFields.VertexArray.values()) {
            if (a.in(h) == null) continue;
            g.writeObjectFieldStart(a.field);
            if (h.getRows() != null) matrixRows(g, chunks, a);
            else for (QueryResult c : chunks) vertexValues(g, c, a);
            g.writeEndObject();
        }
        if (h.getMstEdges() != null) {
            g.writeArrayFieldStart("edges");
            for (QueryResult c : chunks) {
                EdgeBatch b = c.getMstEdges();
                if (b == null) continue;
                IntBuffer s = PackedArrays.ints(b.getSources()), t = PackedArrays.ints(b.getTargets());
                DoubleBuffer w = PackedArrays.doubles(b.getWeights());
                for (int i = 0; i < s.limit(); i++) {
                    g.writeStartArray();
                    g.writeNumber(s.get(i));
                    g.writeNumber(t.get(i));
                    number(g, w.get(i));
                    g.writeEndArray();
                }
            }
            g.writeEndArray();
        }
    }

    /**
     * A record of push content {@code p} as a JSON object, walked by its schema: each field under its name of
     * {@link AnswerFields.PushContent#jsonNames} (left out when that is null), packed bytes as an array of numbers.
     */
    private static void record(JsonGenerator g, AnswerFields.PushContent p, IndexedRecord r) throws IOException {
        String[] names = p.jsonNames(r);
        g.writeStartObject();
        for (Schema.Field f : r.getSchema().getFields()) {
            if (names[f.pos()] == null) continue;
            g.writeFieldName(names[f.pos()]);
            value(g, f, r.get(f.pos()));
        }
        g.writeEndObject();
    }

    /** A field's value of a push content record: packed bytes an array, numbers as {@link #number}, the rest as text. */
    private static void value(JsonGenerator g, Schema.Field f, Object v) throws IOException {
        if (v == null) g.writeNull();
        else if (v instanceof ByteBuffer b && AnswerFields.PushContent.real(f)) {
            DoubleBuffer d = PackedArrays.doubles(b);
            g.writeStartArray();
            for (int i = 0; i < d.limit(); i++) number(g, d.get(i));
            g.writeEndArray();
        } else if (v instanceof ByteBuffer b) {
            IntBuffer x = PackedArrays.ints(b);
            g.writeStartArray();
            for (int i = 0; i < x.limit(); i++) g.writeNumber(x.get(i));
            g.writeEndArray();
        } else if (v instanceof Double || v instanceof Float) number(g, ((Number) v).doubleValue());
        else if (v instanceof Number n) g.writeNumber(n.longValue());
        else if (v instanceof Boolean x) g.writeBoolean(x);
        else g.writeString(v.toString());
    }

    /** {@code "<id>": value} for each vertex of array {@code a} in chunk {@code c} (none when it lacks the array). */
    private static void vertexValues(JsonGenerator g, QueryResult c, AnswerFields.VertexArray a) throws IOException {
        if (a.in(c) == null) return;
        if (a.real) {
            DoubleBuffer d = PackedArrays.doubles(a.in(c));
            IntBuffer ids = ids(c, d.limit());
            for (int i = 0; i < d.limit(); i++) number(g, Integer.toString(ids.get(i)), d.get(i));
        } else {
            IntBuffer x = PackedArrays.ints(a.in(c));
            IntBuffer ids = ids(c, x.limit());
            for (int i = 0; i < x.limit(); i++) idOrNull(g, Integer.toString(ids.get(i)), x.get(i));
        }
    }

    /**
     * A path of a tree answer (BFS, SSSP): the result's header, {@code "target"}, the target's value under
     * {@code valueName} ({@code "hops"}, {@code "distance"}), and {@code "path"}: the vertex ids from the source to
     * the target.
     */
    public static void writePath(QueryResult head, int[] path, String valueName, double value, Writer out) throws IOException {
        writePath(head, path, valueName, value, java.util.Map.of(), out);
    }

    /** As {@link #writePath(QueryResult, int[], String, double, Writer)}, with {@code "pathNames"} when {@code names} has them. */
    public static void writePath(QueryResult head, int[] path, String valueName, double value, java.util.Map<Integer, String> names,
                                 Writer out) throws IOException {
        try (JsonGenerator g = generator(out)) {
            g.writeStartObject();
            header(g, head);
            g.writeNumberField("target", path[path.length - 1]);
            number(g, valueName, value);
            g.writeArrayFieldStart("path");
            for (int v : path) g.writeNumber(v);
            g.writeEndArray();
            if (!names.isEmpty()) {
                g.writeArrayFieldStart("pathNames");
                for (int v : path) g.writeString(names.get(v));
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeRaw('\n');
        }
        out.flush();
    }

    /** A generator on {@code out} that leaves it open when closed (the other answer formats write JSON through it too). */
    public static JsonGenerator generator(Writer out) throws IOException {
        return JSON.createGenerator(out);
    }

    private static void header(JsonGenerator g, QueryResult h) throws IOException {
        g.writeStringField("queryId", h.getQueryId());
        g.writeStringField("graphId", h.getGraphId());
        g.writeStringField("status", h.getStatus().name());
        g.writeNumberField("graphVersion", h.getGraphVersion());
        g.writeStringField("backend", h.getBackend());
        g.writeStringField("algorithm", h.getAlgorithm() == null ? null : h.getAlgorithm().name());
        if (h.getVariant() != null) g.writeStringField("variant", h.getVariant());
        if (h.getSource() != null) g.writeNumberField("source", h.getSource());
        if (h.getError() != null) g.writeStringField("error", h.getError());
    }

    /**
     * A matrix (APSP's distances): each chunk holds {@code rows} whole rows of array {@code a} from source
     * {@code offset}, {@code vertexCount} values each.
     */
    private static void matrixRows(JsonGenerator g, List<QueryResult> chunks, AnswerFields.VertexArray a) throws IOException {
        for (QueryResult c : chunks) {
            DoubleBuffer d = PackedArrays.doubles(a.in(c));
            int n = c.getVertexCount(), rows = c.getRows();
            for (int r = 0; r < rows; r++) {
                g.writeArrayFieldStart(Integer.toString(c.getFirstVertexId() + c.getOffset() + r));
                for (int i = 0; i < n; i++) number(g, d.get(r * n + i));
                g.writeEndArray();
            }
        }
    }

    /** The user ids of a chunk's {@code len} vertex values: listed (TARGETS) or a dense range (FULL). */
    private static IntBuffer ids(QueryResult c, int len) {
        if (c.getVertices() != null) return PackedArrays.ints(c.getVertices());
        int[] ids = new int[len];
        for (int i = 0; i < len; i++) ids[i] = c.getFirstVertexId() + c.getOffset() + i;
        return IntBuffer.wrap(ids);
    }

    /** Hop counts or vertex ids: negative (unreachable, none) is null. */
    private static void idOrNull(JsonGenerator g, String field, int x) throws IOException {
        g.writeFieldName(field);
        if (x < 0) g.writeNull(); else g.writeNumber(x);
    }

    /** {@code "field": d} as {@link #number(JsonGenerator, double)} writes it. */
    public static void number(JsonGenerator g, String field, double d) throws IOException {
        g.writeFieldName(field);
        number(g, d);
    }

    /** Infinite (unreachable) and NaN are null; whole numbers are written without a fraction ({@code 803}, not {@code 803.0}). */
    public static void number(JsonGenerator g, double d) throws IOException {
        if (Double.isInfinite(d) || Double.isNaN(d)) g.writeNull();
        else if (d == Math.rint(d) && Math.abs(d) < 1e15) g.writeNumber((long) d);
        else g.writeNumber(d);
    }
}
