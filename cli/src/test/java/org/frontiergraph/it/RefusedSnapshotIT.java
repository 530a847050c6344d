package org.frontiergraph.it;

import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A snapshot the worker refuses (more edges than {@code frontier.max-edges}, every chunk of it) through a real broker:
 * exactly one GRAPH_TOO_LARGE error event and one REJECTED status (with the reason) for the version, whatever its
 * chunk count; the worker goes on, and a newer version that fits loads.
 */
class RefusedSnapshotIT extends WorkerIT {
    static final long SEED = 31;

    @BeforeAll
    static void start() {
        startWorker(Map.of(
                "frontier.backend", "cpu",
                "frontier.worker-id", "refused-it-worker",
                "frontier.max-edges", 10_000,
                "micronaut.server.port", -1));
    }

    @Test
    void aRefusedSnapshotGivesOneErrorEventAndOneRejectedStatus() {
        EdgeList big = UniformRandomGraph.generate(2_000, 20_000, SEED, 9, false);
        EdgeList fits = UniformRandomGraph.generate(2_000, 5_000, SEED, 9, false);
        List<GraphSnapshotChunk> chunks = FrontierClient.chunks("big", 1, Snapshots.of(big), 1, true, 1_000);
        assertEquals(20, chunks.size());
        try (TopicWatcher<GraphStatus> status = client.watchStatus();
             TopicWatcher<ErrorEvent> errors = client.watchErrors()) {
            client.publishChunks(chunks, null);
            // the same key, so the same partition: read after every chunk of version 1
            client.publishSnapshot("big", 2, Snapshots.of(fits), 1, true, null);
            GraphStatus loaded = awaitLoaded(status, "big", 2);
            assertEquals(GraphState.LOADED, loaded.getState());

            List<GraphStatus> statuses = status.seen().stream().filter(s -> s.getGraphId().equals("big")).toList();
            assertEquals(2, statuses.size(), "one status per version: " + statuses);
            GraphStatus rejected = statuses.get(0);
            assertEquals(GraphState.REJECTED, rejected.getState());
            assertEquals(1, rejected.getVersion());
            assertEquals(20_000, rejected.getEdgeCount());
            assertTrue(rejected.getReason().contains("frontier.max-edges"), rejected.getReason());

            errors.awaitUntil(seen -> !seen.isEmpty(), Duration.ofSeconds(30));
            errors.awaitUntil(seen -> false, Duration.ofSeconds(2));   // anything the 19 other chunks would have added
            List<ErrorEvent> refused = errors.seen().stream().filter(e -> "big".equals(e.getGraphId())).toList();
            assertEquals(1, refused.size(), "one error event for the refused version: " + refused);
            assertEquals("GRAPH_TOO_LARGE", refused.get(0).getCode());
            assertEquals(rejected.getReason(), refused.get(0).getReason());
        }
    }
}
