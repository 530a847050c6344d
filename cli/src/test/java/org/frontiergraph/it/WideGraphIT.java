package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A snapshot published through a real broker to a worker with {@code frontier.wide-arcs-from: 1} (the test switch
 * that builds every graph in the wide form, as one of more than 2^31 - 8 arcs is built), answered once: LOADED by an
 * engine that holds the wide form (the GPU's), its edges counted and the registry holding the wide graph, 64-bit
 * offsets and pages, arc for arc the graph GraphBuilder gives; or refused once by the CPU engine, whose kernels index
 * arcs with ints, GRAPH_TOO_LARGE naming the arcs (a graph this small is refused for no other reason than its form),
 * as a graph of more than 2^31 - 8 arcs is on a CPU worker.
 */
class WideGraphIT extends WorkerIT {
    static final long SEED = 29;

    @BeforeAll
    static void start() {
        startWorker(Map.of(
                "frontier.worker-id", "wide-it-worker",
                "frontier.wide-arcs-from", 1,
                "micronaut.server.port", -1));
    }

    @Test
    void aSnapshotIsBuiltInTheWideForm() {
        EdgeList edges = UniformRandomGraph.generate(3_000, 20_000, SEED, 9, false);
        CsrGraph expected = GraphBuilder.build(edges);
        List<GraphSnapshotChunk> chunks = FrontierClient.chunks("wide", 1, Snapshots.of(edges), 1, true, 1_500);
        GraphStatus answer;
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            client.publishChunks(chunks, null);
            Predicate<GraphStatus> loaded = s -> s.getGraphId().equals("wide") && s.getState() == GraphState.LOADED;
            Predicate<ErrorEvent> refused = e -> "wide".equals(e.getGraphId());
            errors.awaitUntil(seen -> seen.stream().anyMatch(refused) || status.seen().stream().anyMatch(loaded), Pipeline.WAIT);
            errors.awaitUntil(seen -> false, Duration.ofSeconds(2));   // anything a second answer would add
            List<GraphStatus> statuses = status.seen().stream().filter(s -> s.getGraphId().equals("wide")).toList();
            List<ErrorEvent> errorEvents = errors.seen().stream().filter(refused).toList();
            assertEquals(1, statuses.stream().filter(loaded).count() + errorEvents.size(),
                    "loaded, or refused once: " + statuses + " " + errorEvents);
            if (!errorEvents.isEmpty()) {   // the CPU engine
                assertEquals("GRAPH_TOO_LARGE", errorEvents.get(0).getCode());
                assertTrue(errorEvents.get(0).getReason().contains(Long.toString(expected.arcs())),
                        "names the arcs: " + errorEvents.get(0).getReason());
                status.awaitUntil(seen -> seen.stream().anyMatch(s -> s.getGraphId().equals("wide")), Pipeline.WAIT);
                statuses = status.seen().stream().filter(s -> s.getGraphId().equals("wide")).toList();
                assertEquals(List.of(GraphState.REJECTED), statuses.stream().map(GraphStatus::getState).toList(),
                        "one REJECTED status, so a client waiting for the version learns why: " + statuses);
                assertTrue(worker.context().getBean(GraphRegistry.class).get("wide").isEmpty());
                return;
            }
            answer = statuses.get(0);
        }
        assertEquals(GraphState.LOADED, answer.getState());
        assertEquals(expected.edgeCount(), answer.getEdgeCount());
        CsrGraph held = worker.context().getBean(GraphRegistry.class).get("wide").orElseThrow().resident().graph();
        assertTrue(held.wide(), "built wide");
        assertEquals(expected.arcs(), held.arcs());
        CsrGraph want = expected.widen(held.pages().pageArcs());
        assertArrayEquals(want.rowOffsetsLong(), held.rowOffsetsLong());
        assertArrayEquals(want.pages().columns(), held.pages().columns());
        assertArrayEquals(want.pages().weights(), held.pages().weights());
        assertArrayEquals(want.pages().edgeIds(), held.pages().edgeIds());
    }
}
