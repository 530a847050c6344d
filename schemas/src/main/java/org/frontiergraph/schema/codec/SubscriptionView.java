package org.frontiergraph.schema.codec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;

/**
 * What a subscriber holds: the answer of one subscription, assembled from its pushes in order (the rules of
 * docs/contract.md, "Subscriptions"). A complete push (INITIAL, RESYNC, or any push with {@code delta} false)
 * replaces what is held, chunk by chunk; a DELTA push sets the values of the vertices it lists (BFS, SSSP; CC: their
 * labels, and the components that merged or split, {@link #componentChanges()}) or removes the forest edges in
 * {@code removedEdges} and adds or overwrites those in {@code mstEdges} (MST). Arrays grow to the push's vertexCount,
 * new vertices unreachable (hops -1, distance +Infinity, parent -1) and their own components (label: themselves).
 * Vertex ids here are dense positions ({@code user id - firstVertexId}); forest edges are keyed by user ids.
 *
 * <p>Sequence numbers: a complete push starts at 0, each later push is the previous one + 1. A push with a number not
 * above the last applied one is a redelivery and ignored; a gap marks the view {@link #stale()} until the next
 * complete push (a consumer can re-subscribe to get one). Not thread-safe.
 */
public final class SubscriptionView {
    private int[] hops = new int[0];
    private int[] parents = new int[0];
    private double[] distances = new double[0];
    private int[] labels = new int[0];
    private List<ComponentChange> componentChanges = new ArrayList<>();
    private final Map<Long, Double> forest = new HashMap<>();
    private int vertexCount;
    private int firstVertexId;
    private long version = -1;
    private long sequence = -1;
    private Double totalWeight;
    private Long components;
    private Long largestComponent;
    private Long reachedCount;
    private Integer maxHops;
    private Double maxDistance;
    private boolean stale;
    private boolean ended;
    private ResultStatus status = ResultStatus.OK;
    private String error;

    /**
     * Applies one chunk of a push. Returns false when the chunk was ignored (a redelivery, or a gap: see
     * {@link #stale()}).
     */
    public boolean apply(QueryResult r) {
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
        totalWeight = r.getTotalWeight();
        components = r.getComponents();
        largestComponent = r.getLargestComponent();
        if (r.getChunkIndex() == 0) componentChanges = new ArrayList<>();
        if (r.getComponentChanges() != null) componentChanges.addAll(r.getComponentChanges());
        reachedCount = r.getReachedCount();
        maxHops = r.getMaxHops();
        maxDistance = r.getMaxDistance();
        int[] at = r.getVertices() == null ? null : positions(PackedArrays.toIntArray(r.getVertices()));
        if (r.getHops() != null) place(PackedArrays.toIntArray(r.getHops()), hops, at, r.getOffset(), false);
        if (r.getParents() != null) place(PackedArrays.toIntArray(r.getParents()), parents, at, r.getOffset(), true);
        if (r.getDistances() != null) place(PackedArrays.toDoubleArray(r.getDistances()), distances, at, r.getOffset());
        if (r.getLabels() != null) place(PackedArrays.toIntArray(r.getLabels()), labels, at, r.getOffset(), true);
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

    private void grow(int n, boolean reset) {
        int from = reset ? 0 : Math.min(vertexCount, n);
        if (n != hops.length) {
            hops = Arrays.copyOf(hops, n);
            parents = Arrays.copyOf(parents, n);
            distances = Arrays.copyOf(distances, n);
            labels = Arrays.copyOf(labels, n);
        }
        for (int x = from; x < n; x++) labels[x] = x;
        Arrays.fill(hops, from, n, -1);
        Arrays.fill(parents, from, n, -1);
        Arrays.fill(distances, from, n, Double.POSITIVE_INFINITY);
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

    /** BFS hop counts by dense position (-1 unreachable). */
    public int[] hops() { return hops; }

    /** BFS/SSSP parents by dense position, as dense positions (-1 unreachable; the source its own). */
    public int[] parents() { return parents; }

    /** SSSP distances by dense position (+Infinity unreachable). */
    public double[] distances() { return distances; }

    /** CC labels by dense position, as dense positions (the smallest vertex of each one's component). */
    public int[] labels() { return labels; }

    /**
     * CC: the components that merged or split, as the last push listed them over its chunks (empty for a complete
     * push), in the order of the batches; labels and parts in user ids. Do not modify.
     */
    public List<ComponentChange> componentChanges() { return componentChanges; }

    /** MST: forest edges by {@link #key} of their user ids, with weights. */
    public Map<Long, Double> forest() { return forest; }

    public int vertexCount() { return vertexCount; }

    public long version() { return version; }

    public long sequence() { return sequence; }

    public Double totalWeight() { return totalWeight; }

    public Long components() { return components; }

    public Long largestComponent() { return largestComponent; }

    public Long reachedCount() { return reachedCount; }

    public Integer maxHops() { return maxHops; }

    public Double maxDistance() { return maxDistance; }

    /** A push was missed: what is held is not current until the next complete push. */
    public boolean stale() { return stale; }

    /** The subscription ended (END push): {@link #status()} says why. */
    public boolean ended() { return ended; }

    public ResultStatus status() { return status; }

    public String error() { return error; }

}
