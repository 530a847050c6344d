package org.frontiergraph.it;

import static org.awaitility.Awaitility.await;
import static org.frontiergraph.it.Pipeline.awaitLoaded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.health.PartitionsRebuiltIndicator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * Readiness of a worker joining a running group (a real broker, two partitions, workers in this JVM): it is never UP
 * while it holds no partition that the group will give it (the cooperative rebalance's first round assigns a joiner
 * nothing) or while it rebuilds what it got, and it becomes UP once its partitions are rebuilt; a third worker, for
 * which no partition is left, becomes UP with none once the group is stable.
 */
class JoiningWorkerReadinessIT extends GroupIT {
    private static final int PARTITIONS = 2;

    @BeforeAll
    static void start() {
        startBroker();
    }

    private static FrontierWorker worker(String id) {
        return worker(id, "readiness-it", PARTITIONS);
    }

    /** The worker's readiness now: UP or DOWN, with the partitions it holds and those it rebuilds (one snapshot). */
    private record Readiness(boolean up, Collection<?> partitions, Collection<?> rebuilding) {}

    private static Readiness readiness(FrontierWorker w) {
        HealthResult r = Flux.from(w.context().getBean(PartitionsRebuiltIndicator.class).getResult()).blockFirst();
        Map<?, ?> details = (Map<?, ?>) r.getDetails();
        return new Readiness(r.getStatus() == HealthStatus.UP, (Collection<?>) details.get("partitions"),
                (Collection<?>) details.get("rebuilding"));
    }

    @Test
    void aJoiningWorkerIsReadyOnlyWithItsPartitionsRebuilt() {
        FrontierWorker first = worker("first");
        try (TopicWatcher<GraphStatus> status = client.watchStatus()) {
            List<String> ids = new ArrayList<>();
            for (int g = 0; g < 6; g++) {
                ids.add("r" + g);
                client.publishSnapshot("r" + g, 1, Snapshots.of(UniformRandomGraph.generate(20_000, 80_000, 7 + g, 50, false)), 0, true, null);
            }
            for (String id : ids) awaitLoaded(status, id, 1);
            await().atMost(Duration.ofSeconds(60)).until(() -> readiness(first).up());
            assertEquals(PARTITIONS, readiness(first).partitions().size());

            List<Readiness> seen = new CopyOnWriteArrayList<>();
            FrontierWorker second = worker("second");
            try {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(5)).until(() -> {
                    Readiness r = readiness(second);
                    seen.add(r);
                    return r.up();
                });
                for (Readiness r : seen) {
                    assertTrue(!r.up() || (!r.partitions().isEmpty() && r.rebuilding().isEmpty()),
                            () -> "the joining worker was UP with partitions " + r.partitions() + ", rebuilding " + r.rebuilding());
                }
                assertEquals(1, readiness(second).partitions().size(), () -> "two partitions over two workers: " + seen.get(seen.size() - 1));
                assertTrue(seen.stream().anyMatch(r -> !r.up()), "it was DOWN while it joined and rebuilt");

                FrontierWorker third = worker("third");
                try {
                    await().atMost(Duration.ofSeconds(90)).until(() -> readiness(third).up());
                    assertTrue(readiness(third).partitions().isEmpty(), "no partition is left for a third worker");
                    await().atMost(Duration.ofSeconds(30)).until(() -> readiness(first).up() && readiness(second).up());
                } finally {
                    third.close();
                }
            } finally {
                second.close();
            }
        } finally {
            first.close();
        }
    }
}
