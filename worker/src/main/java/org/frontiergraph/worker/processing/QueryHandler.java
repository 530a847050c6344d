package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;

/**
 * A query: answered on the graph's current version, alone or with the other queries of its run (the processor
 * decides), its vertex names turned into ids first. A replay skips queries (they were answered before).
 */
final class QueryHandler implements RecordHandler<GraphQuery> {
    private final VertexNaming naming;

    QueryHandler(VertexNaming naming) {
        this.naming = naming;
    }

    @Override
    public Class<GraphQuery> type() { return GraphQuery.class; }

    @Override
    public String graphId(GraphQuery q) { return q.getGraphId(); }

    @Override
    public String queryId(GraphQuery q) { return q.getQueryId(); }

    @Override
    public boolean replays() { return false; }

    @Override
    public void handle(GraphQuery q, InputRecord in, Output out) {
        if (q.getQueryId() == null || q.getQueryId().isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "query on graph '" + q.getGraphId() + "' has an empty queryId");
        }
        out.ask(naming.resolve(q));
    }
}
