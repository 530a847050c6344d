package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.query.QueryService;

/** A query: answered on the graph's current version. A replay skips queries (they were answered before). */
final class QueryHandler implements RecordHandler<GraphQuery> {
    private final QueryService queries;

    QueryHandler(QueryService queries) {
        this.queries = queries;
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
        out.answered(q, queries.answer(q));
    }
}
