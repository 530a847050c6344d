package org.frontiergraph.worker.processing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.registry.VertexNameTable;
import org.junit.jupiter.api.Test;

/**
 * A compact DELTA push is named from its compact fields as they are ({@link VertexNaming#name}): its {@code nameIds}
 * and {@code names} equal those of the same push in the plain form, whatever form each array took (vertices and
 * parents listed, arrays at an offset, parents and labels relative to their vertices), and its fields stay compact.
 */
class VertexNamingCompactTest {
    private static final long SEED = 31;
    private static final int N = 3000;
    private static final int FIRST = 1;
    private static final VertexNameTable NAMES = VertexNameTable.of(
            java.util.stream.IntStream.range(0, N).mapToObj(i -> "v" + i).toArray(String[]::new), "test");

    private final SplittableRandom random = new SplittableRandom(SEED);

    private static QueryResult.Builder push() {
        return QueryResult.newBuilder().setQueryId("s").setGraphId("g").setStatus(ResultStatus.OK).setFirstVertexId(FIRST)
                .setVertexCount(N).setDelta(true).setReason(PushReason.UPDATE).setSequence(3L);
    }

    /** Ascending distinct ids of the graph, about one in {@code every}. */
    private int[] sparse(int every) {
        return java.util.stream.IntStream.range(FIRST, FIRST + N).filter(v -> random.nextInt(every) == 0).toArray();
    }

    /** Near each vertex (a parent or a label), sometimes -1 (unreachable: no name) or beyond the graph. */
    private int[] near(int[] vertices) {
        int[] out = new int[vertices.length];
        for (int i = 0; i < out.length; i++) {
            int r = random.nextInt(40);
            out[i] = r == 0 ? -1 : r == 1 ? FIRST + N + 5 : Math.max(FIRST, Math.min(FIRST + N - 1, vertices[i] + random.nextInt(-50, 51)));
        }
        return out;
    }

    private double[] distances(int n) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) d[i] = random.nextInt(10) == 0 ? Double.POSITIVE_INFINITY : random.nextInt(1, 100_000);
        return d;
    }

    private static int[] positions(int from, int count) {
        return java.util.stream.IntStream.range(from, from + count).toArray();
    }

    /** Names {@code plain} and its compact copy; returns the copy. */
    private static QueryResult assertNamedAlike(QueryResult plain) {
        QueryResult compact = CompactArrays.compact(QueryResult.newBuilder(plain).build());
        assertTrue(CompactArrays.isCompact(compact));
        VertexNaming.name(plain, NAMES, FIRST);
        VertexNaming.name(compact, NAMES, FIRST);
        assertEquals(PackedArrays.ints(plain.getNameIds()), PackedArrays.ints(compact.getNameIds()), "seed " + SEED);
        assertEquals(plain.getNames(), compact.getNames(), "seed " + SEED);
        assertTrue(plain.getNames().size() > 1);
        assertTrue(CompactArrays.isCompact(compact), "named as it is, still compact");
        assertNull(compact.getVertices());
        assertNull(compact.getParents());
        return compact;
    }

    private static CompactArrays.Form form(QueryResult compact, VertexArray a) {
        ByteBuffer b = (ByteBuffer) compact.get(CompactArrays.field(a));
        return CompactArrays.Form.values()[b.get(b.position())];
    }

    @Test
    void anSsspDeltaOfListedVerticesIsNamedAsItsPlainForm() {
        for (int round = 0; round < 3; round++) {
            int[] vertices = sparse(40);
            QueryResult plain = push().setVertices(PackedArrays.pack(vertices)).setDistances(PackedArrays.pack(distances(vertices.length)))
                    .setParents(PackedArrays.pack(near(vertices))).build();
            QueryResult compact = assertNamedAlike(plain);
            assertEquals(CompactArrays.Form.FROM_VERTEX, form(compact, VertexArray.PARENTS), "parents near their vertices");
        }
    }

    @Test
    void aPushAtAnOffsetIsNamedAsItsPlainForm() {
        int offset = 700, count = 900;
        int[] at = positions(FIRST + offset, count);
        QueryResult bfs = push().setOffset(offset).setHops(PackedArrays.pack(new int[count])).setParents(PackedArrays.pack(near(at))).build();
        assertEquals(CompactArrays.Form.FROM_VERTEX, form(assertNamedAlike(bfs), VertexArray.PARENTS), "parents near their vertices");

        QueryResult cc = push().setOffset(offset).setLabels(PackedArrays.pack(near(at))).build();
        assertNamedAlike(cc);
        QueryResult distancesOnly = push().setOffset(offset).setDistances(PackedArrays.pack(distances(count))).build();
        assertNamedAlike(distancesOnly);
    }

    @Test
    void aListedCcDeltaAndAnEmptyOneAreNamedAsTheirPlainForms() {
        int[] vertices = sparse(7);
        QueryResult cc = push().setVertices(PackedArrays.pack(vertices)).setLabels(PackedArrays.pack(near(vertices))).build();
        assertNamedAlike(cc);

        QueryResult sourceOnly = push().setSource(FIRST + 3).setVertices(PackedArrays.pack(new int[] {FIRST + 9}))
                .setDistances(PackedArrays.pack(new double[] {2})).setParents(PackedArrays.pack(new int[] {FIRST + 3})).build();
        QueryResult compact = CompactArrays.compact(QueryResult.newBuilder(sourceOnly).build());
        VertexNaming.name(compact, NAMES, FIRST);
        assertEquals(List.of("v3", "v9"), compact.getNames());
        assertEquals(Arrays.toString(new int[] {FIRST + 3, FIRST + 9}),
                Arrays.toString(PackedArrays.toIntArray(compact.getNameIds())));
    }
}
