package org.frontiergraph.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.Test;

/** The lines of {@code update --file} and the GraphUpdate records they become. */
class UpdateEditsTest {
    private static UpdateEdits read(String text) throws IOException {
        return UpdateEdits.read(new BufferedReader(new StringReader(text)), "edits.csv");
    }

    private static int[] sources(EdgeBatch b) { return PackedArrays.toIntArray(b.getSources()); }

    private static int[] targets(EdgeBatch b) { return PackedArrays.toIntArray(b.getTargets()); }

    private static double[] weights(EdgeBatch b) { return PackedArrays.toDoubleArray(b.getWeights()); }

    @Test
    void csvAndJsonLinesMixAndKeepTheirOrder() throws IOException {
        List<GraphUpdate> u = read("""
                # a comment, then a blank line

                add-vertices,1
                add, 4, 1, 3.5
                {"op":"add","u":1,"v":3}
                reweight 1 2 9
                remove,1,2
                {"op": "reweight", "u": "2", "v": 3, "w": 0.25}
                """).updates("g");
        assertEquals(3, u.size(), u::toString);
        GraphUpdate first = u.get(0);
        assertEquals("g", first.getGraphId());
        assertEquals(1, first.getAddedVertexCount());
        assertArrayEquals(new int[] {4, 1}, sources(first.getAdded()));
        assertArrayEquals(new int[] {1, 3}, targets(first.getAdded()));
        assertArrayEquals(new double[] {3.5, 1.0}, weights(first.getAdded()), "an addition without a weight weighs 1");
        assertNull(first.getRemoved());
        GraphUpdate second = u.get(1);
        assertArrayEquals(new double[] {9}, weights(second.getReweighted()), "a re-weight after additions: the next record");
        assertArrayEquals(new int[] {1}, sources(u.get(2).getRemoved()));
        assertEquals(0, weights(u.get(2).getRemoved()).length, "removals carry no weights");
        assertArrayEquals(new int[] {2}, sources(u.get(2).getReweighted()));
    }

    @Test
    void anEdgeNamedTwiceInOnePartStartsANewRecord() throws IOException {
        List<GraphUpdate> u = read("reweight,1,2,5\nreweight,2,1,6\nreweight,3,4,1\n").updates("g");
        assertEquals(2, u.size(), "(2, 1) is (1, 2) in an undirected graph: applied after it");
        assertArrayEquals(new double[] {6, 1}, weights(u.get(1).getReweighted()));
    }

    @Test
    void recordsHoldAtMostTheirShareOfEdges() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 10; i++) b.append("add,").append(i).append(',').append(i + 1).append('\n');
        List<GraphUpdate> u = read(b.toString()).updates("g", 4);
        assertEquals(List.of(4, 4, 2), u.stream().map(x -> sources(x.getAdded()).length).toList());
    }

    @Test
    void aBadLineNamesItsNumberAndWhatIsWrong() {
        assertEquals("edits.csv line 2: unknown edit 'delete' (add, remove, reweight, add-vertices or add-vertex)",
                assertThrows(CliFailure.class, () -> read("add,1,2\ndelete,1,2\n")).getMessage());
        assertEquals("edits.csv line 1: reweight takes U,V,W, found 2 field(s)",
                assertThrows(CliFailure.class, () -> read("reweight,1,2")).getMessage());
        assertEquals("edits.csv line 1: weight -3 is not finite and non-negative",
                assertThrows(CliFailure.class, () -> read("add,1,2,-3")).getMessage());
        assertEquals("edits.csv line 1: no \"v\"", assertThrows(CliFailure.class, () -> read("{\"op\":\"remove\",\"u\":1}")).getMessage());
        assertEquals("edits.csv line 1: an empty vertex (an id or a name)",
                assertThrows(CliFailure.class, () -> read("remove,,2")).getMessage());
        assertEquals("edits.csv line 1: add-vertex takes one name: add-vertex,NAME",
                assertThrows(CliFailure.class, () -> read("add-vertex,")).getMessage());
        assertEquals("edits.csv line 3: add-vertices needs a count of at least 1, not 0",
                assertThrows(CliFailure.class, () -> read("\n#\nadd-vertices,0")).getMessage());
    }

    /**
     * A vertex that is not an integer is a name: its edge goes by name (both ends), beside the edges by id, and a named
     * new vertex goes to addedVertexNames; names may hold spaces in a CSV line with commas.
     */
    @Test
    void namesGoByName() throws IOException {
        List<GraphUpdate> u = read("""
                add-vertex,Oak & 3rd
                {"op":"add-vertex","name":"Elm"}
                add,Oak & 2nd,Oak & 3rd,1.5
                add,1,2
                reweight Main Elm 9
                """).updates("g");
        assertEquals(2, u.size(), u::toString);
        GraphUpdate first = u.get(0);
        assertEquals(List.of("Oak & 3rd", "Elm"), first.getAddedVertexNames());
        assertEquals(2, first.getAddedVertexCount());
        assertEquals(List.of("Oak & 2nd"), first.getAddedByName().getSources());
        assertEquals(List.of("Oak & 3rd"), first.getAddedByName().getTargets());
        assertArrayEquals(new double[] {1.5}, PackedArrays.toDoubleArray(first.getAddedByName().getWeights()));
        assertArrayEquals(new int[] {1}, sources(first.getAdded()), "an edge by id stays by id");
        assertEquals(List.of("Main"), u.get(1).getReweightedByName().getSources());
        UpdateEdits all = read("add,1,2\n");
        all.allByName();
        assertEquals(List.of("1"), all.updates("g").get(0).getAddedByName().getSources(), "--names: every vertex a name");
        assertNull(all.updates("g").get(0).getAdded());
    }
}
