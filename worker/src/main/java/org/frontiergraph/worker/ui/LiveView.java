package org.frontiergraph.worker.ui;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cpu.CpuBackend;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.worker.config.UiConfig;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.metrics.RecentLatencies;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * What the live page shows of this worker (read-only; the cluster's workers and graphs are {@link ClusterView}'s):
 * the graphs it holds, query counts from the worker's metrics and exact latency percentiles of the last queries
 * ({@link RecentLatencies}), the graph to draw ({@link DrawingChoice}), and for a graph of at most
 * {@code frontier.ui.max-draw-vertices} vertices a drawing of an answer on it: the shortest-path tree (SSSP) or BFS
 * tree from a source, or the path to a target, or the MST.
 * Drawing answers are computed on the CPU engine from the graph version's host copy (small graphs only), so the
 * page never competes with queries for the GPU; layouts are cached per graph structure.
 * <p>Drawing work is bounded: a graph of more than {@code frontier.ui.max-draw-edges} edges is refused (413) before
 * anything is computed, the last {@code frontier.ui.view-cache-size} drawings are kept (keyed by graph, version,
 * algorithm, source and target), and a client address has at most one drawing being computed at a time (another
 * gets 429).
 */
@Singleton
public class LiveView {
    private final GraphRegistry registry;
    private final MeterRegistry meters;
    private final int maxDrawVertices;
    private final int maxDrawEdges;
    private final CpuBackend cpu = new CpuBackend();
    private final Map<String, Layout> layouts = new ConcurrentHashMap<>();
    private final Map<String, Degree> degrees = new ConcurrentHashMap<>();
    private final RecentLatencies latencies;
    private final Map<ViewKey, Map<String, Object>> views;
    /** The client addresses with a drawing being computed. */
    private final Map<String, Boolean> drawing = new ConcurrentHashMap<>();
    /** Drawings computed (not from the cache), for tests and the curious. */
    private final java.util.concurrent.atomic.AtomicLong computed = new java.util.concurrent.atomic.AtomicLong();
    /** Runs while a drawing's client slot is held, before it is computed: a test's way to hold it there. */
    volatile Runnable whileDrawing = () -> {};

    private record Layout(int[] structure, double[] positions) {}

    /** A graph version's largest (out-)degree, for {@link DrawingChoice}. */
    private record Degree(long version, int maxDegree) {}

    /** What a drawing depends on: the graph's version, the algorithm, and the 0-based source and target. */
    private record ViewKey(String graphId, long version, String algorithm, int source, Integer target) {}

    public LiveView(GraphRegistry registry, FrontierMetrics metrics, MeterRegistry meters, UiConfig ui) {
        this.registry = registry;
        this.latencies = metrics.recentLatencies();
        this.meters = meters;
        this.maxDrawVertices = ui.getMaxDrawVertices();
        this.maxDrawEdges = ui.getMaxDrawEdges();
        int cacheSize = Math.max(0, ui.getViewCacheSize());
        this.views = java.util.Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ViewKey, Map<String, Object>> eldest) {
                return size() > cacheSize;
            }
        });
    }

    /** Drawings computed so far (cache hits not counted). */
    public long drawingsComputed() {
        return computed.get();
    }

    /**
     * Graphs held (with their version's label and whether they are road-like), the graph to draw ({@code requested}
     * if drawable here, else the smallest road-like one: {@link DrawingChoice}), query counts by algorithm and status,
     * and latency percentiles (ms) by algorithm and backend, exact over the last queries ({@link RecentLatencies}).
     */
    public Map<String, Object> overview(String requested) {
        long now = System.currentTimeMillis();
        List<Map<String, Object>> graphs = new ArrayList<>();
        List<DrawingChoice.Candidate> candidates = new ArrayList<>();
        List<GraphEntry> entries = new ArrayList<>(registry.all());
        entries.sort(Comparator.comparing(GraphEntry::graphId));
        for (GraphEntry e : entries) {
            boolean drawable = e.vertexCount() <= maxDrawVertices && e.edgeCount() <= maxDrawEdges;
            boolean directed = e.resident().mutable().directed();
            DrawingChoice.Candidate c = new DrawingChoice.Candidate(e.graphId(), e.vertexCount(),
                    directed ? e.edgeCount() : 2 * e.edgeCount(), drawable ? maxDegree(e) : Integer.MAX_VALUE, drawable);
            candidates.add(c);
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("graphId", e.graphId());
            g.put("version", e.version());
            g.put("versionLabel", VersionLabel.of(e.version(), now));
            g.put("vertices", e.vertexCount());
            g.put("edges", e.edgeCount());
            g.put("directed", directed);
            g.put("backend", e.resident().backend());
            g.put("residentBytes", e.resident().residentBytes());
            g.put("partition", e.partition());
            g.put("drawable", drawable);
            g.put("roadLike", drawable && c.roadLike());
            graphs.add(g);
        }
        degrees.keySet().retainAll(candidates.stream().map(DrawingChoice.Candidate::graphId).toList());   // dropped graphs
        DrawingChoice.Choice choice = DrawingChoice.choose(requested, candidates);
        Map<String, Object> draw = new LinkedHashMap<>();
        draw.put("graphId", choice.graphId());
        draw.put("reason", choice.reason());
        Map<String, Object> queries = new LinkedHashMap<>();
        long total = 0;
        for (Counter c : meters.find("frontier.queries").counters()) {
            long n = (long) c.count();
            total += n;
            String key = c.getId().getTag("algorithm") + " " + c.getId().getTag("status");
            queries.merge(key, n, (a, b) -> (Long) a + (Long) b);
        }
        Map<String, Object> latency = new LinkedHashMap<>();
        latencies.summaries().forEach((kind, s) -> {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("count", s.count());
            l.put("window", s.window());
            l.put("min", s.min());
            l.put("p50", s.p50());
            l.put("p99", s.p99());
            l.put("max", s.max());
            latency.put(kind, l);
        });
        double errors = meters.find("frontier.errors").counters().stream().mapToDouble(Counter::count).sum();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("timeMs", now);
        out.put("graphs", graphs);
        out.put("draw", draw);
        out.put("queriesTotal", total);
        out.put("queries", queries);
        out.put("errorsTotal", (long) errors);
        out.put("latencyWindow", latencies.capacity());
        out.put("latencyMs", latency);
        return out;
    }

    /** The largest (out-)degree of a graph's current version, computed once per version. */
    private int maxDegree(GraphEntry e) {
        Degree d = degrees.get(e.graphId());
        if (d == null || d.version() != e.version()) {
            d = new Degree(e.version(), e.resident().mutable().current().maxDegree());
            degrees.put(e.graphId(), d);
        }
        return d.maxDegree();
    }

    /** A drawing request that cannot be served, with the reason and the HTTP status that says why. */
    public static final class ViewException extends RuntimeException {
        private final int status;

        public ViewException(String message) {
            this(message, 400);
        }

        public ViewException(String message, int status) {
            super(message);
            this.status = status;
        }

        /** 400 (a bad request), 413 (the graph is too large to draw) or 429 (this client is drawing already). */
        public int status() {
            return status;
        }
    }

    /**
     * The drawing of {@code algorithm} (bfs, sssp, mst) on {@code graphId}: vertex positions, the graph's edges and
     * the answer's edges to highlight (the tree, or the path to {@code target} when given), all in 0-based ids,
     * with the user's first vertex id to label them.
     */
    public Map<String, Object> view(String client, String graphId, String algorithm, Integer source, Integer target) {
        GraphEntry e = registry.get(graphId).orElseThrow(() -> new ViewException("no graph '" + graphId + "' on this worker"));
        if (e.vertexCount() > maxDrawVertices) {
            throw new ViewException("graph '" + graphId + "' has " + e.vertexCount() + " vertices; the page draws at most "
                    + maxDrawVertices + " (frontier.ui.max-draw-vertices)");
        }
        if (e.edgeCount() > maxDrawEdges) {
            throw new ViewException("graph '" + graphId + "' has " + e.edgeCount() + " edges; the page draws at most "
                    + maxDrawEdges + " (frontier.ui.max-draw-edges)", 413);
        }
        CsrGraph current = e.resident().graph();
        if (current.wide()) {
            throw new ViewException("graph '" + graphId + "' has " + current.arcs() + " arcs held in the wide (64-bit) form;"
                    + " the page draws graphs whose arcs an int32 indexes", 413);
        }
        String alg = algorithm == null ? "sssp" : algorithm.toLowerCase(Locale.ROOT);
        if (!List.of("sssp", "bfs", "mst").contains(alg)) {
            throw new ViewException("algorithm '" + algorithm + "': the page draws bfs, sssp or mst");
        }
        int first = e.firstVertexId();
        int s = vertex(e, source == null ? first : source, "source");
        Integer t = target == null ? null : vertex(e, target, "target");
        ViewKey key = new ViewKey(graphId, e.version(), alg, s, t);
        Map<String, Object> cached = views.get(key);
        if (cached != null) return cached;
        if (drawing.putIfAbsent(client, Boolean.TRUE) != null) {
            throw new ViewException("a drawing for " + client + " is being computed; one at a time per client", 429);
        }
        try {
            whileDrawing.run();
            Map<String, Object> out = draw(e, alg, s, t);
            computed.incrementAndGet();
            views.put(key, out);
            return out;
        } finally {
            drawing.remove(client);
        }
    }

    private Map<String, Object> draw(GraphEntry e, String alg, int s, Integer t) {
        String graphId = e.graphId();
        CsrGraph g = e.resident().mutable().snapshot();   // this thread is not the graph's: a copy later updates do not touch
        int first = e.firstVertexId();
        List<Integer> highlight = new ArrayList<>();
        String summary;
        try (ResidentGraph r = cpu.load(g)) {
            switch (alg) {
                case "sssp" -> {
                    SsspResult res = Sssp.run(r, s, null);
                    summary = treeOrPath(res.parents(), s, t, highlight, first, "shortest-path",
                            t == null ? null : res.distances()[t]);
                }
                case "bfs" -> {
                    BfsResult res = Bfs.run(r, s, null);
                    summary = treeOrPath(res.parents(), s, t, highlight, first, "BFS",
                            t == null ? null : (double) res.hops()[t]);
                }
                case "mst" -> {
                    MstResult res = Mst.run(r, null);
                    UndirectedEdges edges = g.undirectedEdges();
                    for (int id : res.edgeIds()) {
                        highlight.add(edges.u[id]);
                        highlight.add(edges.v[id]);
                    }
                    summary = String.format(Locale.ROOT, "minimum spanning forest: %d edges, total weight %s, %d component(s)",
                            res.edgeIds().length, fmt(res.totalWeight()), res.components());
                }
                default -> throw new IllegalStateException(alg);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graphId", graphId);
        out.put("version", e.version());
        out.put("firstVertexId", first);
        out.put("vertices", g.vertexCount());
        out.put("directed", g.directed());
        out.put("algorithm", alg);
        out.put("source", s + first);
        out.put("target", t == null ? null : t + first);
        out.put("positions", positions(graphId, g));
        out.put("edges", edgeList(g));
        out.put("highlight", highlight);
        out.put("summary", summary);
        return java.util.Collections.unmodifiableMap(out);
    }

    private static int vertex(GraphEntry e, int userId, String what) {
        int v = userId - e.firstVertexId();
        if (v < 0 || v >= e.vertexCount()) {
            throw new ViewException(what + " " + userId + " is outside " + e.firstVertexId() + ".."
                    + (e.firstVertexId() + e.vertexCount() - 1));
        }
        return v;
    }

    /** Highlights the whole tree (target null) or the path to the target; returns a one-line summary. */
    private static String treeOrPath(int[] parents, int s, Integer t, List<Integer> highlight, int first, String what,
                                     Double targetValue) {
        if (t == null) {
            int reached = 0;
            for (int v = 0; v < parents.length; v++) {
                if (parents[v] < 0) continue;
                reached++;
                if (v != s) {
                    highlight.add(parents[v]);
                    highlight.add(v);
                }
            }
            return what + " tree from " + (s + first) + ": " + reached + " of " + parents.length + " vertices reached";
        }
        if (parents[t] < 0) return "no path from " + (s + first) + " to " + (t + first);
        int hops = 0;
        for (int v = t; v != s; v = parents[v]) {
            highlight.add(parents[v]);
            highlight.add(v);
            hops++;
        }
        return what + " path " + (s + first) + " -> " + (t + first) + ": " + hops + " arcs, length " + fmt(targetValue);
    }

    private double[] positions(String graphId, CsrGraph g) {
        Layout l = layouts.get(graphId);
        if (l == null || l.structure() != g.rowOffsets()) {
            l = new Layout(g.rowOffsets(), GraphLayout.of(g));
            layouts.put(graphId, l);
        }
        return l.positions();
    }

    /** u0, v0, u1, v1, ...: every arc of a directed graph, every edge (u < v) of an undirected one. */
    private static int[] edgeList(CsrGraph g) {
        int[] off = g.rowOffsets(), col = g.columns();
        int count = g.directed() ? g.arcCount() : g.edgeCount();
        int[] out = new int[2 * count];
        int k = 0;
        for (int u = 0; u < g.vertexCount(); u++) {
            for (int e = off[u]; e < off[u + 1]; e++) {
                if (!g.directed() && col[e] < u) continue;
                out[k++] = u;
                out[k++] = col[e];
            }
        }
        return k == out.length ? out : Arrays.copyOf(out, k);
    }

    private static String fmt(Double x) {
        if (x == null) return "";
        if (x.isInfinite()) return "unreachable";
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? String.valueOf(x.longValue()) : String.format(Locale.ROOT, "%.6g", x);
    }
}
