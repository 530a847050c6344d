package org.frontiergraph.worker.kafka;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition of the graphs topic that holds a graph's records: every record of a graph is keyed by its id and
 * clients publish with Kafka's default partitioner (murmur2 of the key's UTF-8 bytes, modulo the partition count), so
 * one partition holds a graph's whole log in publication order (docs/contract.md, "Topics"). The one place the
 * worker's UI and the CLI compute it.
 */
public final class GraphPartitioner {
    private GraphPartitioner() {}

    /** The partition of {@code graphId} among {@code partitions}; -1 when the count is not known ({@code <= 0}). */
    public static int partitionOf(String graphId, int partitions) {
        if (partitions <= 0) return -1;
        return Utils.toPositive(Utils.murmur2(graphId.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
