package org.frontiergraph.worker.registry;

import org.frontiergraph.kernels.engine.ResidentGraph;

/**
 * One graph held by this worker: its current version, where it came from and where it lives. The record is
 * immutable; the resident graph is shared by consecutive versions (updates change it in place, see
 * {@link org.frontiergraph.kernels.graph.MutableGraph}).
 * {@code snapshotOffset} is the log offset of the first chunk of the snapshot the version grew from (-1: unknown):
 * replaying the partition from there rebuilds it. {@code names}: the vertices' names of a named graph (shared by the
 * versions of its lineage like the resident graph, see {@link VertexNameTable}); null for an unnamed graph.
 */
public record GraphEntry(String graphId, long version, int partition, int firstVertexId, ResidentGraph resident,
                         long snapshotOffset, VertexNameTable names) {
    public int vertexCount() { return resident.mutable().vertexCount(); }

    public long edgeCount() { return resident.mutable().edgeCount(); }

    /** The engine that holds it ("cpu", "gpu"). */
    public String backend() { return resident.backend(); }

    /** Bytes it takes where it is held (device memory for a GPU copy, the heap otherwise). */
    public long residentBytes() { return resident.residentBytes(); }
}
