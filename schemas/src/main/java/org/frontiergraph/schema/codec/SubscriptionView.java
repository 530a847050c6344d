package org.frontiergraph.schema.codec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.AnswerFields.PushContent;
import org.frontiergraph.schema.codec.AnswerFields.Summary;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;

/**
 * What a subscriber holds: the answer of one subscription, assembled from its pushes in order (the rules of
 * docs/contract.md, "Subscriptions"), every answer field of {@link AnswerFields} held without naming algorithms. A
 * complete push (INITIAL, RESYNC, or any push with {@code delta} false) replaces what is held, chunk by chunk; a DELTA
 * push sets the values of the vertices it lists (BFS, SSSP; CC: their labels) and holds its push content
 * ({@link #content}: CC's components that merged or split) or removes the forest edges in {@code removedEdges} and
 * adds or overwrites those in {@code mstEdges} (MST). Arrays grow to the push's vertexCount, new vertices
 * unreachable (hops -1, distance +Infinity, parent -1) and their own components (label: themselves). Vertex ids here
 * are dense positions ({@code user id - firstVertexId}); forest edges are keyed by user ids.
 *
 * <p>Sequence numbers: a complete push starts at 0, each later push is the previous one + 1. A push with a number not
 * above the last applied one is a redelivery and ignored; a gap marks the view {@link #stale()} until the next
 * complete push (a consumer can re-subscribe to get one). Not thread-safe.
 */
public final class SubscriptionView {
    /** The per-vertex arrays ({@link AnswerFields.VertexArray}): int32 ones here, float64 ones in {@link #reals}. */
    private final Map<VertexArray, int[]> ints = new EnumMap<>(VertexArray.class);
    private final Map<VertexArray, double[]> reals = new EnumMap<>(VertexArray.class);
    /** The summary numbers of the last chunk applied ({@link AnswerFields.Summary}; null: none). */
    private final Map<Summary, Number> summaries = new EnumMap<>(Summary.class);
    /** The push content of the last push ({@link AnswerFields.PushContent}), its chunks' lists put together. */
    private final Map<PushContent, List<Object>> content = new EnumMap<>(PushContent.class);
    private final Map<Long, Double> forest = new HashMap<>();
    private int vertexCount;
    private int firstVertexId;
    private long version = -1;
    private long sequence = -1;
    private boolean stale;
    private boolean ended;
    private ResultStatus status = ResultStatus.OK;
    private String error;

    public SubscriptionView() {
        for (VertexArray a : VertexArray.values()) {
            if (a.real) reals.put(a, new double[0]);
            else ints.put(a, new int[0]);
        }
        for (PushContent p : PushContent.values()) content.put(p, new ArrayList<>());
    }

    /**
     * Applies one chunk of a push (a chunk in compact arrays is first expanded in place: {@link CompactArrays#expand}).
     * Returns false when the chunk was ignored (a redelivery, or a gap: see {@link #stale()}).
     */
    public boolean apply(QueryResult r) {
        CompactArrays.expand(r);
        long seq = r.getSequence() == null ? 0 : r.getSequence();
        boolean complete = !r.getDelta() && r.getReason() != PushReason.UPDATE && r.getReason() != PushReason.END;
        if (r.getChunkIndex() == 0) {
            if (complete && seq == 0) {
                if (r.getGraphVersion() < version && !stale) return false;   // a redelivered older complete push
                stale = false;
            } else if (seq <= sequence && !stale) {
                return false;   // seen
            } else if (seq != sequence + 1 || stale) {
                stale = true;
                return false;
            }
            sequence = seq;
        } else if (stale || seq != sequence) {
            return false;
        }
        version = r.getGraphVersion();
        if (r.getReason() == PushReason.END) {
            ended = true;
            status = r.getStatus();
            error = r.getError();
            return true;
        }
        status = r.getStatus();
        error = r.getError();
        if (r.getChunkIndex() == 0 && !r.getDelta()) forest.clear();
        firstVertexId = r.getFirstVertexId();
        grow(r.getVertexCount(), !r.getDelta() && r.getChunkIndex() == 0 && r.getVertices() == null);
        for (Summary n : Summary.values()) summaries.put(n, n.in(r));
        for (PushContent p : PushContent.values()) {
            if (r.getChunkIndex() == 0) content.put(p, new ArrayList<>());
            if (p.in(r) != null) content.get(p).addAll(p.in(r));
        }
        int[] at = r.getVertices() == null ? null : positions(PackedArrays.toIntArray(r.getVertices()));
        for (VertexArray a : VertexArray.values()) {
            if (a.in(r) == null) continue;
            if (a.real) place(PackedArrays.toDoubleArray(a.in(r)), reals.get(a), at, r.getOffset());
            else place(PackedArrays.toIntArray(a.in(r)), ints.get(a), at, r.getOffset(), a.ids);
        }
        if (r.getRemovedEdges() != null) {
            int[] s = PackedArrays.toIntArray(r.getRemovedEdges().getSources()), t = PackedArrays.toIntArray(r.getRemovedEdges().getTargets());
            for (int i = 0; i < s.length; i++) forest.remove(key(s[i], t[i]));
        }
        if (r.getMstEdges() != null) {
            EdgeBatch e = r.getMstEdges();
            int[] s = PackedArrays.toIntArray(e.getSources()), t = PackedArrays.toIntArray(e.getTargets());
            double[] w = PackedArrays.toDoubleArray(e.getWeights());
            for (int i = 0; i < s.length; i++) forest.put(key(s[i], t[i]), w.length == 0 ? 1.0 : w[i]);
        }
        return true;
    }

    private int[] positions(int[] userIds) {
        for (int i = 0; i < userIds.length; i++) userIds[i] -= firstVertexId;
        return userIds;
    }

    /** Every array to {@code n} vertices, those from the held count (every one when {@code reset}) new. */
    private void grow(int n, boolean reset) {
        int from = reset ? 0 : Math.min(vertexCount, n);
        for (VertexArray a : VertexArray.values()) {
            if (a.real) {
                double[] x = reals.get(a).length == n ? reals.get(a) : Arrays.copyOf(reals.get(a), n);
                Arrays.fill(x, from, n, Double.POSITIVE_INFINITY);
                reals.put(a, x);
            } else {
                int[] x = ints.get(a).length == n ? ints.get(a) : Arrays.copyOf(ints.get(a), n);
                if (a.selfWhenNew) for (int v = from; v < n; v++) x[v] = v;
                else Arrays.fill(x, from, n, -1);
                ints.put(a, x);
            }
        }
        vertexCount = n;
    }

    private void place(int[] values, int[] into, int[] at, int offset, boolean ids) {
        for (int i = 0; i < values.length; i++) {
            int x = ids && values[i] >= 0 ? values[i] - firstVertexId : values[i];
            into[at == null ? offset + i : at[i]] = x;
        }
    }

    private static void place(double[] values, double[] into, int[] at, int offset) {
        for (int i = 0; i < values.length; i++) into[at == null ? offset + i : at[i]] = values[i];
    }

    /** Forest edges are keyed by their ends in user ids, smaller first. */
    public static long key(int u, int v) {
        return u < v ? ((long) u << 32) | (v & 0xffffffffL) : ((long) v << 32) | (u & 0xffffffffL);
    }

    /**
     * Int32 array {@code a} by dense position (-1: none, or for a labelling the vertex itself); vertex ids as dense
     * positions. Do not modify.
     */
    public int[] ints(VertexArray a) { return ints.get(a); }

    /** Float64 array {@code a} by dense position (+Infinity: unreachable). Do not modify. */
    public double[] reals(VertexArray a) { return reals.get(a); }

    /** Summary number {@code n} of the last chunk applied, or null. */
    public Number summary(Summary n) { return summaries.get(n); }

    /** BFS hop counts by dense position (-1 unreachable). */
    public int[] hops() { return ints(VertexArray.HOPS); }

    /** BFS/SSSP parents by dense position, as dense positions (-1 unreachable; the source its own). */
    public int[] parents() { return ints(VertexArray.PARENTS); }

    /** SSSP distances by dense position (+Infinity unreachable). */
    public double[] distances() { return reals(VertexArray.DISTANCES); }

    /** CC labels by dense position, as dense positions (the smallest vertex of each one's component). */
    public int[] labels() { return ints(VertexArray.LABELS); }

    /** Push content {@code p} as the last push listed it over its chunks (empty: the push had none). Do not modify. */
    public List<?> content(PushContent p) { return content.get(p); }

    /**
     * CC: the components that merged or split, as the last push listed them over its chunks (empty for a complete
     * push), in the order of the batches; labels and parts in user ids. Do not modify.
     */
    @SuppressWarnings("unchecked")
    public List<ComponentChange> componentChanges() {
        return (List<ComponentChange>) content(PushContent.COMPONENT_CHANGES);
    }

    /** MST: forest edges by {@link #key} of their user ids, with weights. */
    public Map<Long, Double> forest() { return forest; }

    public int vertexCount() { return vertexCount; }

    public long version() { return version; }

    public long sequence() { return sequence; }

    public Double totalWeight() { return (Double) summary(Summary.TOTAL_WEIGHT); }

    public Long components() { return (Long) summary(Summary.COMPONENTS); }

    public Long largestComponent() { return (Long) summary(Summary.LARGEST_COMPONENT); }

    public Long reachedCount() { return (Long) summary(Summary.REACHED); }

    public Integer maxHops() { return (Integer) summary(Summary.MAX_HOPS); }

    public Double maxDistance() { return (Double) summary(Summary.MAX_DISTANCE); }

    /** A push was missed: what is held is not current until the next complete push. */
    public boolean stale() { return stale; }

    /** The subscription ended (END push): {@link #status()} says why. */
    public boolean ended() { return ended; }

    public ResultStatus status() { return status; }

    public String error() { return error; }

}
