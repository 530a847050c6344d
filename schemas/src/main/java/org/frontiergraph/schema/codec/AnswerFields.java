package org.frontiergraph.schema.codec;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.frontiergraph.schema.QueryResult;

/**
 * The answer fields of a {@code QueryResult} that readers print without knowing the algorithm: the summary numbers,
 * the per-vertex arrays and a standing form's push content, each in the order the JSON writer prints them. An
 * algorithm whose answer reuses these fields needs no reader change; a new answer field is one constant here beside
 * its line in {@code QueryResult.avsc} ({@code AnswerFieldsTest} fails for a field of the schema that is placed
 * nowhere).
 */
public final class AnswerFields {
    private AnswerFields() {}

    /** A summary number of an answer (null when the answer has none), with the name JSON gives it. */
    public enum Summary {
        REACHED("reachedCount", "reached"),
        MAX_HOPS("maxHops", "maxHops"),
        MAX_DISTANCE("maxDistance", "maxDistance"),
        TOTAL_WEIGHT("totalWeight", "totalWeight"),
        COMPONENTS("components", "components"),
        LARGEST_COMPONENT("largestComponent", "largestComponent");

        /** The schema's field. */
        public final String field;
        /** Its name in JSON. */
        public final String json;

        Summary(String field, String json) {
            this.field = field;
            this.json = json;
        }

        /** The number in {@code chunk} (an Integer, Long or Double), or null. */
        public Number in(QueryResult chunk) {
            return (Number) chunk.get(field);
        }
    }

    /**
     * A per-vertex packed array of an answer: int32 (hop counts, labels, vertex ids; negative is none) or float64
     * (distances; +Infinity is unreachable). Its JSON name is the schema's.
     */
    public enum VertexArray {
        HOPS("hops", false, false, false),
        LABELS("labels", false, true, true),
        DISTANCES("distances", true, false, false),
        PARENTS("parents", false, true, false);

        /** The schema's field (and its JSON name). */
        public final String field;
        /** True for float64 elements, false for int32. */
        public final boolean real;
        /** The values are user vertex ids (parents, labels): a reader holding dense positions shifts them. */
        public final boolean ids;
        /** A vertex the answer has not reached yet holds itself (a label: its own component), not none. */
        public final boolean selfWhenNew;

        VertexArray(String field, boolean real, boolean ids, boolean selfWhenNew) {
            this.field = field;
            this.real = real;
            this.ids = ids;
            this.selfWhenNew = selfWhenNew;
        }

        /** The packed array in {@code chunk}, or null. */
        public ByteBuffer in(QueryResult chunk) {
            return (ByteBuffer) chunk.get(field);
        }

        /** The element count of the array in {@code chunk} (0 when absent). */
        public int count(QueryResult chunk) {
            ByteBuffer b = in(chunk);
            return b == null ? 0 : real ? PackedArrays.doubleCount(b) : PackedArrays.intCount(b);
        }
    }

    /**
     * What a DELTA push of a standing form carries beyond vertex arrays and edges: a list of records in each chunk
     * (null in a push without it), which readers concatenate in chunk order (CC: the components that merged or split,
     * in the order of the batches). Readers walk the records by their schema: JSON prints each as an object, a packed
     * {@code bytes} field as an array of numbers (float64 when its doc says so, else int32), an enum as its symbol.
     * With a {@code tag} (an enum field of the record) the tag is not printed and its symbol names the other fields,
     * in schema order ({@link #jsonNames}); without one, every field is printed under its own name.
     */
    public enum PushContent {
        /** CC: {@code {"merged": label now, "from": [labels before]}}, {@code {"split": label before, "into": [labels now]}}. */
        COMPONENT_CHANGES("componentChanges", "kind",
                Map.of("MERGED", List.of("merged", "from"), "SPLIT", List.of("split", "into")));

        /** The schema's field (and its JSON name). */
        public final String field;
        /** The enum field whose symbol names the others in JSON, or null. */
        private final String tag;
        private final Map<String, List<String>> names;

        PushContent(String field, String tag, Map<String, List<String>> names) {
            this.field = field;
            this.tag = tag;
            this.names = names;
        }

        /** The records in {@code chunk}, or null. */
        public List<?> in(QueryResult chunk) {
            return (List<?>) chunk.get(field);
        }

        /** The JSON name of each field of {@code record}, in schema order; null for one JSON leaves out (the tag). */
        public String[] jsonNames(IndexedRecord record) {
            List<Schema.Field> fields = record.getSchema().getFields();
            String[] out = new String[fields.size()];
            List<String> named = tag == null ? null : names.get(String.valueOf(record.get(
                    record.getSchema().getField(tag).pos())));
            int k = 0;
            for (Schema.Field f : fields) {
                if (f.name().equals(tag)) continue;
                out[f.pos()] = named == null ? f.name() : named.get(k++);
            }
            return out;
        }

        /** Whether packed field {@code f} of a record holds float64 elements (its doc says so), else int32. */
        public static boolean real(Schema.Field f) {
            return f.doc() != null && f.doc().contains("float64");
        }
    }
}
