package org.frontiergraph.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.junit.jupiter.api.Test;

/** What `./frontier graphs` lists from the status topic: the version each graph holds. */
class GraphTableTest {
    static GraphStatus status(String graph, long version, GraphState state) {
        return GraphStatus.newBuilder().setGraphId(graph).setVersion(version).setState(state)
                .setVertexCount(10).setEdgeCount(20).setBackend(state == GraphState.LOADED ? "cpu" : "")
                .setResidentBytes(state == GraphState.LOADED ? 1000 : 0).setWorker("w").setTimestampMs(version)
                .setReason(state == GraphState.REJECTED ? "GRAPH_TOO_LARGE" : null).build();
    }

    static List<String> listed(List<GraphStatus> statuses, boolean all) {
        return GraphTable.rows(statuses, all, 6).stream()
                .map(r -> r.status().getGraphId() + "@" + r.status().getVersion() + ":" + r.status().getState()).toList();
    }

    @Test
    void aRefusedVersionLeavesTheVersionHeldBeforeListed() {
        List<GraphStatus> log = List.of(status("a", 1, GraphState.LOADED), status("b", 1, GraphState.LOADED),
                status("a", 5, GraphState.REJECTED), status("c", 3, GraphState.REJECTED), status("b", 2, GraphState.DROPPED),
                status("d", 1, GraphState.LOADED), status("d", 2, GraphState.LOADED));
        assertEquals(List.of("a@1:LOADED", "d@2:LOADED"), listed(log, false));
        assertEquals(List.of("a@1:LOADED", "b@2:DROPPED", "c@3:REJECTED", "d@2:LOADED"), listed(log, true));
    }
}
