package org.frontiergraph.worker.ui;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which graph the page draws: the one asked for ({@code /ui?graph=G} or the selector) when this worker can draw it,
 * else the smallest <em>road-like</em> graph it can draw, else none (the page then says why and waits for a choice).
 * Never an arbitrary first: a social network's hairball of thousands of vertices says nothing drawn on a page.
 *
 * <p>Road-like: at most {@link #MAX_AVERAGE_DEGREE} arcs per vertex on average and no vertex with more than
 * {@link #MAX_DEGREE} (out-)arcs, where an undirected edge counts as two arcs. Road networks have junctions of a few
 * roads (rome99: 2.6 arcs per vertex), grids 4 at most; social and web graphs have tens on average and hubs of hundreds.
 * Smallest: fewest vertices, then fewest arcs, then the graph id.
 */
final class DrawingChoice {
    static final double MAX_AVERAGE_DEGREE = 4.0;
    static final int MAX_DEGREE = 8;

    private DrawingChoice() {}

    /** A graph this worker holds: its size, its largest (out-)degree, and whether the page may draw it. */
    record Candidate(String graphId, int vertices, long arcs, int maxDegree, boolean drawable) {
        double averageDegree() {
            return vertices == 0 ? 0 : (double) arcs / vertices;
        }

        boolean roadLike() {
            return vertices > 0 && averageDegree() <= MAX_AVERAGE_DEGREE && maxDegree <= MAX_DEGREE;
        }
    }

    /** The graph to draw (null: none) and why, in words for the page. */
    record Choice(String graphId, String reason) {}

    static Choice choose(String requested, List<Candidate> candidates) {
        if (requested != null && !requested.isBlank()) {
            Optional<Candidate> asked = candidates.stream().filter(c -> c.graphId().equals(requested)).findFirst();
            if (asked.isEmpty()) return new Choice(null, "graph '" + requested + "' is not held by this worker");
            if (!asked.get().drawable()) return new Choice(null, "graph '" + requested + "' is too large to draw here");
            return new Choice(requested, "asked for");
        }
        return candidates.stream().filter(Candidate::drawable).filter(Candidate::roadLike)
                .min(Comparator.comparingInt(Candidate::vertices).thenComparingLong(Candidate::arcs).thenComparing(Candidate::graphId))
                .map(c -> new Choice(c.graphId(), String.format(Locale.ROOT,
                        "the smallest road-like graph here (%d vertices, %.1f arcs per vertex, at most %d)",
                        c.vertices(), c.averageDegree(), c.maxDegree())))
                .orElse(new Choice(null, "no road-like graph to draw by default (at most " + MAX_DEGREE
                        + " arcs a vertex, " + MAX_AVERAGE_DEGREE + " on average): choose one"));
    }
}
