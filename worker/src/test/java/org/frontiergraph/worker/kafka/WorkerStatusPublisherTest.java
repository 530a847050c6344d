package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.frontiergraph.schema.WorkerGraph;
import org.frontiergraph.schema.WorkerPartition;
import org.frontiergraph.schema.WorkerStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.junit.jupiter.api.Test;

/** A worker's status: its owned partitions with lag, its graphs by id, bounded to fit a record. */
class WorkerStatusPublisherTest {
    static WorkerGraph graph(String id) {
        return WorkerGraph.newBuilder().setGraphId(id).setVersion(1_795_000_000_000L).setPartition(3).setVertexCount(10)
                .setEdgeCount(20).setBackend("cpu").setResidentBytes(1_000).build();
    }

    @Test
    void partitionsCarryTheirLagAndGraphsComeById() throws Exception {
        GraphConsumer.Status c = new GraphConsumer.Status(GraphConsumer.State.RUNNING, false, Set.of(4, 1, 3), Set.of(3), 10, 0, null, true);
        WorkerStatus s = WorkerStatusPublisher.build("w1", 5, 10_000, c, Map.of(1, 0L, 4, 12L),
                List.of(graph("b"), graph("a")), 1 << 19);
        assertEquals(List.of(1, 3, 4), s.getPartitions().stream().map(WorkerPartition::getPartition).toList());
        assertEquals(List.of(0L, -1L, 12L), s.getPartitions().stream().map(WorkerPartition::getLag).toList(), "3: not known yet");
        assertEquals(List.of(false, true, false), s.getPartitions().stream().map(WorkerPartition::getRebuilding).toList());
        assertEquals(List.of("a", "b"), s.getGraphs().stream().map(WorkerGraph::getGraphId).toList());
        assertEquals("RUNNING", s.getState());
        assertEquals(false, s.getReady());
        assertEquals(s, FrontierCodec.decode(FrontierCodec.encode(s)), "a record of the contract");
    }

    @Test
    void theGraphListIsBoundedAndTheRestCounted() throws Exception {
        List<WorkerGraph> many = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) many.add(graph(String.format("graph-with-a-long-name-%06d", i)));
        int bound = 1 << 19;   // half of Kafka's default max.request.size
        GraphConsumer.Status c = new GraphConsumer.Status(GraphConsumer.State.RUNNING, true, Set.of(0), Set.of(), 10, 0, null, true);
        WorkerStatus s = WorkerStatusPublisher.build("w1", 5, 10_000, c, Map.of(), many, bound);
        assertTrue(s.getGraphs().size() > 1_000 && s.getGraphs().size() < many.size(), s.getGraphs().size() + " listed");
        assertEquals(many.size(), s.getGraphs().size() + s.getGraphsOmitted());
        assertTrue(FrontierCodec.encode(s).length <= bound, "the record fits its bound: " + FrontierCodec.encode(s).length);
        assertEquals("graph-with-a-long-name-000000", s.getGraphs().get(0).getGraphId(), "the first by id are listed");
    }
}
