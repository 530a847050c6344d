package org.frontiergraph.worker.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.worker.config.UiConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.ui.DrawingChoice.Candidate;
import org.junit.jupiter.api.Test;

/** The page draws the graph asked for, else the smallest road-like one, never an arbitrary first. */
class DrawingChoiceTest {
    // rome99 (3,353 vertices, 8,870 arcs, largest out-degree 5) and facebook_combined (4,039 vertices, 1,045 at most)
    static final Candidate ROME = new Candidate("rome99", 3_353, 8_870, 5, true);
    static final Candidate FACEBOOK = new Candidate("a-facebook", 4_039, 176_468, 1_045, true);
    static final Candidate GRID = new Candidate("grid", 100, 360, 4, true);
    static final Candidate SMALL_STAR = new Candidate("star", 20, 38, 19, true);
    static final Candidate HUGE_ROAD = new Candidate("ny", 264_346, 733_846, 8, false);

    @Test
    void roadLikeMeansFewArcsAVertexAndNoHub() {
        assertTrue(ROME.roadLike());
        assertTrue(GRID.roadLike());
        assertTrue(HUGE_ROAD.roadLike());
        assertFalse(FACEBOOK.roadLike(), "43.7 arcs a vertex");
        assertFalse(SMALL_STAR.roadLike(), "sparse on average, but one hub of 19");
        assertFalse(new Candidate("dense", 100, 401, 5, true).roadLike(), "4.01 arcs a vertex");
        assertFalse(new Candidate("empty", 0, 0, 0, true).roadLike());
    }

    @Test
    void theDefaultIsTheSmallestRoadLikeGraphNotTheFirstAlphabetically() {
        DrawingChoice.Choice c = DrawingChoice.choose(null, List.of(FACEBOOK, SMALL_STAR, ROME, GRID, HUGE_ROAD));
        assertEquals("grid", c.graphId(), c.reason());
        assertTrue(c.reason().contains("smallest road-like"), c.reason());
        assertEquals("rome99", DrawingChoice.choose("", List.of(FACEBOOK, ROME, HUGE_ROAD)).graphId());
        assertEquals("b", DrawingChoice.choose(null, List.of(new Candidate("c", 10, 20, 2, true),
                new Candidate("b", 10, 18, 2, true), new Candidate("a", 10, 20, 2, true))).graphId(), "ties: fewer arcs, then the id");
    }

    @Test
    void withoutARoadLikeGraphNothingIsDrawnByDefault() {
        DrawingChoice.Choice c = DrawingChoice.choose(null, List.of(FACEBOOK, SMALL_STAR, HUGE_ROAD));
        assertNull(c.graphId(), "no arbitrary first: " + c.reason());
        assertTrue(c.reason().contains("choose one"), c.reason());
        assertNull(DrawingChoice.choose(null, List.of()).graphId());
    }

    @Test
    void theGraphAskedForIsDrawnWhenItCanBe() {
        assertEquals("a-facebook", DrawingChoice.choose("a-facebook", List.of(FACEBOOK, GRID)).graphId(), "asked for: even a hairball");
        DrawingChoice.Choice tooLarge = DrawingChoice.choose("ny", List.of(GRID, HUGE_ROAD));
        assertNull(tooLarge.graphId(), "never another graph than the one asked for");
        assertTrue(tooLarge.reason().contains("too large"), tooLarge.reason());
        DrawingChoice.Choice elsewhere = DrawingChoice.choose("other", List.of(GRID));
        assertNull(elsewhere.graphId());
        assertTrue(elsewhere.reason().contains("not held by this worker"), elsewhere.reason());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOverviewChoosesFromTheGraphsHeldMeasuringTheirDegrees() {
        try (Fixtures.Services s = Fixtures.start(Fixtures.cpuConfig())) {
            s.install(Fixtures.snapshot("a-dense", 1, UniformRandomGraph.generate(60, 600, 3L, 10, false), 1, 10_000), 0);
            s.install(Fixtures.snapshot("b-grid-big", 1, GridRoadGraph.generate(20, 20, 4L, 10), 1, 10_000), 0);
            s.install(Fixtures.snapshot("c-grid-small", 1, GridRoadGraph.generate(8, 9, 5L, 10), 1, 10_000), 1);
            LiveView view = new LiveView(s.registry(), s.metrics(), s.meters(), new UiConfig());
            Map<String, Object> o = view.overview(null);
            assertEquals("c-grid-small", ((Map<String, Object>) o.get("draw")).get("graphId"), o.get("draw").toString());
            List<Map<String, Object>> graphs = (List<Map<String, Object>>) o.get("graphs");
            assertEquals(List.of(false, true, true), graphs.stream().map(g -> g.get("roadLike")).toList());
            assertEquals("a-dense", ((Map<String, Object>) view.overview("a-dense").get("draw")).get("graphId"));
            assertEquals("1", graphs.get(0).get("versionLabel"), "version 1 is a counter");
        }
    }
}
