package org.frontiergraph.worker.checkpoint;

import static org.frontiergraph.worker.support.Fixtures.assertSameGraph;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A graph held in the wide form (arcs in pages, 64-bit offsets) is checkpointed from its pages: the records are byte
 * for byte those of the same graph indexed by int, and they read back as that graph.
 */
class CheckpointWideTest {
    private static List<CheckpointFormat.Out> write(CsrGraph g, int perChunk) {
        List<CheckpointFormat.Out> out = new ArrayList<>();
        CheckpointFormat.encode(new CheckpointFormat.Taken("g", 0, 1, 500, 3, 40, 1, g, List.of(), null), perChunk, out::add);
        return out;
    }

    @ParameterizedTest(name = "directed {0}, pages of {1} arcs, chunks of {2} edges")
    @CsvSource({"false, 1, 7", "true, 7, 7", "false, 7, 1000", "true, 64, 3", "false, 100000, 64"})
    void aWideGraphRoundTripsAsTheNarrowOne(boolean directed, int pageArcs, int perChunk) throws Exception {
        CsrGraph narrow = GraphBuilder.build(UniformRandomGraph.generate(90, 400, directed ? 11 : 12, 30, directed));
        List<CheckpointFormat.Out> a = write(narrow, perChunk), b = write(narrow.widen(pageArcs), perChunk);
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).key(), b.get(i).key());
            assertArrayEquals(a.get(i).value(), b.get(i).value(), "chunk " + i);
        }
        CheckpointCatalog catalog = new CheckpointCatalog(0, true);
        for (int i = 0; i < b.size(); i++) catalog.add(b.get(i).key(), b.get(i).value(), b.get(i).headers(), i);
        Checkpoint c = catalog.usable(501, new ArrayList<>()).get("g").decode();
        assertEquals(3, c.version());
        assertSameGraph(narrow, c.graph().build(), "read back");
    }
}
