package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.worker.registry.GraphRegistry;

/** A snapshot chunk: assembled with its version's other chunks; the complete version replaces the current one. */
final class SnapshotHandler implements RecordHandler<GraphSnapshotChunk> {
    private final GraphRegistry registry;

    SnapshotHandler(GraphRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Class<GraphSnapshotChunk> type() { return GraphSnapshotChunk.class; }

    @Override
    public String graphId(GraphSnapshotChunk c) { return c.getGraphId(); }

    @Override
    public void handle(GraphSnapshotChunk c, InputRecord in, Output out) {
        GraphRegistry.Change change = registry.acceptChunk(c, in.partition(), in.offset(), in.timestampMs());
        change.abandoned().forEach(out::rejected);
        change.installed().ifPresent(out::loaded);
    }
}
