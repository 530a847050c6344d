package org.frontiergraph.worker.query;

import java.util.List;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.errors.ErrorCode;

/**
 * The answer to one query: result chunks ready to publish, and the timings the latency event needs.
 * {@code failure} and {@code error} (the reason) are null when the query was answered; otherwise the query failed
 * with that code (which also goes to the errors topic) and the one chunk carries its status. {@code engineNanos}:
 * the wall time of the engine call that answered it (0: none ran for it), which contains {@code computeNanos} (the
 * engine's own timing: device events on the GPU) and {@code copyNanos}.
 */
public record QueryAnswer(List<QueryResult> chunks, ErrorCode failure, String error, String backend,
                          int vertexCount, long edgeCount, long computeNanos, long copyNanos, long encodeNanos, long engineNanos) {
    /** OK, or the status of the failure's code. */
    public ResultStatus status() {
        return failure == null ? ResultStatus.OK : failure.resultStatus().orElseThrow();
    }
}
