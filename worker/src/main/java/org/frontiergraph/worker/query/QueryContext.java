package org.frontiergraph.worker.query;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.sssp.SsspSummaries;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.registry.GraphEntry;

/**
 * One query being answered: the query, the graph version it runs on, the resident copy that runs it and the
 * worker's limits; and what every encoder shares: the source and targets in the engine's ids, result headers, and
 * chunks of vertex-indexed answers (dense ranges in FULL mode, the listed targets in TARGETS mode).
 */
public record QueryContext(GraphQuery query, GraphEntry entry, ResidentGraph resident, FrontierConfig config) {
    public ResultMode mode() { return query.getResultMode(); }

    public boolean summary() { return query.getResultMode() == ResultMode.SUMMARY; }

    /** The source vertex in the engine's ids. @throws RejectedException when absent or out of range */
    public int source() {
        if (query.getSource() == null) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, query.getAlgorithm() + " query '" + query.getQueryId()
                    + "' needs a source vertex");
        }
        return internalId(query.getSource(), "source");
    }

    /** The targets in the engine's ids in TARGETS mode, else null. @throws RejectedException when invalid */
    public int[] targets() {
        if (query.getResultMode() != ResultMode.TARGETS) return null;
        if (query.getTargets().isEmpty()) {
            throw new RejectedException(ErrorCode.INVALID_QUERY, "query '" + query.getQueryId()
                    + "' asks for TARGETS mode but lists no targets");
        }
        int[] t = new int[query.getTargets().size()];
        for (int i = 0; i < t.length; i++) t[i] = internalId(query.getTargets().get(i), "target");
        return t;
    }

    private int internalId(int userId, String what) {
        int v = userId - entry.firstVertexId();
        if (v < 0 || v >= entry.vertexCount()) {
            throw new RejectedException(ErrorCode.INVALID_VERTEX, what + " vertex " + userId + " is outside graph '"
                    + entry.graphId() + "' (version " + entry.version() + " has vertices " + entry.firstVertexId() + ".."
                    + (entry.firstVertexId() + entry.vertexCount() - 1) + ")");
        }
        return v;
    }

    /**
     * This context answering for {@code vertices} (engine ids) only, in TARGETS form: the vertices a subscription's
     * DELTA push lists.
     */
    public QueryContext over(int[] vertices) {
        List<Integer> targets = new ArrayList<>(vertices.length);
        for (int v : vertices) targets.add(v + entry.firstVertexId());
        GraphQuery q = GraphQuery.newBuilder(query).setResultMode(ResultMode.TARGETS).setTargets(targets).build();
        return new QueryContext(q, entry, resident, config);
    }

    /** Engine ids (parents, edge ends) in the user's ids; negative values (none) stay. */
    public int[] toUserIds(int[] ids) {
        int first = entry.firstVertexId();
        if (first == 0) return ids;
        int[] out = Arrays.copyOf(ids, ids.length);
        for (int i = 0; i < out.length; i++) if (out[i] >= 0) out[i] += first;
        return out;
    }

    /** Chunk {@code index} of {@code count}, status OK, with the query's and the graph version's identity. */
    public QueryResult header(int index, int count) {
        return QueryResult.newBuilder()
                .setQueryId(query.getQueryId())
                .setGraphId(query.getGraphId())
                .setGraphVersion(entry.version())
                .setAlgorithm(query.getAlgorithm())
                .setVariant(query.getVariant())
                .setStatus(ResultStatus.OK)
                .setBackend(resident.backend())
                .setChunkIndex(index)
                .setChunkCount(count)
                .setVertexCount(entry.vertexCount())
                .setFirstVertexId(entry.firstVertexId())
                .setSource(query.getSource())
                .build();
    }

    /** Chunks of a vertex-indexed answer over {@code targets} (null: every vertex), filled per slice. */
    public List<QueryResult> vertexChunks(int[] targets, BiConsumer<QueryResult, Slice> fill) {
        int total = targets == null ? entry.vertexCount() : targets.length;
        int per = Math.max(1, config.getResultChunkVertices());
        int count = Math.max(1, (total + per - 1) / per);
        int[] listed = targets == null ? null : toUserIds(targets);
        QueryResult[] chunks = new QueryResult[count];
        forEachChunk(count, c -> {   // chunks are independent: built on the cores side by side
            QueryResult res = header(c, count);
            int from = c * per, to = Math.min(total, from + per);
            res.setOffset(from);
            if (listed != null) res.setVertices(PackedArrays.pack(listed, from, to));
            fill.accept(res, new Slice(from, to, targets));
            chunks[c] = res;
        });
        return List.of(chunks);
    }

    /** Runs {@code chunk} for 0..count-1: on the common pool's cores when there are several, else here. */
    static void forEachChunk(int count, java.util.function.IntConsumer chunk) {
        if (count == 1) chunk.accept(0);
        else java.util.stream.IntStream.range(0, count).parallel().forEach(chunk);
    }

    /**
     * Positions from..to of an answer: vertex ids themselves (FULL) or indices into the target list (TARGETS).
     * {@code of} packs those positions of an engine array (little-endian, see PackedArrays) for a result field.
     */
    public record Slice(int from, int to, int[] targets) {
        public ByteBuffer of(int[] values) {
            return targets == null ? PackedArrays.pack(values, from, to) : PackedArrays.pack(values, targets, from, to);
        }

        public ByteBuffer of(double[] values) {
            return targets == null ? PackedArrays.pack(values, from, to) : PackedArrays.pack(values, targets, from, to);
        }

        /** Positions from..to of values that are already one per listed target (read at the targets by the engine). */
        public ByteBuffer ofListed(int[] values) {
            return PackedArrays.pack(values, from, to);
        }

        public ByteBuffer ofListed(double[] values) {
            return PackedArrays.pack(values, from, to);
        }
    }

    /** SUMMARY of distances on {@code c}: how many are finite (reached) and the largest of those. */
    public static QueryResult distanceSummary(QueryResult c, double[] distances) {
        double[] s = SsspSummaries.summarize(distances);
        return distanceSummary(c, (long) s[0], s[1]);
    }

    /** A distance SUMMARY on {@code c}: reached count and largest finite distance. */
    public static QueryResult distanceSummary(QueryResult c, long reached, double maxDistance) {
        c.setReachedCount(reached);
        c.setMaxDistance(maxDistance);
        return c;
    }
}
