package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

/** A graph's partition is the one Kafka's producer picks for its id as the record key; -1 while the count is unknown. */
class GraphPartitionerTest {
    @Test
    void theProducersPartitionForTheGraphId() {
        for (int partitions : new int[] {1, 2, 6, 12, 24}) {
            for (String id : new String[] {"ny-0", "ny-11", "road network", "графы", ""}) {
                assertEquals(BuiltInPartitioner.partitionForKey(id.getBytes(StandardCharsets.UTF_8), partitions),
                        GraphPartitioner.partitionOf(id, partitions), id + " over " + partitions);
            }
        }
        assertEquals(-1, GraphPartitioner.partitionOf("ny-0", 0));
    }
}
