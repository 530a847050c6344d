package org.frontiergraph.schema.codec;

import java.nio.ByteBuffer;
import org.frontiergraph.schema.QueryResult;

/**
 * The answer fields of a {@code QueryResult} that readers print without knowing the algorithm: the summary numbers
 * and the per-vertex arrays, each in the order the JSON writer prints them. An algorithm whose answer reuses these
 * fields needs no reader change; a new answer field is one constant here beside its line in {@code QueryResult.avsc}
 * ({@code AnswerFieldsTest} fails for a field of the schema that is placed nowhere).
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
}
