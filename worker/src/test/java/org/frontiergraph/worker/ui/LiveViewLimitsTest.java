package org.frontiergraph.worker.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.worker.config.UiConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.junit.jupiter.api.Test;

/** The live view's drawing work is bounded: a cache of drawings, one drawing at a time per client, an edge cap. */
class LiveViewLimitsTest {
    static Fixtures.Services withGraph(String id, int vertices, long edges) {
        Fixtures.Services s = Fixtures.start(Fixtures.cpuConfig());
        s.install(Fixtures.snapshot(id, 1, UniformRandomGraph.generate(vertices, edges, 7L, 100, false), 1, 10_000), 0);
        return s;
    }

    static UiConfig ui(int maxEdges, int cacheSize) {
        UiConfig ui = new UiConfig();
        ui.setMaxDrawEdges(maxEdges);
        ui.setViewCacheSize(cacheSize);
        return ui;
    }

    @Test
    void drawingsAreCachedByGraphVersionAlgorithmSourceAndTarget() {
        try (Fixtures.Services s = withGraph("g", 300, 1_200)) {
            LiveView view = new LiveView(s.registry(), s.metrics(), s.meters(), ui(20_000, 2));
            Map<String, Object> a = view.view("10.0.0.1", "g", "sssp", 1, null);
            assertSame(a, view.view("10.0.0.2", "g", "SSSP", 1, null), "the same drawing, from the cache, for any client");
            assertEquals(1, view.drawingsComputed());
            view.view("10.0.0.1", "g", "sssp", 2, null);
            view.view("10.0.0.1", "g", "sssp", 2, 7);
            assertEquals(3, view.drawingsComputed(), "another source, another target: computed");
            view.view("10.0.0.1", "g", "sssp", 1, null);
            assertEquals(4, view.drawingsComputed(), "the least recently used of a 2-entry cache was dropped");
            assertEquals(1L, ((Number) view.view("10.0.0.1", "g", "mst", null, null).get("version")).longValue());
        }
    }

    @Test
    void aClientDrawsOneAtATime() throws Exception {
        try (Fixtures.Services s = withGraph("g", 300, 1_200)) {
            LiveView view = new LiveView(s.registry(), s.metrics(), s.meters(), ui(20_000, 16));
            Map<String, Object> cached = view.view("10.0.0.1", "g", "bfs", 1, null);
            CountDownLatch inside = new CountDownLatch(1), release = new CountDownLatch(1);
            view.whileDrawing = () -> {
                inside.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            CompletableFuture<Map<String, Object>> first = CompletableFuture.supplyAsync(() -> view.view("10.0.0.1", "g", "mst", null, null));
            assertTrue(inside.await(30, TimeUnit.SECONDS), "the first drawing started");
            view.whileDrawing = () -> {};
            LiveView.ViewException busy = assertThrows(LiveView.ViewException.class, () -> view.view("10.0.0.1", "g", "sssp", 5, null));
            assertEquals(429, busy.status(), busy.getMessage());
            assertSame(cached, view.view("10.0.0.1", "g", "bfs", 1, null), "a cached drawing is served meanwhile");
            assertEquals("sssp", view.view("10.0.0.2", "g", "sssp", 5, null).get("algorithm"), "another client draws");
            release.countDown();
            assertEquals("mst", first.get(30, TimeUnit.SECONDS).get("algorithm"));
            assertEquals("sssp", view.view("10.0.0.1", "g", "sssp", 6, null).get("algorithm"), "the slot is free again");
        }
    }

    @Test
    void aGraphWithMoreEdgesThanTheCapIsRefusedBeforeAnyWork() {
        try (Fixtures.Services s = withGraph("dense", 200, 5_000)) {
            LiveView view = new LiveView(s.registry(), s.metrics(), s.meters(), ui(1_000, 16));
            LiveView.ViewException e = assertThrows(LiveView.ViewException.class, () -> view.view("10.0.0.1", "dense", "mst", null, null));
            assertEquals(413, e.status());
            assertTrue(e.getMessage().contains("frontier.ui.max-draw-edges"), e.getMessage());
            assertEquals(0, view.drawingsComputed());
            @SuppressWarnings("unchecked")
            Map<String, Object> g = ((java.util.List<Map<String, Object>>) view.overview(null).get("graphs")).get(0);
            assertEquals(false, g.get("drawable"));
        }
    }
}
