package org.frontiergraph.worker.processing;

import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.worker.subscription.SubscriptionService;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.query.QueryAnswer;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * Applies one type of record of the graphs topic. The processor decodes a record, finds the handler of its class,
 * checks the record's key against {@link #graphId}, and turns what the handler throws or reports as rejected into
 * error events; a handler only applies the record and reports what it produced.
 */
interface RecordHandler<T extends SpecificRecord> {
    Class<T> type();

    /** The graph the record belongs to: its key must be this id. */
    String graphId(T record);

    /** The query the record asks, for its error events; null for records that are not queries. */
    default String queryId(T record) {
        return null;
    }

    /** Whether a replay (rebuilding a partition's graphs from the log) applies such records; queries were answered already. */
    default boolean replays() {
        return true;
    }

    /** Applies {@code record}, read at {@code in}; throws RejectedException to refuse it. */
    void handle(T record, InputRecord in, Output out);

    /** What handling one record produced; the processor turns it into the outputs to publish. */
    interface Output {
        /** A graph version became current. */
        void loaded(GraphEntry entry);

        /** A tombstone dropped a graph. */
        void dropped(GraphRegistry.Dropped dropped);
        /** A snapshot version refused for good (GRAPH_TOO_LARGE): reported as a REJECTED status with the reason. */
        void refused(String graphId, long version, int vertexCount, long edgeCount, String reason);

        /** A rejection that does not stop the record: an older version it abandoned. */
        void rejected(RejectedException e);

        /**
         * A query to answer on the graph's current version: now, or together with the other queries of its run
         * (before any later record of the partition is applied); its answer comes back through {@link #answered}.
         */
        void ask(GraphQuery query);

        /** A query was answered, or failed with a status. */
        void answered(GraphQuery query, QueryAnswer answer);

        /** Answers pushed to subscribers, and error events about subscriptions. */
        void pushed(SubscriptionService.Pushes pushes);

        /** Whether the record is replayed (rebuilding a partition): state only, nothing is published. */
        boolean replay();
    }
}
