package org.frontiergraph.cli;

import org.frontiergraph.client.SnapshotEdges;
import org.frontiergraph.kernels.graph.EdgeList;

/**
 * The engine's edge lists (loaded, generated) as the client's snapshot edges, the arrays shared, not copied: how the
 * CLI, the end-to-end tests and the benchmarks publish them (frontier-client knows nothing of the engine's types).
 */
public final class Snapshots {
    private Snapshots() {}

    public static SnapshotEdges of(EdgeList edges) {
        return new SnapshotEdges(edges.vertexCount(), edges.directed(), edges.size(), edges.sourcesArray(),
                edges.targetsArray(), edges.weightsArray());
    }
}
