package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.frontiergraph.schema.QueryResult;
import org.junit.jupiter.api.Test;

/**
 * Every field of {@code QueryResult} is placed: framing (who, which chunk, which vertices), an answer field the
 * readers print without knowing the algorithm ({@link AnswerFields}: summaries, vertex arrays, push content), or a
 * field with a reader of its own (edges). A new answer field fails here until it is placed.
 */
class AnswerFieldsTest {
    private static final Set<String> FRAMING = Set.of("queryId", "graphId", "graphVersion", "algorithm", "variant",
            "status", "error", "backend", "chunkIndex", "chunkCount", "vertexCount", "firstVertexId", "source", "offset",
            "rows", "vertices", "reason", "sequence", "delta");
    /** Read by their own code: edge sets (MST, its DELTA's removed edges), the names of an answer asked by name. */
    private static final Set<String> OWN_READERS = Set.of("mstEdges", "removedEdges", "nameIds", "names");

    @Test
    void everyFieldOfQueryResultIsPlaced() {
        List<String> answer = new ArrayList<>();
        Arrays.stream(AnswerFields.Summary.values()).forEach(s -> answer.add(s.field));
        Arrays.stream(AnswerFields.VertexArray.values()).forEach(a -> answer.add(a.field));
        Arrays.stream(AnswerFields.PushContent.values()).forEach(p -> answer.add(p.field));
        answer.add(CompactArrays.VERTICES);   // the compact forms of the vertex list and the arrays (CompactArrays)
        Arrays.stream(AnswerFields.VertexArray.values()).forEach(a -> answer.add(CompactArrays.field(a)));
        for (Schema.Field f : QueryResult.getClassSchema().getFields()) {
            int places = (FRAMING.contains(f.name()) ? 1 : 0) + (OWN_READERS.contains(f.name()) ? 1 : 0)
                    + (answer.contains(f.name()) ? 1 : 0);
            assertEquals(1, places, "QueryResult." + f.name() + " is placed " + places + " times: a new answer field goes in "
                    + "AnswerFields (schemas/.../codec), a field with a reader of its own in this test's lists");
        }
        for (String name : answer) {
            assertTrue(QueryResult.getClassSchema().getField(name) != null, "AnswerFields names " + name + ", not a field");
        }
    }

    @Test
    void vertexArraysAreBytesAndSummariesNumbers() {
        for (AnswerFields.VertexArray a : AnswerFields.VertexArray.values()) {
            Schema s = QueryResult.getClassSchema().getField(a.field).schema();
            assertTrue(s.getTypes().stream().anyMatch(t -> t.getType() == Schema.Type.BYTES), a.field + " is packed bytes");
            assertTrue(QueryResult.getClassSchema().getField(a.field).doc().contains(a.real ? "float64" : "int32"),
                    a.field + "'s doc names its element type as AnswerFields does");
        }
        for (AnswerFields.Summary n : AnswerFields.Summary.values()) {
            Schema s = QueryResult.getClassSchema().getField(n.field).schema();
            assertTrue(s.getTypes().stream().anyMatch(t -> Set.of(Schema.Type.INT, Schema.Type.LONG, Schema.Type.DOUBLE)
                    .contains(t.getType())), n.field + " is a number");
        }
    }

    @Test
    void pushContentIsAListOfRecordsEachPackedFieldDocumented() {
        for (AnswerFields.PushContent p : AnswerFields.PushContent.values()) {
            Schema list = QueryResult.getClassSchema().getField(p.field).schema().getTypes().stream()
                    .filter(t -> t.getType() == Schema.Type.ARRAY).findFirst()
                    .orElseThrow(() -> new AssertionError(p.field + " is a list"));
            assertEquals(Schema.Type.RECORD, list.getElementType().getType(), p.field + " lists records");
            for (Schema.Field f : list.getElementType().getFields()) {
                if (f.schema().getType() != Schema.Type.BYTES) continue;
                assertTrue(f.doc() != null && (f.doc().contains("int32") || f.doc().contains("float64")),
                        p.field + "." + f.name() + "'s doc names its element type");
            }
        }
    }
}
