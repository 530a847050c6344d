package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;

/**
 * The answer to one query: result chunks ready to publish, and the timings the latency event needs.
 * {@code error} is set when the status is not OK (it also goes to the errors topic).
 */
public record QueryAnswer(List<QueryResult> chunks, ResultStatus status, String error, String backend,
                          int vertexCount, long edgeCount, long computeNanos, long copyNanos, long encodeNanos) {
}
