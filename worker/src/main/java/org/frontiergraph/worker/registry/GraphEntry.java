package org.frontiergraph.worker.registry;

import org.frontiergraph.kernels.engine.ResidentGraph;

/** One graph held by this worker: its current version, where it came from and where it lives. Immutable. */
public record GraphEntry(String graphId, long version, int partition, int firstVertexId, ResidentGraph resident) {
    public int vertexCount() { return resident.graph().vertexCount(); }

    public long edgeCount() { return resident.graph().edgeCount(); }
}
