package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.standing.TreeKind;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing tree answers (BFS, SSSP: a {@link TreeAnswer}, a value and a parent per vertex). A DELTA push is the answer in
 * TARGETS form over the vertices that changed: {@code vertices} lists them, the value and parent arrays hold their
 * new entries, and the header's vertexCount says how far the consumer's arrays reach (new vertices are unreachable
 * until a push lists them). The push is packed here straight from the answer's arrays and the changed vertices: what
 * the encoder would give for a TARGETS query over them ({@code c.over(vertices)}), without the boxed target list and
 * the copy of the whole parents array in user ids that costs, per push; then moved to the compact fields
 * ({@link CompactArrays}: sorted ids as gaps, whole distances as varints, parents from their vertices). One public subclass per algorithm
 * ({@link BfsForm}, {@link SsspForm}) is its service entry.
 */
abstract class TreeForm<A extends TreeAnswer<A>> implements StandingForm<A> {
    private final Algorithm algorithm;
    private final TreeKind<A> kind;

    TreeForm(Algorithm algorithm, TreeKind<A> kind) {
        this.algorithm = algorithm;
        this.kind = kind;
    }

    @Override public Algorithm algorithm() { return algorithm; }

    @Override public TreeKind<A> kind() { return kind; }

    @Override public boolean fromSource() { return true; }

    /** Value, parent and the repair's keys: about 20 bytes a vertex (5.1 MB measured on USA-road-d.NY). */
    @Override public long bytesPerVertex() { return 20; }

    @Override
    public boolean supports(ResultMode mode) {
        return true;
    }

    @Override
    public List<QueryResult> delta(QueryContext c, A result, Pending pending) {
        int[] vertices = pending.vertices();
        int first = c.entry().firstVertexId();
        int per = Math.max(1, c.config().getResultChunkVertices());
        int count = Math.max(1, (vertices.length + per - 1) / per);
        boolean compact = compactDelta(c);
        return chunks(count, k -> {
            int from = k * per, to = Math.min(vertices.length, from + per);
            QueryResult chunk = c.header(k, count);
            chunk.setOffset(from);
            if (compact) {
                int[] ids = listedIds(vertices, from, to, first);
                CompactArrays.putVertices(chunk, ids);
                fillCompact(chunk, result, vertices, from, ids, first);
            } else {
                chunk.setVertices(listed(vertices, from, to, first));
                fill(chunk, result, vertices, from, to, first);
            }
            return chunk;
        });
    }

    /** Whether DELTA pushes go in the compact fields ({@code frontier.subscriptions.compact-delta}). */
    static boolean compactDelta(QueryContext c) {
        return c.config().getSubscriptions().isCompactDelta();
    }

    /**
     * Chunks {@code 0 .. count-1} of one push, made by {@code make}; a push of several chunks (a change of more than
     * {@code frontier.result-chunk-vertices} vertices) has them made side by side on the common pool, in order.
     */
    static List<QueryResult> chunks(int count, IntFunction<QueryResult> make) {
        if (count == 1) {
            List<QueryResult> one = new ArrayList<>(1);
            one.add(make.apply(0));
            return one;
        }
        return IntStream.range(0, count).parallel().mapToObj(make).collect(Collectors.toCollection(ArrayList::new));
    }

    /**
     * Sets the value and parent arrays of {@code chunk}: those of {@code at[from .. to-1]} (parents in user ids);
     * hop counts for a BFS answer, distances otherwise.
     */
    private static void fill(QueryResult chunk, TreeAnswer<?> r, int[] at, int from, int to, int first) {
        if (r.unitWeights()) {
            ByteBuffer hops = PackedArrays.int32Buffer(to - from);
            for (int i = from; i < to; i++) hops.putInt(hop(r.value(at[i])));
            chunk.setHops(hops.flip());
        } else {
            ByteBuffer distances = PackedArrays.float64Buffer(to - from);
            for (int i = from; i < to; i++) distances.putDouble(r.value(at[i]));
            chunk.setDistances(distances.flip());
        }
        chunk.setParents(userIds(r.parents(), at, from, to, first));
    }

    /**
     * {@link #fill}'s arrays straight into the compact fields, without packing them first: the same bytes as
     * {@link CompactArrays#compact} of the plain chunk. {@code ids}: the listed vertices {@code at[from ..]} in user ids.
     */
    private static void fillCompact(QueryResult chunk, TreeAnswer<?> r, int[] at, int from, int[] ids, int first) {
        int n = ids.length;
        if (r.unitWeights()) {
            int[] hops = new int[n];
            for (int i = 0; i < n; i++) hops[i] = hop(r.value(at[from + i]));
            CompactArrays.putInts(chunk, VertexArray.HOPS, hops, ids);
        } else {
            double[] distances = new double[n];
            for (int i = 0; i < n; i++) distances[i] = r.value(at[from + i]);
            CompactArrays.putReals(chunk, VertexArray.DISTANCES, distances);
        }
        CompactArrays.putInts(chunk, VertexArray.PARENTS, idsAt(r.parents(), at, from, from + n, first), ids);
    }

    private static int hop(double h) {
        return h == Double.POSITIVE_INFINITY ? -1 : (int) h;
    }

    /** {@code vertices[from .. to-1]} in user ids. */
    static int[] listedIds(int[] vertices, int from, int to, int first) {
        int[] ids = new int[to - from];
        for (int i = from; i < to; i++) ids[i - from] = vertices[i] + first;
        return ids;
    }

    /** {@code ids[at[i]]} for {@code i} in {@code from .. to-1} in user ids (+{@code first}; negative ones, none, stay). */
    static int[] idsAt(int[] ids, int[] at, int from, int to, int first) {
        int[] out = new int[to - from];
        for (int i = from; i < to; i++) {
            int id = ids[at[i]];
            out[i - from] = id < 0 ? id : id + first;
        }
        return out;
    }

    /** {@code vertices[from .. to-1]} in user ids, packed. */
    static ByteBuffer listed(int[] vertices, int from, int to, int first) {
        return PackedArrays.pack(listedIds(vertices, from, to, first));
    }

    /** {@link #idsAt}, packed. */
    static ByteBuffer userIds(int[] ids, int[] at, int from, int to, int first) {
        return PackedArrays.pack(idsAt(ids, at, from, to, first));
    }
}
