package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
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

    /**
     * A version refused as GRAPH_TOO_LARGE is also reported as a REJECTED status, once: the registry drops its later
     * chunks without a word.
     */
    @Override
    public void handle(GraphSnapshotChunk c, InputRecord in, Output out) {
        GraphRegistry.Change change;
        try {
            change = registry.acceptChunk(c, in.partition(), in.offset(), in.timestampMs());
        } catch (RejectedException e) {
            if (e.code() == ErrorCode.GRAPH_TOO_LARGE) out.refused(c.getGraphId(), c.getVersion(), c.getVertexCount(), c.getEdgeCount(), e.getMessage());
            throw e;
        }
        change.abandoned().forEach(out::rejected);
        change.installed().ifPresent(out::loaded);
    }
}
