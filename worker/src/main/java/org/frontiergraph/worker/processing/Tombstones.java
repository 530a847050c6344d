package org.frontiergraph.worker.processing;

import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.Ids;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * A tombstone: a record of the graphs topic with a key and no value (Kafka's null value, the form compaction and
 * every Kafka tool know as "delete this key"). It drops the graph its key names: memory freed, pending versions and
 * the deduplication window forgotten, subscriptions ended at the next flush, a DROPPED GraphStatus published. A
 * replay applies it too, so a rebuild of the partition ends without the graph (docs/contract.md, "Dropping a graph").
 */
final class Tombstones {
    private final GraphRegistry registry;

    Tombstones(GraphRegistry registry) {
        this.registry = registry;
    }

    /** Drops the graph {@code in}'s key names; UNKNOWN_GRAPH when this worker holds nothing of it. */
    void handle(InputRecord in, RecordHandler.Output out) {
        String graphId = in.key();
        if (graphId == null || graphId.isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_KEY, "a record with no value (a tombstone) drops the graph its key names; "
                    + "this one has no key");
        }
        Ids.require("record key", graphId, ErrorCode.INVALID_KEY);
        GraphRegistry.Dropped d = registry.drop(graphId, in.partition(), in.where()).orElseThrow(() -> new RejectedException(
                ErrorCode.UNKNOWN_GRAPH, "tombstone of graph '" + graphId + "': nothing to drop: " + registry.whyUnknown(graphId)));
        out.dropped(d);
    }
}
