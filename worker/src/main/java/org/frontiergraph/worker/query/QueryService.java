package org.frontiergraph.worker.query;

import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.frontiergraph.kernels.apsp.Apsp;
import org.frontiergraph.kernels.apsp.ApspLimits;
import org.frontiergraph.kernels.apsp.ApspResult;
import org.frontiergraph.kernels.bfs.Bfs;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.Mst;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers queries on the graphs of the registry: validates them, runs the algorithm on the chosen backend and turns
 * the answer into result chunks (ids translated back to the user's own). No Kafka here: the listener calls it.
 */
@Singleton
public class QueryService {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);

    private final GraphRegistry registry;
    private final EngineService engines;
    private final FrontierConfig config;

    public QueryService(GraphRegistry registry, EngineService engines, FrontierConfig config) {
        this.registry = registry;
        this.engines = engines;
        this.config = config;
    }

    public QueryAnswer answer(GraphQuery q) {
        GraphEntry entry = registry.get(q.getGraphId()).orElse(null);
        try {
            if (entry == null) throw new RejectedException(ErrorCode.UNKNOWN_GRAPH, registry.whyUnknown(q.getGraphId()));
            if (q.getDeadlineEpochMs() != null && System.currentTimeMillis() > q.getDeadlineEpochMs()) {
                throw new RejectedException(ErrorCode.DEADLINE_EXCEEDED, "query '" + q.getQueryId() + "' reached the worker after its deadline "
                        + java.time.Instant.ofEpochMilli(q.getDeadlineEpochMs()));
            }
            ResidentGraph resident = engines.forQuery(entry.resident(), q.getBackend());
            return switch (q.getAlgorithm()) {
                case BFS -> bfs(q, entry, resident);
                case SSSP -> sssp(q, entry, resident);
                case MST -> mst(q, entry, resident);
                case APSP -> apsp(q, entry, resident);
            };
        } catch (RuntimeException e) {
            ErrorCode code = ErrorCode.of(e);
            if (code == ErrorCode.INTERNAL_ERROR || code.resultStatus().isEmpty()) {   // the worker's fault, not the query's
                LOG.error("query '{}' on graph '{}' failed", q.getQueryId(), q.getGraphId(), e);
                return failure(q, entry, ErrorCode.INTERNAL_ERROR, "internal error: " + e);
            }
            return failure(q, entry, code, e.getMessage());
        }
    }

    private QueryAnswer bfs(GraphQuery q, GraphEntry entry, ResidentGraph resident) {
        int source = source(q, entry);
        int[] targets = targets(q, entry);
        BfsResult r = Bfs.run(resident, source, q.getVariant());
        long t0 = System.nanoTime();
        int first = entry.firstVertexId();
        int[] hops = r.hops();
        int[] parents = toUserIds(r.parents(), first);
        List<QueryResult> chunks;
        if (q.getResultMode() == ResultMode.SUMMARY) {
            long reached = 0;
            int max = 0;
            for (int h : hops) if (h >= 0) { reached++; max = Math.max(max, h); }
            QueryResult c = header(q, entry, resident, 0, 1);
            c.setReachedCount(reached);
            c.setMaxHops(max);
            chunks = List.of(c);
        } else {
            chunks = vertexChunks(q, entry, resident, targets, (c, s) -> {
                c.setHops(s.of(hops));
                c.setParents(s.of(parents));
            });
        }
        return ok(chunks, entry, resident, r.timing(), System.nanoTime() - t0);
    }

    private QueryAnswer sssp(GraphQuery q, GraphEntry entry, ResidentGraph resident) {
        int source = source(q, entry);
        int[] targets = targets(q, entry);
        SsspResult r = Sssp.run(resident, source, q.getVariant());
        long t0 = System.nanoTime();
        double[] dist = r.distances();
        int[] parents = toUserIds(r.parents(), entry.firstVertexId());
        List<QueryResult> chunks;
        if (q.getResultMode() == ResultMode.SUMMARY) {
            chunks = List.of(distanceSummary(header(q, entry, resident, 0, 1), dist));
        } else {
            chunks = vertexChunks(q, entry, resident, targets, (c, s) -> {
                c.setDistances(s.of(dist));
                c.setParents(s.of(parents));
            });
        }
        return ok(chunks, entry, resident, r.timing(), System.nanoTime() - t0);
    }

    private QueryAnswer mst(GraphQuery q, GraphEntry entry, ResidentGraph resident) {
        MstResult r = Mst.run(resident, q.getVariant());
        long t0 = System.nanoTime();
        UndirectedEdges edges = resident.graph().undirectedEdges();
        int first = entry.firstVertexId();
        int[] ids = r.edgeIds();
        int per = Math.max(1, config.getResultChunkEdges());
        int count = q.getResultMode() == ResultMode.SUMMARY ? 1 : Math.max(1, (ids.length + per - 1) / per);
        List<QueryResult> chunks = new ArrayList<>(count);
        for (int c = 0; c < count; c++) {
            QueryResult res = header(q, entry, resident, c, count);
            res.setTotalWeight(r.totalWeight());
            res.setComponents((long) r.components());
            if (q.getResultMode() != ResultMode.SUMMARY) {
                int from = c * per, to = Math.min(ids.length, from + per);
                List<Integer> s = new ArrayList<>(to - from), t = new ArrayList<>(to - from);
                List<Double> w = new ArrayList<>(to - from);
                for (int i = from; i < to; i++) {
                    int id = ids[i];
                    s.add(edges.u[id] + first);
                    t.add(edges.v[id] + first);
                    w.add(edges.w[id]);
                }
                res.setOffset(from);
                res.setMstEdges(new EdgeBatch(s, t, w));
            }
            chunks.add(res);
        }
        return ok(chunks, entry, resident, r.timing(), System.nanoTime() - t0);
    }

    /** APSP: n^2 distances in row blocks (whole rows per chunk, about resultChunkVertices distances each). */
    private QueryAnswer apsp(GraphQuery q, GraphEntry entry, ResidentGraph resident) {
        int n = entry.vertexCount();
        ApspResult r = Apsp.run(resident, q.getVariant(), new ApspLimits(Math.min(config.getApspMaxVertices(), ApspLimits.ARRAY_MAX_VERTICES)));
        long t0 = System.nanoTime();
        double[] d = r.distances();
        List<QueryResult> chunks = new ArrayList<>();
        if (q.getResultMode() == ResultMode.SUMMARY) {
            chunks.add(distanceSummary(header(q, entry, resident, 0, 1), d));
        } else {
            int rowsPer = Math.max(1, config.getResultChunkVertices() / Math.max(1, n));
            int count = Math.max(1, (n + rowsPer - 1) / rowsPer);
            for (int c = 0; c < count; c++) {
                int from = c * rowsPer, to = Math.min(n, from + rowsPer);
                QueryResult res = header(q, entry, resident, c, count);
                res.setOffset(from);
                res.setRows(to - from);
                List<Double> block = new ArrayList<>((to - from) * n);
                for (long i = (long) from * n; i < (long) to * n; i++) block.add(d[(int) i]);
                res.setDistances(block);
                chunks.add(res);
            }
        }
        return ok(chunks, entry, resident, r.timing(), System.nanoTime() - t0);
    }

    /** SUMMARY of distances: how many are finite (reached) and the largest of those. */
    private static QueryResult distanceSummary(QueryResult c, double[] distances) {
        long reached = 0;
        double max = 0;
        for (double x : distances) if (x != Double.POSITIVE_INFINITY) { reached++; max = Math.max(max, x); }
        c.setReachedCount(reached);
        c.setMaxDistance(max);
        return c;
    }

    private int source(GraphQuery q, GraphEntry entry) {
        if (q.getSource() == null) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, q.getAlgorithm() + " query '" + q.getQueryId() + "' needs a source vertex");
        }
        return internalId(q.getSource(), entry, "source");
    }

    private int[] targets(GraphQuery q, GraphEntry entry) {
        if (q.getResultMode() != ResultMode.TARGETS) return null;
        if (q.getTargets().isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "query '" + q.getQueryId() + "' asks for TARGETS mode but lists no targets");
        }
        int[] t = new int[q.getTargets().size()];
        for (int i = 0; i < t.length; i++) t[i] = internalId(q.getTargets().get(i), entry, "target");
        return t;
    }

    private static int internalId(int userId, GraphEntry entry, String what) {
        int v = userId - entry.firstVertexId();
        if (v < 0 || v >= entry.vertexCount()) {
            throw new RejectedException(ErrorCode.INVALID_VERTEX, what + " vertex " + userId + " is outside graph '" + entry.graphId()
                    + "' (version " + entry.version() + " has vertices " + entry.firstVertexId() + ".."
                    + (entry.firstVertexId() + entry.vertexCount() - 1) + ")");
        }
        return v;
    }

    /** Chunks of a vertex-indexed answer: dense ranges in FULL mode, the listed targets in TARGETS mode. */
    private List<QueryResult> vertexChunks(GraphQuery q, GraphEntry entry, ResidentGraph resident, int[] targets,
                                           BiConsumer<QueryResult, Slice> fill) {
        int total = targets == null ? entry.vertexCount() : targets.length;
        int per = Math.max(1, config.getResultChunkVertices());
        int count = Math.max(1, (total + per - 1) / per);
        List<QueryResult> chunks = new ArrayList<>(count);
        for (int c = 0; c < count; c++) {
            QueryResult res = header(q, entry, resident, c, count);
            int from = c * per, to = Math.min(total, from + per);
            res.setOffset(from);
            if (targets != null) {
                List<Integer> vs = new ArrayList<>(to - from);
                for (int i = from; i < to; i++) vs.add(targets[i] + entry.firstVertexId());
                res.setVertices(vs);
            }
            fill.accept(res, new Slice(from, to, targets));
            chunks.add(res);
        }
        return chunks;
    }

    /** Positions from..to of an answer: vertex ids themselves (FULL) or indices into the target list (TARGETS). */
    private record Slice(int from, int to, int[] targets) {
        private int vertex(int i) { return targets == null ? i : targets[i]; }

        List<Integer> of(int[] values) {
            List<Integer> out = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) out.add(values[vertex(i)]);
            return out;
        }

        List<Double> of(double[] values) {
            List<Double> out = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) out.add(values[vertex(i)]);
            return out;
        }
    }

    private static int[] toUserIds(int[] parents, int first) {
        if (first == 0) return parents;
        int[] out = Arrays.copyOf(parents, parents.length);
        for (int i = 0; i < out.length; i++) if (out[i] >= 0) out[i] += first;
        return out;
    }

    private static QueryResult header(GraphQuery q, GraphEntry entry, ResidentGraph resident, int index, int count) {
        return QueryResult.newBuilder()
                .setQueryId(q.getQueryId())
                .setGraphId(q.getGraphId())
                .setGraphVersion(entry.version())
                .setAlgorithm(q.getAlgorithm())
                .setVariant(q.getVariant())
                .setStatus(ResultStatus.OK)
                .setBackend(resident.backend())
                .setChunkIndex(index)
                .setChunkCount(count)
                .setVertexCount(entry.vertexCount())
                .setFirstVertexId(entry.firstVertexId())
                .setSource(q.getSource())
                .build();
    }

    private static QueryAnswer ok(List<QueryResult> chunks, GraphEntry entry, ResidentGraph resident, Timing t, long encodeNanos) {
        return new QueryAnswer(chunks, null, null, resident.backend(), entry.vertexCount(), entry.edgeCount(),
                t.computeNanos(), t.copyNanos(), encodeNanos);
    }

    private QueryAnswer failure(GraphQuery q, GraphEntry entry, ErrorCode code, String message) {
        ResultStatus status = code.resultStatus().orElseThrow();
        QueryResult r = QueryResult.newBuilder()
                .setQueryId(q.getQueryId())
                .setGraphId(q.getGraphId())
                .setGraphVersion(entry == null ? -1 : entry.version())
                .setAlgorithm(q.getAlgorithm())
                .setVariant(q.getVariant())
                .setStatus(status)
                .setError(message)
                .setBackend(entry == null ? "" : entry.resident().backend())
                .setVertexCount(entry == null ? 0 : entry.vertexCount())
                .setFirstVertexId(entry == null ? 0 : entry.firstVertexId())
                .setSource(q.getSource())
                .build();
        return new QueryAnswer(List.of(r), code, message, r.getBackend(), r.getVertexCount(),
                entry == null ? 0 : entry.edgeCount(), 0, 0, 0);
    }

    /** For tests and tools: the algorithms this worker answers. */
    public static List<Algorithm> algorithms() {
        return List.of(Algorithm.BFS, Algorithm.SSSP, Algorithm.MST, Algorithm.APSP);
    }
}
