package org.frontiergraph.worker.errors;

import java.util.Optional;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.WideGraphException;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;

/**
 * Every code the worker puts on the errors topic ({@code ErrorEvent.code}; the schema's doc and docs/contract.md
 * list them, ErrorCodeTest keeps the three in step). A code that can fail a query also names the status of the
 * {@code QueryResult} that answers it, a {@link ResultStatus} symbol of the same name.
 */
public enum ErrorCode {
    /** Not Avro single-object encoded, an unknown schema fingerprint, a truncated body, or a type that does not belong on the graphs topic. */
    MALFORMED_RECORD(null),
    /** The record's key differs from its graphId (a query keyed so still gets a QueryResult with this status). */
    INVALID_KEY(ResultStatus.INVALID_KEY),
    /** No complete version of the graph on this worker. */
    UNKNOWN_GRAPH(ResultStatus.UNKNOWN_GRAPH),
    /** A vertex id outside the graph's range (an edge, a source, a target). */
    INVALID_VERTEX(ResultStatus.INVALID_VERTEX),
    /** A vertex name its graph has no vertex of (a source, a target, an edge's end), or names on a graph loaded without them. */
    UNKNOWN_NAME(ResultStatus.UNKNOWN_NAME),
    /** A negative, NaN or infinite weight. */
    INVALID_WEIGHT(null),
    /** Snapshot chunks that disagree on their header, whose packed edge arrays are malformed, or that do not add up to its edge count. */
    INVALID_SNAPSHOT(null),
    /** A snapshot version abandoned because a newer one began before all its chunks arrived, or because it grew too old. */
    INCOMPLETE_SNAPSHOT(null),
    /** A snapshot version not newer than the current one, or an update whose base version is not the current one. */
    STALE_VERSION(null),
    /** An update that removes or re-weights an edge the graph does not have, or whose packed edge arrays are malformed or differ in length. */
    INVALID_UPDATE(null),
    /** An update whose updateId is among the last frontier.update-dedup-window ids applied to its graph: a retry, not applied again. */
    DUPLICATE_UPDATE(null),
    /** More than this worker or backend holds: frontier.max-vertices / max-edges, the snapshot buffer, the heap budget, APSP's limit. */
    GRAPH_TOO_LARGE(ResultStatus.GRAPH_TOO_LARGE),
    /** A query without an id, source or targets it needs, or naming an unknown backend. */
    INVALID_QUERY(ResultStatus.INVALID_QUERY),
    /** A variant or backend this worker does not have. */
    UNSUPPORTED(ResultStatus.UNSUPPORTED),
    /** A query that reached the worker after its deadline. */
    DEADLINE_EXCEEDED(ResultStatus.DEADLINE_EXCEEDED),
    /** A subscription beyond frontier.max-subscriptions-per-graph (its END push carries this status). */
    TOO_MANY_SUBSCRIPTIONS(ResultStatus.TOO_MANY_SUBSCRIPTIONS),
    /** A cancel naming a subscription the graph does not have. */
    UNKNOWN_SUBSCRIPTION(ResultStatus.UNKNOWN_SUBSCRIPTION),
    /**
     * More than this worker may produce or hold for it: an answer record larger than the producer's max.request.size,
     * a standing answer beyond the memory model (frontier.max-subscriptions, the heap budget).
     */
    RESOURCE_EXHAUSTED(ResultStatus.RESOURCE_EXHAUSTED),
    /** An output the cluster refused for good (not authorized on its topic, invalid): replaced by this event, never retried. */
    OUTPUT_REFUSED(null),
    /**
     * Records of the graphs topic a rebuild needed were deleted by retention before it read them: one event for the
     * partition (no graph id) and one per graph known to be lost or stale; the partition is rebuilt from what remains.
     */
    RECORDS_LOST(null),
    /** A failure of the worker itself (logged with its stack trace). */
    INTERNAL_ERROR(ResultStatus.INTERNAL_ERROR);

    private final ResultStatus resultStatus;

    ErrorCode(ResultStatus resultStatus) {
        this.resultStatus = resultStatus;
    }

    /** The status of the QueryResult of a query that fails with this code; empty for codes no query fails with. */
    public Optional<ResultStatus> resultStatus() {
        return Optional.ofNullable(resultStatus);
    }

    /**
     * The code of a failure: a rejection's own code, the engine's exceptions by their meaning (an invalid graph by
     * its kind), an undecodable record MALFORMED_RECORD, running out of memory GRAPH_TOO_LARGE (more than this
     * worker holds), an operation that needs int32 arcs asked of a graph held in the wide form GRAPH_TOO_LARGE,
     * anything else INTERNAL_ERROR.
     */
    public static ErrorCode of(Throwable e) {
        if (e instanceof RejectedException r) return r.code();
        if (e instanceof OutOfMemoryError) return GRAPH_TOO_LARGE;
        if (e instanceof FrontierCodec.MalformedMessageException) return MALFORMED_RECORD;
        if (e instanceof GraphTooLargeException || e instanceof WideGraphException) return GRAPH_TOO_LARGE;
        if (e instanceof UnsupportedVariantException) return UNSUPPORTED;
        if (e instanceof InvalidGraphException g) {
            return switch (g.kind()) {
                case INVALID_VERTEX -> INVALID_VERTEX;
                case INVALID_WEIGHT -> INVALID_WEIGHT;
                case TOO_LARGE -> GRAPH_TOO_LARGE;
                case INVALID_EDGE -> INVALID_UPDATE;
            };
        }
        return INTERNAL_ERROR;
    }
}
