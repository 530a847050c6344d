package org.frontiergraph.worker.registry;

import static org.frontiergraph.worker.support.Fixtures.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Where a rebuild of a partition must start reading: the first chunk of the oldest snapshot still in use there,
 * or of a version still being assembled; nothing to replay when the partition holds no graph.
 */
class RebuildOffsetsTest {
    static final EdgeList EDGES = UniformRandomGraph.generate(50, 200, 3, 9, false);

    @Test
    void rebuildStartsAtTheOldestSnapshotStillInUse() {
        try (Fixtures.Services s = Fixtures.start(Fixtures.cpuConfig())) {
            GraphRegistry r = s.registry();
            List<GraphSnapshotChunk> a = snapshot("a", 1, EDGES, 0, 80);   // 3 chunks
            assertEquals(3, a.size());
            r.acceptChunk(a.get(0), 0, 10);
            r.acceptChunk(a.get(2), 0, 12);
            assertEquals(10, r.rebuildFrom(0, 100), "a version being assembled must be replayed from its first chunk");
            r.acceptChunk(a.get(1), 0, 11);
            r.acceptChunk(snapshot("b", 1, EDGES, 0, 1_000).get(0), 0, 5);
            r.acceptChunk(snapshot("c", 1, EDGES, 0, 1_000).get(0), 1, 3);
            assertEquals(5, r.rebuildFrom(0, 100));
            assertEquals(3, r.rebuildFrom(1, 100));
            assertEquals(100, r.rebuildFrom(2, 100), "an empty partition needs nothing replayed");

            // a newer snapshot of b supersedes the one at offset 5; an update keeps its version's snapshot offset
            r.acceptChunk(snapshot("b", 2, EDGES, 0, 1_000).get(0), 0, 30);
            assertEquals(10, r.rebuildFrom(0, 100));
            int v = r.get("a").orElseThrow().resident().graph().columns()[0];
            r.applyUpdate(GraphUpdate.newBuilder().setGraphId("a")
                    .setReweighted(Fixtures.weighted(0, v, 2.0)).build(), 0);
            assertEquals(10, r.rebuildFrom(0, 100));
            r.dropPartitions(List.of(0));
            assertEquals(100, r.rebuildFrom(0, 100));

            // an offset the registry was not told: replay from the beginning
            r.acceptChunk(snapshot("d", 1, EDGES, 0, 1_000).get(0), 2);
            assertEquals(0, r.rebuildFrom(2, 100));
        }
    }
}
