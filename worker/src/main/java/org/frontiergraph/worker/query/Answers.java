package org.frontiergraph.worker.query;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Turns the chunks of a FULL-mode result back into the engine's result (0-based ids), so that answers that travelled
 * through Kafka can be checked by the same verifiers as the engine's: the reverse of the algorithms'
 * {@link AnswerEncoder}s (each decodes its own answer with the readers of its {@link AnswerShape} here), for the
 * CLI, the benchmarks and the tests. Nothing here names an algorithm.
 */
public final class Answers {
    private Answers() {}

    /**
     * The engine's result of a FULL answer, as its algorithm's encoder decodes it.
     *
     * @throws ClassCastException when the answer's algorithm has another result type than {@code type}
     * @throws IllegalArgumentException for an answer that names its parts by the graph's ids (edges): decode it with
     *         {@link #decode(Class, CsrGraph, List)}
     */
    public static <R> R decode(Class<R> type, List<QueryResult> chunks) {
        return decode(type, null, chunks);
    }

    /** The engine's result of a FULL answer computed on {@code g} (edges are named by their ids in {@code g}). */
    public static <R> R decode(Class<R> type, CsrGraph g, List<QueryResult> chunks) {
        return type.cast(AnswerEncoders.of(chunks.get(0).getAlgorithm()).decode(g, chunks));
    }

    /**
     * A FULL answer computed on {@code g}, decoded and checked by its algorithm's verifier (the engine's module of
     * its name, against the reference and the problem's rules).
     */
    public static Verification verify(CsrGraph g, List<QueryResult> chunks) {
        return verify(AnswerEncoders.of(chunks.get(0).getAlgorithm()), g, chunks);
    }

    @SuppressWarnings("unchecked")
    private static <Q, R> Verification verify(AnswerEncoder<Q, R> e, CsrGraph g, List<QueryResult> chunks) {
        AlgorithmModule<Q, R> m = (AlgorithmModule<Q, R>) Algorithms.named(e.algorithm().name()).orElseThrow();
        return m.verify(g, e.answered(chunks.get(0)), e.decode(g, chunks));
    }

    // ---- the shapes' readers, for the encoders' decode ----

    /** The answer's source, 0-based. */
    public static int source(QueryResult head) {
        return head.getSource() - head.getFirstVertexId();
    }

    /** Int32 array {@code a} over every vertex (a value per vertex: hops, labels as written). */
    public static int[] ints(List<QueryResult> chunks, VertexArray a) {
        int[] to = new int[chunks.get(0).getVertexCount()];
        for (QueryResult c : chunks) if (a.in(c) != null) PackedArrays.copy(a.in(c), to, c.getOffset());
        return to;
    }

    /** Float64 array {@code a} over every vertex. */
    public static double[] doubles(List<QueryResult> chunks, VertexArray a) {
        double[] to = new double[chunks.get(0).getVertexCount()];
        for (QueryResult c : chunks) if (a.in(c) != null) PackedArrays.copy(a.in(c), to, c.getOffset());
        return to;
    }

    /** Int32 array {@code a} of user ids (parents, labels) over every vertex as 0-based ids; negative values (none) stay. */
    public static int[] ids(List<QueryResult> chunks, VertexArray a) {
        int[] to = new int[chunks.get(0).getVertexCount()];
        int first = chunks.get(0).getFirstVertexId();
        for (QueryResult c : chunks) {
            if (a.in(c) == null) continue;
            int n = PackedArrays.copy(a.in(c), to, c.getOffset());
            for (int i = c.getOffset(); i < c.getOffset() + n; i++) if (to[i] >= 0) to[i] -= first;
        }
        return to;
    }

    /** A matrix of float64 array {@code a} in row blocks: n * n values, row-major. */
    public static double[] matrix(List<QueryResult> chunks, VertexArray a) {
        int n = chunks.get(0).getVertexCount();
        double[] d = new double[n * n];
        for (QueryResult c : chunks) if (a.in(c) != null) PackedArrays.copy(a.in(c), d, c.getOffset() * n);
        return d;
    }

    /**
     * The edges ({@code mstEdges}) of an answer as ids into {@code g.undirectedEdges()}, ascending; -1 for an edge
     * {@code g} lacks.
     */
    public static int[] edgeIds(CsrGraph g, List<QueryResult> chunks) {
        if (g == null) throw new IllegalArgumentException("an answer of edges is decoded against the graph it was computed on");
        int first = chunks.get(0).getFirstVertexId();
        UndirectedEdges ue = g.undirectedEdges();
        int total = chunks.stream().mapToInt(c -> c.getMstEdges() == null ? 0 : PackedArrays.intCount(c.getMstEdges().getSources())).sum();
        int[] ids = new int[total];
        int k = 0;
        for (QueryResult c : chunks) {
            EdgeBatch b = c.getMstEdges();
            if (b == null) continue;
            IntBuffer s = PackedArrays.ints(b.getSources()), t = PackedArrays.ints(b.getTargets());
            for (int i = 0; i < s.limit(); i++) {
                int u = s.get(i) - first, v = t.get(i) - first;
                ids[k++] = edgeId(ue, Math.min(u, v), Math.max(u, v));
            }
        }
        Arrays.sort(ids);
        return ids;
    }

    /** Id of undirected edge {a, b} (a < b) by binary search over the (u, v)-ordered list; -1 when absent. */
    private static int edgeId(UndirectedEdges ue, int a, int b) {
        int lo = 0, hi = ue.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = ue.u[mid] != a ? Integer.compare(ue.u[mid], a) : Integer.compare(ue.v[mid], b);
            if (c < 0) lo = mid + 1; else if (c > 0) hi = mid - 1; else return mid;
        }
        return -1;
    }
}
