package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.worker.registry.GraphRegistry;

/** An update: applied to the current version, giving the next; a retry (its updateId applied already) is refused. */
final class UpdateHandler implements RecordHandler<GraphUpdate> {
    private final GraphRegistry registry;

    UpdateHandler(GraphRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Class<GraphUpdate> type() { return GraphUpdate.class; }

    @Override
    public String graphId(GraphUpdate u) { return u.getGraphId(); }

    @Override
    public void handle(GraphUpdate u, InputRecord in, Output out) {
        out.loaded(registry.applyUpdate(u, in.partition(), out.replay()));
    }
}
