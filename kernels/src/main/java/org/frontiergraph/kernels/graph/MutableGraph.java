package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The current version of a graph as updates change it, without rebuilding it per update: a compact
 * {@link CsrGraph} (the base) whose weights are re-weighted in place, plus a delta overlay of structural changes
 * (base edges removed, edges added, vertices appended). {@link #current()} merges the overlay into a new compact
 * CSR in O(m + k log k) when a reader needs it (the next query), so a run of updates between two queries costs one
 * merge, however many updates it holds; re-weight-only updates never merge.
 *
 * <p>Cost of {@link #apply}: O(k log d) for k edits (a binary search per edit in its row), independent of the
 * graph's size. Each update is validated in full before any of it applies (all or nothing) with the rules of
 * {@link GraphEdit}, which stays the reference: the graph after any sequence of updates equals, array for array
 * (edge ids included), the one GraphEdit would give, and the one built from scratch from the same edges.
 *
 * <p>Consistency for readers: re-weights change the base's weight array in place, so a reader holding
 * {@link #current()} sees later re-weights. The worker never lets that happen: updates and queries of one graph
 * run one after another on the thread that owns the graph's partition, so no query is running while an update
 * applies and no copy-on-write is needed. Readers on other threads (the live view) take {@link #snapshot()}.
 *
 * <p>A GPU copy follows by {@link #drainWeightChanges()}: the arcs re-weighted since it last looked (when it asked
 * for them with {@link #trackWeightChanges()}), or a new base object after a structural merge.
 */
public final class MutableGraph {
    private static final double REMOVED = Double.NaN;

    private CsrGraph base;
    private final boolean directed;
    private int vertexCount;
    private long edgeCount;
    /** Base edge ids removed since the last merge. */
    private final BitSet removed = new BitSet();
    /** Edges added since the last merge that are not base edges: key(u, v) to weight. */
    private final Map<Long, Double> added = new HashMap<>();
    private boolean tracking;
    private int[] changedArcs = new int[16];
    private int changedCount;
    private boolean allChanged;
    /** The edges and vertex count changed since the last {@link #drainChangedEdges()}, once asked for. */
    private ChangedEdges.Recorder changes;

    public MutableGraph(CsrGraph base) {
        this.base = base;
        this.directed = base.directed();
        this.vertexCount = base.vertexCount();
        this.edgeCount = base.edgeCount();
    }

    public synchronized int vertexCount() { return vertexCount; }

    public synchronized long edgeCount() { return edgeCount; }

    public boolean directed() { return directed; }

    /** Whether structural changes wait to be merged (the next {@link #current()} builds a new CSR). */
    public synchronized boolean pendingStructure() {
        return vertexCount != base.vertexCount() || !added.isEmpty() || !removed.isEmpty();
    }

    /** Bytes held: the base CSR and the overlay (about 64 bytes per added edge). */
    public synchronized long bytes() {
        return base.bytes() + 64L * added.size() + (removed.isEmpty() ? 0 : removed.size() / 8);
    }

    /** The current version as a compact CSR, merging pending structural changes first. */
    public synchronized CsrGraph current() {
        if (pendingStructure()) merge();
        return base;
    }

    /** A copy of the current version that later updates do not touch, for readers on other threads. */
    public synchronized CsrGraph snapshot() {
        CsrGraph g = current();
        return new CsrGraph(g.vertexCount(), g.directed(), g.rowOffsets(), g.columns(), g.weights().clone(),
                g.arcEdgeIds(), g.edgeCount(), g.integralWeights());
    }

    /** From now on, re-weighted arcs are remembered until {@link #drainWeightChanges()} (a device copy asks this). */
    public synchronized void trackWeightChanges() {
        tracking = true;
    }

    /**
     * The arcs of {@link #current()}'s base re-weighted in place since the last call (their new weights are in the
     * graph), or {@code all} when so many changed that copying every weight is cheaper. Call after
     * {@link #current()}: a merge gives a new base, whose copy is made afresh anyway.
     */
    public synchronized WeightChanges drainWeightChanges() {
        WeightChanges c = allChanged ? WeightChanges.ALL : new WeightChanges(Arrays.copyOf(changedArcs, changedCount), false);
        changedCount = 0;
        allChanged = false;
        return c;
    }

    /** Arcs re-weighted in place, for a device copy to scatter; {@code all}: copy every weight instead. */
    public record WeightChanges(int[] arcs, boolean all) {
        static final WeightChanges ALL = new WeightChanges(new int[0], true);

        public boolean isEmpty() { return !all && arcs.length == 0; }
    }

    /**
     * From now on, the edges every update touches are remembered until {@link #drainChangedEdges()} (standing
     * queries ask this, to repair their answers instead of recomputing them).
     */
    public synchronized void trackChangedEdges() {
        if (changes == null) changes = new ChangedEdges.Recorder(vertexCount);
    }

    /** What changed since tracking began or since the last call (see {@link ChangedEdges}). */
    public synchronized ChangedEdges drainChangedEdges() {
        if (changes == null) throw new IllegalStateException("changed edges are not tracked: call trackChangedEdges() first");
        return changes.drain(vertexCount);
    }

    /**
     * Validates {@code e} against the current version and applies it, or throws and changes nothing. Messages name
     * vertices as the user does ({@code v + firstVertexId}). {@code maxEdges}: an update after which the graph
     * would have more edges is refused (TOO_LARGE).
     */
    public synchronized void apply(EdgeEdits e, int firstVertexId, long maxEdges) {
        int n = vertexCount + e.addedVertices();
        if (n < 0 || (long) vertexCount + e.addedVertices() > Integer.MAX_VALUE - 8) {
            throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                    "adding " + e.addedVertices() + " vertices to " + vertexCount + " exceeds the supported vertex count");
        }
        UserIds names = new UserIds(firstVertexId, n);
        if (e.reweightsOnly()) {
            applyReweights(e, names);
            record(e);
            return;
        }
        // 1. validate, computing the update's effect per edge key in a shadow map (NaN: removed); nothing changes yet
        Map<Long, Double> shadow = new HashMap<>();
        for (int i = 0; i < e.removeU().length; i++) {
            long key = existing(names, "remove", e.removeU()[i], e.removeV()[i], n);
            shadow.put(key, REMOVED);
        }
        for (int i = 0; i < e.addU().length; i++) {
            int u = e.addU()[i], v = e.addV()[i];
            if (u < 0 || u >= n || v < 0 || v >= n) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX, "add of edge "
                        + names.edge(u, v) + ": vertex outside " + names.range());
            }
        }
        for (int i = 0; i < e.reweightU().length; i++) {
            int u = e.reweightU()[i], v = e.reweightV()[i];
            double w = e.reweightW()[i];
            if (!validWeight(w)) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT,
                        "re-weight of " + names.edge(u, v) + " to " + w + ": weights must be finite and non-negative");
            }
            long key = existing(names, "re-weight", u, v, n);
            Double now = shadow.get(key);
            if (now != null && now.isNaN()) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                        "edge " + names.edge(u, v) + " is both removed and re-weighted");
            }
            shadow.put(key, w);
        }
        for (int i = 0; i < e.addU().length; i++) {
            int u = e.addU()[i], v = e.addV()[i];
            double w = e.addW()[i];
            if (!validWeight(w)) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT, "add of edge "
                        + names.edge(u, v) + " with weight " + w + ": weights must be finite and non-negative");
            }
            if (u == v) continue;   // self-loops are dropped (storage policy)
            long key = key(u, v);
            Double now = shadow.containsKey(key) ? shadow.get(key) : stored(key);
            shadow.put(key, now == null || now.isNaN() ? w : Math.min(now, w));
        }
        long edges = edgeCount;
        for (Map.Entry<Long, Double> s : shadow.entrySet()) {
            boolean was = stored(s.getKey()) != null, is = !s.getValue().isNaN();
            edges += (is ? 1 : 0) - (was ? 1 : 0);
        }
        if (edges > maxEdges) {
            throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                    "it would have " + edges + " edges; at most " + maxEdges + " are accepted");
        }
        // 2. apply
        vertexCount = n;
        edgeCount = edges;
        for (Map.Entry<Long, Double> s : shadow.entrySet()) commit(s.getKey(), s.getValue());
        record(e);
    }

    /** Remembers the edges an applied update touched, when asked to. */
    private void record(EdgeEdits e) {
        if (changes == null) return;
        changes.add(e.removeU(), e.removeV());
        changes.add(e.reweightU(), e.reweightV());
        changes.add(e.addU(), e.addV());
    }

    /**
     * The common case (link metrics changing), without a map: each edge is found once by binary search, all are
     * checked before any changes (all or nothing), then written in order (the last re-weight of an edge wins).
     */
    private void applyReweights(EdgeEdits e, UserIds names) {
        int k = e.reweightU().length;
        int[] arcs = new int[k];
        for (int i = 0; i < k; i++) {
            int u = e.reweightU()[i], v = e.reweightV()[i];
            double w = e.reweightW()[i];
            if (!validWeight(w)) {
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT,
                        "re-weight of " + names.edge(u, v) + " to " + w + ": weights must be finite and non-negative");
            }
            long key = existing(names, "re-weight", u, v, vertexCount);
            int arc = baseArc((int) (key >>> 32), (int) key);
            arcs[i] = arc >= 0 && !removed.get(base.arcEdgeIds()[arc]) ? arc : -1;   // -1: an added edge
        }
        for (int i = 0; i < k; i++) {
            double w = e.reweightW()[i];
            int arc = arcs[i];
            if (arc < 0) {
                added.put(key(e.reweightU()[i], e.reweightV()[i]), w);
            } else if (base.weights()[arc] != w) {
                int u = e.reweightU()[i], v = e.reweightV()[i];
                int lo = Math.min(u, v), hi = Math.max(u, v);
                setBaseWeight(arc, directed ? u : lo, w);   // arc is u->v, or lo->hi when undirected
                if (!directed) setBaseWeight(base.findArc(hi, lo), hi, w);
            }
        }
    }

    private void commit(long key, double w) {
        int u = (int) (key >>> 32), v = (int) key;
        int arc = baseArc(u, v);
        if (w != w) {   // removed
            if (added.remove(key) == null) removed.set(base.arcEdgeIds()[arc]);
            return;
        }
        if (arc < 0) {
            added.put(key, w);
            return;
        }
        removed.clear(base.arcEdgeIds()[arc]);   // an edge of the base added again keeps its place
        if (base.weights()[arc] != w) {
            setBaseWeight(arc, u, w);
            if (!directed) setBaseWeight(base.findArc(v, u), v, w);
        }
    }

    private void setBaseWeight(int arc, int source, double w) {
        base.setWeight(arc, source, w);
        if (!tracking || allChanged) return;
        if (changedCount >= Math.max(1024, base.arcCount() / 8)) {
            allChanged = true;
            changedCount = 0;
            return;
        }
        if (changedCount == changedArcs.length) changedArcs = Arrays.copyOf(changedArcs, changedCount * 2);
        changedArcs[changedCount++] = arc;
    }

    /** The key of an edge that must exist in the current version (before this update): range, then existence. */
    private long existing(UserIds names, String what, int u, int v, int n) {
        if (u < 0 || u >= n || v < 0 || v >= n) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX,
                    what + " of edge " + names.edge(u, v) + ": vertex outside " + names.range());
        }
        long key = key(u, v);
        if (u == v || stored(key) == null) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                    what + " of edge " + names.edge(u, v) + ": no such edge in the current version");
        }
        return key;
    }

    /** The weight of edge {@code key} in the current version, or null when it has no such edge. */
    private Double stored(long key) {
        Double w = added.get(key);
        if (w != null) return w;
        int arc = baseArc((int) (key >>> 32), (int) key);
        if (arc < 0 || removed.get(base.arcEdgeIds()[arc])) return null;
        return base.weights()[arc];
    }

    /** The base arc u->v (removed or not), or -1. */
    private int baseArc(int u, int v) {
        int bn = base.vertexCount();
        return u < bn && v < bn ? base.findArc(u, v) : -1;
    }

    /** Edges by key: (u, v) for directed graphs, (min, max) for undirected ones. */
    private long key(int u, int v) {
        if (!directed && u > v) {
            int t = u;
            u = v;
            v = t;
        }
        return ((long) u << 32) | (v & 0xffffffffL);
    }

    private static boolean validWeight(double w) {
        return w >= 0 && !Double.isInfinite(w);
    }

    /** Builds the new base: base edges not removed merged with the added ones, in canonical (u, v) order. */
    private void merge() {
        long[] keys = new long[added.size()];
        int k = 0;
        for (long key : added.keySet()) keys[k++] = key;
        Arrays.sort(keys);
        int m = Math.toIntExact(edgeCount);
        int[] eu = new int[m], ev = new int[m];
        double[] ew = new double[m];
        int[] off = base.rowOffsets(), col = base.columns(), ids = base.arcEdgeIds();
        double[] wt = base.weights();
        int bn = base.vertexCount(), out = 0, next = 0;
        boolean integral = true;
        for (int u = 0; u < vertexCount; u++) {
            int e = u < bn ? off[u] : 0, end = u < bn ? off[u + 1] : 0;
            while (true) {
                while (e < end && ((!directed && col[e] < u) || removed.get(ids[e]))) e++;
                boolean fromAdded = next < keys.length && (int) (keys[next] >>> 32) == u;
                if (e >= end && !fromAdded) break;
                int v;
                double w;
                if (fromAdded && (e >= end || (int) keys[next] < col[e])) {
                    v = (int) keys[next];
                    w = added.get(keys[next++]);
                } else {
                    v = col[e];
                    w = wt[e++];
                }
                eu[out] = u;
                ev[out] = v;
                ew[out++] = w;
                integral &= CsrGraph.integral(w);
            }
        }
        if (out != m) throw new IllegalStateException("merge produced " + out + " edges, expected " + m);
        base = GraphBuilder.fromCanonicalEdges(vertexCount, directed, eu, ev, ew, integral);
        removed.clear();
        added.clear();
        changedCount = 0;
        allChanged = false;
    }
}
