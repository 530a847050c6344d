package org.frontiergraph.worker.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.WorkerGraph;
import org.frontiergraph.schema.WorkerPartition;
import org.frontiergraph.schema.WorkerStatus;
import org.junit.jupiter.api.Test;

/** The cluster view folds the status topic: each worker's latest status, the graph statuses after it, silence. */
class ClusterStateTest {
    static final long INTERVAL = 10_000;
    static final long T = 1_795_000_000_000L;

    static WorkerGraph graph(String id, long version, int partition) {
        return WorkerGraph.newBuilder().setGraphId(id).setVersion(version).setPartition(partition).setVertexCount(10)
                .setEdgeCount(20).setBackend("cpu").setResidentBytes(1_000).build();
    }

    static WorkerStatus worker(String name, long at, boolean ready, List<WorkerPartition> partitions, WorkerGraph... graphs) {
        return WorkerStatus.newBuilder().setWorker(name).setTimestampMs(at).setIntervalMs(INTERVAL).setState("RUNNING")
                .setReady(ready).setPartitions(partitions).setGraphs(List.of(graphs)).build();
    }

    static WorkerPartition partition(int p, long lag) {
        return WorkerPartition.newBuilder().setPartition(p).setLag(lag).setRebuilding(false).build();
    }

    static GraphStatus status(String graph, long version, String worker, long at, GraphState state) {
        return GraphStatus.newBuilder().setGraphId(graph).setVersion(version).setState(state).setVertexCount(11)
                .setEdgeCount(21).setBackend("cpu").setResidentBytes(2_000).setWorker(worker).setTimestampMs(at).build();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> rows(Map<String, Object> view, String key) {
        return (List<Map<String, Object>>) view.get(key);
    }

    static List<String> ids(Map<String, Object> view) {
        return rows(view, "graphs").stream().map(g -> g.get("graphId") + "@" + g.get("worker") + "#" + g.get("version")).toList();
    }

    @Test
    void everyWorkersGraphsPartitionsLagAndReadiness() {
        ClusterState c = new ClusterState(INTERVAL);
        c.accept(worker("w2", T + 500, false, List.of(partition(1, 42)), graph("b", 7, 1)));
        c.accept(worker("w1", T, true, List.of(partition(0, 0), partition(2, -1)), graph("a", 3, 0), graph("c", 1, 2)));
        Map<String, Object> v = c.view(T + 1_000, id -> 9);
        assertEquals(List.of("a@w1#3", "b@w2#7", "c@w1#1"), ids(v));
        List<Map<String, Object>> workers = rows(v, "workers");
        assertEquals(List.of("w1", "w2"), workers.stream().map(w -> w.get("worker")).toList());
        assertEquals(List.of(true, false), workers.stream().map(w -> w.get("ready")).toList());
        assertEquals(42L, ((List<Map<String, Object>>) workers.get(1).get("partitions")).get(0).get("lag"));
        assertEquals(1_000L, workers.get(0).get("heardMsAgo"));
    }

    @Test
    void graphStatusesAfterAWorkersStatusUpdateItUntilTheNext() {
        ClusterState c = new ClusterState(INTERVAL);
        c.accept(worker("w1", T, true, List.of(partition(0, 0)), graph("a", 3, 0), graph("gone", 1, 0)));
        c.accept(status("a", 2, "w1", T - 1, GraphState.LOADED));           // before the worker's status: no news
        c.accept(status("a", 4, "w1", T + 100, GraphState.LOADED));
        c.accept(status("new", 1, "w1", T + 200, GraphState.LOADED));       // placed by the partitioner
        c.accept(status("gone", 1, "w1", T + 300, GraphState.DROPPED));
        Map<String, Object> v = c.view(T + 1_000, id -> id.equals("new") ? 5 : -1);
        assertEquals(List.of("a@w1#4", "new@w1#1"), ids(v));
        assertEquals(0, rows(v, "graphs").get(0).get("partition"), "a keeps the partition its worker listed");
        assertEquals(5, rows(v, "graphs").get(1).get("partition"));
        // the next status lists what the worker holds: it replaces what the graph statuses said
        c.accept(worker("w1", T + 10_000, true, List.of(partition(0, 0)), graph("a", 4, 0), graph("new", 1, 5)));
        assertEquals(List.of("a@w1#4", "new@w1#1"), ids(c.view(T + 10_500, id -> -1)));
        c.accept(worker("w1", T + 5_000, true, List.of(), graph("stale", 1, 0)));   // an older status read late: ignored
        assertEquals(List.of("a@w1#4", "new@w1#1"), ids(c.view(T + 10_500, id -> -1)));
    }

    @Test
    void aSilentWorkersGraphsLeaveAndAMovedGraphIsShownOnceFromItsNewOwner() {
        ClusterState c = new ClusterState(INTERVAL);
        c.accept(worker("old", T, true, List.of(partition(0, 0)), graph("a", 3, 0)));
        c.accept(worker("new", T + 2_000, true, List.of(partition(0, 0)), graph("a", 3, 0)));
        assertEquals(List.of("a@new#3"), ids(c.view(T + 3_000, id -> -1)), "listed by both: the later report wins");
        Map<String, Object> later = c.view(T + 3 * INTERVAL + 1, id -> -1);
        assertEquals(List.of("new", "old"), rows(later, "workers").stream().map(w -> w.get("worker")).toList());
        assertEquals(List.of(false, true), rows(later, "workers").stream().map(w -> w.get("silent")).toList(),
                "old is silent for more than three intervals");
        assertEquals(false, rows(later, "workers").get(1).get("ready"), "a silent worker is not ready");
        assertEquals(List.of("a@new#3"), ids(later));
        c.accept(worker("new", T + 40_000, true, List.of(partition(0, 0)), graph("a", 3, 0)));
        assertEquals(List.of("new"), rows(c.view(T + ClusterState.FORGET_INTERVALS * INTERVAL + 1, id -> -1), "workers").stream()
                .map(w -> w.get("worker")).toList(), "forgotten after thirty intervals");
    }

    @Test
    void aWorkerKnownOnlyByItsGraphStatusesIsListedToo() {
        ClusterState c = new ClusterState(INTERVAL);
        c.accept(status("x", 5, "older-worker", T, GraphState.LOADED));
        c.accept(status("x", 5, "older-worker", T, GraphState.valueOf("LOADED")));
        Map<String, Object> v = c.view(T + 1_000, id -> 2);
        assertEquals(List.of("x@older-worker#5"), ids(v));
        assertEquals(false, rows(v, "workers").get(0).get("ready"));
        assertEquals(2, rows(v, "graphs").get(0).get("partition"));
    }
}
