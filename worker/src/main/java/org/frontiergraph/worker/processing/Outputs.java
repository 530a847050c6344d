package org.frontiergraph.worker.processing;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;

/**
 * What processing one record produced, to be published before its offset is committed. The latency event's
 * end-to-end time is filled in once the results are acknowledged.
 */
public final class Outputs {
    public final List<QueryResult> results = new ArrayList<>();
    public final List<ErrorEvent> errors = new ArrayList<>();
    public final List<GraphStatus> statuses = new ArrayList<>();
    public LatencyEvent latency;
    /** Record timestamp of the query, for the end-to-end time. */
    public long queryTimestampMs;

    public boolean isEmpty() {
        return results.isEmpty() && errors.isEmpty() && statuses.isEmpty() && latency == null;
    }
}
