package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The current version of a graph as updates change it, without rebuilding it per update: a compact
 * {@link CsrGraph} (the base) whose weights are re-weighted in place, plus a delta overlay of structural changes
 * (base edges removed, edges added, vertices appended). {@link #current()} merges the overlay into a new compact
 * CSR in O(m + k log k) when a reader needs it (the next query), so a run of updates between two queries costs one
 * merge, however many updates it holds; re-weight-only updates never merge.
 *
 * <p>Cost of {@link #apply}: O(k log d) for k edits (a binary search per edit in its row, a probe or two of the
 * overlay's open-addressing table, {@link LongDoubleMap}), independent of the graph's size; an update of
 * {@link #SORTED_MIN} or more edits (structural or re-weights only) is first sorted by edge (O(k) radix sort) and
 * applied row by row, which trades the sort for cache misses (a 10^6-edit mixed batch on NY: ~1.4 s of CPU before,
 * ~0.1 s after). Each update is validated in full before any of it applies (all or nothing) with the rules of
 * {@link GraphEdit}, which stays the reference: the graph after any sequence of updates equals, array for array
 * (edge ids included), the one GraphEdit would give, and the one built from scratch from the same edges.
 *
 * <p>Consistency for readers: re-weights change the base's weight array in place, so a reader holding
 * {@link #current()} sees later re-weights. The worker never lets that happen: updates and queries of one graph
 * run one after another on the thread that owns the graph's partition, so no query is running while an update
 * applies and no copy-on-write is needed. Readers on other threads (the live view) take {@link #snapshot()}.
 *
 * <p>Trade-offs, measured (docs/benchmarks.md, "Structural updates on the CPU engine (2-core)"): the merge is
 * synchronous, on the first reader after a structural update, and it always builds a compact CSR. Two other designs
 * were weighed and not taken. (1) Merging in the background, as soon as a structural update is applied: the next
 * update would then have to be rebased onto the base being built (its removed ids and re-weighted arcs renumbered,
 * and the in-place re-weights of the old base raced by the merge's reads), and on a 2-core machine the merge takes
 * the same cores the consumer and the query need; through Kafka on NY the merges are ~3% of the consumer thread's
 * time and the SSSP queries ~78%. (2) Answering BFS/SSSP on base + overlay without merging: it saves the O(m) copy
 * but visits arcs in another order than the merged CSR, so answers with ties (parents) would depend on when the
 * last merge happened, and every engine and the repairs would need the overlay view. Compact CSR after every merge
 * keeps every reader (CPU kernels, the device's merge plans, the MST edge list) on one layout.
 *
 * <p>A GPU copy follows by {@link #drainWeightChanges()}: the arcs re-weighted since it last looked (when it asked
 * for them with {@link #trackWeightChanges()}), or a new base object after a structural merge.
 */
public final class MutableGraph {
    private static final double REMOVED = Double.NaN;
    /** What the maps answer for a key they do not hold (weights are never negative, -0.0 aside). */
    private static final double ABSENT = -1.0;

    private CsrGraph base;
    private final boolean directed;
    private int vertexCount;
    private long edgeCount;
    /** Base edge ids removed since the last merge. */
    private final BitSet removed = new BitSet();
    /** Edges added since the last merge that are not base edges: key(u, v) to weight. */
    private final LongDoubleMap added = new LongDoubleMap();
    /** One update's effect per edge key while it is validated (NaN: removed); empty between updates. */
    private final LongDoubleMap shadow = new LongDoubleMap();
    /** Rows whose arcs change at the next merge (an endpoint of an edge removed or added since the last one). */
    private final BitSet touched = new BitSet();
    /** The merges since the device copy last looked ({@link #drainMerges()}), while weight changes are tracked. */
    private final List<Merge> merges = new ArrayList<>();
    private boolean mergesLost;
    private boolean tracking;
    private int[] changedArcs = new int[16];
    private int changedCount;
    private boolean allChanged;
    /** The edges and vertex count changed since the last {@link #drainChangedEdges()}, once asked for. */
    private ChangedEdges.Recorder changes;
    /** The same for a device copy that applies structural changes itself ({@link #drainDeviceEdges()}). */
    private ChangedEdges.Recorder deviceChanges;

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

    /**
     * Bytes held: the base CSR and the overlay (an open-addressing table, 34-68 bytes per added edge); a graph
     * without pending changes counts its base alone (the empty tables' few hundred bytes are left out).
     */
    public synchronized long bytes() {
        return base.bytes() + (added.isEmpty() ? 0 : added.bytes()) + (removed.isEmpty() ? 0 : removed.size() / 8);
    }

    /**
     * Whether the arcs differ from {@code g}'s: structural changes wait to be merged, or were merged into a base other
     * than {@code g} (a device copy made from {@code g} asks whether it must change more than weights).
     */
    public synchronized boolean structureChangedSince(CsrGraph g) {
        return pendingStructure() || base != g;
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
     * graph), or {@code all} when so many changed that copying every weight is cheaper. Arcs re-weighted before a
     * merge are listed by their index in the merged base (those of rows the merge rebuilt are left out: a copy
     * rebuilt from {@link #drainMerges()} takes those rows whole). Call after {@link #current()}.
     */
    public synchronized WeightChanges drainWeightChanges() {
        WeightChanges c = allChanged ? WeightChanges.ALL : new WeightChanges(Arrays.copyOf(changedArcs, changedCount), false);
        changedCount = 0;
        allChanged = false;
        return c;
    }

    /**
     * One merge: {@code after} is {@code before} with the rows {@code touchedRows} (sorted; new vertices' rows among
     * them when they have arcs) rebuilt; every other row holds the same arcs in the same order, shifted. A device
     * copy of {@code before} becomes one of {@code after} by moving the untouched rows and writing the touched
     * ones, without the whole graph crossing the bus.
     */
    public record Merge(CsrGraph before, CsrGraph after, int[] touchedRows, EdgeMoves edges) {}

    /**
     * How the edge ids of an undirected graph move in a merge (null for directed graphs): runs (from, to, length)
     * of old ids kept, in order, and the new ids of the added edges (sorted, with their endpoints and weights). An
     * edge-indexed copy (the MST edge list, on the host and on the device) follows by moving the runs and writing
     * the added edges.
     */
    public record EdgeMoves(int[] runs, int[] addedIds, long[] addedKeys, double[] addedWeights) {
        static EdgeMoves of(int oldSize, int[] removed, int[] addedIds, long[] addedKeys, double[] addedWeights) {
            int[] runs = new int[48];
            int size = 0;
            for (int o = 0, nw = 0, r = 0, a = 0; o < oldSize; ) {
                if (r < removed.length && removed[r] == o) { o++; r++; continue; }
                if (a < addedIds.length && addedIds[a] == nw) { nw++; a++; continue; }
                int len = (r < removed.length ? removed[r] : oldSize) - o;
                if (a < addedIds.length) len = Math.min(len, addedIds[a] - nw);
                if (size + 3 > runs.length) runs = Arrays.copyOf(runs, 2 * runs.length);
                runs[size++] = o;
                runs[size++] = nw;
                runs[size++] = len;
                o += len;
                nw += len;
            }
            return new EdgeMoves(Arrays.copyOf(runs, size), addedIds, addedKeys, addedWeights);
        }
    }

    /**
     * The merges since the last call, oldest first, or null when a copy must be made afresh instead (more than
     * {@link #MAX_PENDING_MERGES} piled up: each holds its old base in memory). Only while weight changes are
     * tracked.
     */
    public synchronized List<Merge> drainMerges() {
        List<Merge> out = mergesLost ? null : List.copyOf(merges);
        merges.clear();
        mergesLost = false;
        return out;
    }

    /** Merges kept for a copy that has not looked yet; beyond this it reloads (old bases are not kept alive). */
    public static final int MAX_PENDING_MERGES = 4;

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
     * From now on, the edges every update touches are also remembered for a device copy that applies structural
     * changes itself (a slack layout), until {@link #drainDeviceEdges()}; independent of {@link #trackChangedEdges()}.
     */
    public synchronized void trackDeviceEdges() {
        if (deviceChanges == null) deviceChanges = new ChangedEdges.Recorder(vertexCount);
    }

    /** The edges touched since device tracking began or since the last call (see {@link ChangedEdges}). */
    public synchronized ChangedEdges drainDeviceEdges() {
        if (deviceChanges == null) throw new IllegalStateException("device edges are not tracked: call trackDeviceEdges() first");
        return deviceChanges.drain(vertexCount);
    }

    /**
     * The weights of edges {@code keys} ((u, v) as {@code u << 32 | v}, u < v on undirected graphs) in the current
     * version, NaN where it has none: {@link #weightOf} for many edges at once, on all cores.
     */
    public synchronized double[] weightsOf(long[] keys) {
        double[] w = new double[keys.length];
        IntStream.range(0, keys.length).parallel().forEach(i -> {
            int u = (int) (keys[i] >>> 32), v = (int) keys[i];
            double x = u < 0 || v < 0 || u >= vertexCount || v >= vertexCount || u == v ? ABSENT : stored(key(u, v));
            w[i] = x == ABSENT ? Double.NaN : x;
        });
        return w;
    }

    /** The weight of edge (u, v) in the current version, NaN when it has none; O(log d), no merge. */
    public synchronized double weightOf(int u, int v) {
        if (u < 0 || v < 0 || u >= vertexCount || v >= vertexCount || u == v) return Double.NaN;
        double w = stored(key(u, v));
        return w == ABSENT ? Double.NaN : w;
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
        if (e.size() >= SORTED_MIN && applySorted(e, n, maxEdges)) {
            record(e);
            return;
        }
        if (e.reweightsOnly()) {
            applyReweights(e, names);
            record(e);
            return;
        }
        // 1. validate, computing the update's effect per edge key in a shadow map (NaN: removed); nothing changes yet
        shadow.clear();
        long edges;
        try {
            edges = edgeCount + validate(e, names, n);
        } catch (RuntimeException x) {
            shadow.clear();
            throw x;
        }
        if (edges > maxEdges) {
            shadow.clear();
            throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                    "it would have " + edges + " edges; at most " + maxEdges + " are accepted");
        }
        // 2. apply
        vertexCount = n;
        edgeCount = edges;
        for (int s = 0, cap = shadow.capacity(); s < cap; s++) {
            if (shadow.usedAt(s)) commit(shadow.keyAt(s), shadow.valueAt(s));
        }
        shadow.clear();
        record(e);
    }

    /** Updates of at least this many edits (structural or not) take {@link #applySorted} first. */
    static final int SORTED_MIN = 256;

    /**
     * A large update in key order: its edits sorted by edge key (a stable radix sort, so an edge's edits stay in
     * the order {@link #apply} defines: removals, re-weights, additions, each in input order), each edge
     * looked up once, and the effects committed in key order, so the base's rows are visited in order instead of
     * at random (on a 10^6-edit batch most of apply's time was cache misses in the overlay's table and the rows).
     * It applies exactly what the sequential path would; when the update is invalid (or over {@code maxEdges}) it
     * changes nothing and returns false, and the sequential path then names the first mistake.
     */
    private boolean applySorted(EdgeEdits e, int n, long maxEdges) {
        int removes = e.removeU().length, reweights = e.reweightU().length, k = e.size();
        long[] keys = new long[k];
        int[] order = new int[k];   // the edit's place in apply's order: removals, then re-weights, then additions
        for (int i = 0; i < k; i++) {
            int u, v;
            if (i < removes) {
                u = e.removeU()[i];
                v = e.removeV()[i];
            } else if (i < removes + reweights) {
                u = e.reweightU()[i - removes];
                v = e.reweightV()[i - removes];
            } else {
                u = e.addU()[i - removes - reweights];
                v = e.addV()[i - removes - reweights];
            }
            if (u < 0 || u >= n || v < 0 || v >= n) return false;
            keys[i] = key(u, v);
            order[i] = i;
        }
        radixSort(keys, order);
        // the edits of each edge key, in apply's order, give its effect; keys are independent, so they are checked on
        // all cores (the lookups of the version before this update only read: this method holds the graph's lock)
        int[] starts = new int[k + 1];
        int groups = 0;
        for (int i = 0; i < k; i++) if (i == 0 || keys[i] != keys[i - 1]) starts[groups++] = i;
        starts[groups] = k;
        double[] effect = new double[groups];
        byte[] outcome = new byte[groups];   // per key: 0 nothing written, 1 written, 2 refused
        boolean[] existed = new boolean[groups];
        IntStream range = IntStream.range(0, groups);
        (groups >= PARALLEL_KEYS ? range.parallel() : range).forEach(gi -> {
            int i = starts[gi], j = starts[gi + 1];
            long key = keys[i];
            boolean loop = (int) (key >>> 32) == (int) key;
            double now = loop ? ABSENT : stored(key);   // in the version before this update
            boolean was = now != ABSENT, written = false;
            existed[gi] = was;
            for (int x = i; x < j; x++) {
                int o = order[x];
                if (o < removes) {
                    if (!was) {   // no such edge (or a loop)
                        outcome[gi] = 2;
                        return;
                    }
                    now = REMOVED;
                } else if (o < removes + reweights) {
                    double w = e.reweightW()[o - removes];
                    if (!validWeight(w) || !was || Double.isNaN(now)) {   // also: removed and re-weighted
                        outcome[gi] = 2;
                        return;
                    }
                    now = w;
                } else {
                    double w = e.addW()[o - removes - reweights];
                    if (!validWeight(w)) {
                        outcome[gi] = 2;
                        return;
                    }
                    if (loop) continue;   // self-loops are dropped (storage policy)
                    now = now == ABSENT || Double.isNaN(now) ? w : Math.min(now, w);
                }
                written = true;
            }
            effect[gi] = now;
            outcome[gi] = (byte) (written ? 1 : 0);
        });
        long delta = 0;
        for (int gi = 0; gi < groups; gi++) {
            if (outcome[gi] == 2) return false;
            if (outcome[gi] == 1) delta += (Double.isNaN(effect[gi]) ? 0 : 1) - (existed[gi] ? 1 : 0);
        }
        long edges = edgeCount + delta;
        if (edges > maxEdges) return false;
        vertexCount = n;
        edgeCount = edges;
        // the base arcs of the written keys (and their reverse arcs), found on all cores: the commits below change
        // weights, the overlay and the removed set, never the base's rows, so the arcs stay where they are
        int[] arc = new int[groups], reverse = new int[groups];
        IntStream arcs = IntStream.range(0, groups);
        (groups >= PARALLEL_KEYS ? arcs.parallel() : arcs).forEach(gi -> {
            if (outcome[gi] != 1) return;
            long key = keys[starts[gi]];
            int u = (int) (key >>> 32), v = (int) key;
            arc[gi] = baseArc(u, v);
            reverse[gi] = !directed && arc[gi] >= 0 && effect[gi] == effect[gi] ? base.findArc(v, u) : -1;
        });
        for (int gi = 0; gi < groups; gi++) if (outcome[gi] == 1) commit(keys[starts[gi]], effect[gi], arc[gi], reverse[gi]);
        return true;
    }

    /** Distinct edge keys from which a bulk update checks them on all cores. */
    private static final int PARALLEL_KEYS = 8_192;

    /** Sorts {@code keys} (non-negative) ascending, carrying {@code order} along; stable (LSD radix, 11-bit digits). */
    private static void radixSort(long[] keys, int[] order) {
        int k = keys.length, bits = 11, buckets = 1 << bits;
        long or = 0, and = -1;
        for (long x : keys) {
            or |= x;
            and &= x;
        }
        long varying = or ^ and;   // digits that are the same in every key need no pass
        long[] k2 = new long[k];
        int[] o2 = new int[k];
        int[] count = new int[buckets + 1];
        for (int shift = 0; shift < 64; shift += bits) {
            if (((varying >>> shift) & (buckets - 1)) == 0) continue;
            Arrays.fill(count, 0);
            for (long x : keys) count[(int) ((x >>> shift) & (buckets - 1)) + 1]++;
            for (int d = 0; d < buckets; d++) count[d + 1] += count[d];
            for (int i = 0; i < k; i++) {
                int p = count[(int) ((keys[i] >>> shift) & (buckets - 1))]++;
                k2[p] = keys[i];
                o2[p] = order[i];
            }
            System.arraycopy(k2, 0, keys, 0, k);
            System.arraycopy(o2, 0, order, 0, k);
        }
    }

    /**
     * Step 1 of {@link #apply}: checks every edit against the current version, filling {@link #shadow}; returns how
     * the edge count changes (each write to the shadow adds whether the edge is there after it, less before it).
     */
    private long validate(EdgeEdits e, UserIds names, int n) {
        long delta = 0;
        for (int i = 0; i < e.removeU().length; i++) {
            long key = existing(names, "remove", e.removeU()[i], e.removeV()[i], n);
            double before = shadow.put(key, REMOVED, ABSENT);   // absent: the edge exists (checked), so it goes
            if (!Double.isNaN(before)) delta--;
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
            if (Double.isNaN(shadow.put(key, w, ABSENT))) {   // the shadow is dropped with the update
                throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                        "edge " + names.edge(u, v) + " is both removed and re-weighted");
            }
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
            double now = shadow.get(key, ABSENT);
            if (now == ABSENT) now = stored(key);
            boolean there = now != ABSENT && !Double.isNaN(now);
            shadow.put(key, there ? Math.min(now, w) : w);
            if (!there) delta++;
        }
        return delta;
    }

    /** Remembers the edges an applied update touched, when asked to. */
    private void record(EdgeEdits e) {
        for (ChangedEdges.Recorder r : new ChangedEdges.Recorder[] {changes, deviceChanges}) {
            if (r == null) continue;
            r.add(e.removeU(), e.removeV());
            r.add(e.reweightU(), e.reweightV());
            r.add(e.addU(), e.addV());
        }
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
            arcs[i] = existingArc(names, "re-weight", u, v, vertexCount);   // -1: an added edge
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
        commit(key, w, arc, !directed && arc >= 0 && w == w ? base.findArc(v, u) : -1);
    }

    /** {@link #commit(long, double)} with the edge's base arc u -> v and, undirected and kept, its reverse arc found. */
    private void commit(long key, double w, int arc, int reverse) {
        int u = (int) (key >>> 32), v = (int) key;
        if (w != w || arc < 0) {   // a row changes: the arc u->v (and v->u) goes or comes
            touched.set(u);
            if (!directed) touched.set(v);
        }
        if (w != w) {   // removed
            if (!added.remove(key)) removed.set(base.arcEdgeIds()[arc]);
            return;
        }
        if (arc < 0) {
            added.put(key, w);
            return;
        }
        removed.clear(base.arcEdgeIds()[arc]);   // an edge of the base added again keeps its place
        if (base.weights()[arc] != w) {
            setBaseWeight(arc, u, w);
            if (!directed) setBaseWeight(reverse, v, w);
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
        if (u == v || stored(key) == ABSENT) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                    what + " of edge " + names.edge(u, v) + ": no such edge in the current version");
        }
        return key;
    }

    /**
     * {@link #existing}, found once: the edge's live base arc (u->v, or lo->hi when undirected), or -1 when it is an
     * added edge. An edge of the base that was removed and added again keeps its base arc, so the two never overlap.
     */
    private int existingArc(UserIds names, String what, int u, int v, int n) {
        if (u < 0 || u >= n || v < 0 || v >= n) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX,
                    what + " of edge " + names.edge(u, v) + ": vertex outside " + names.range());
        }
        long key = key(u, v);
        if (u != v) {
            int arc = baseArc((int) (key >>> 32), (int) key);
            if (arc >= 0 && !removed.get(base.arcEdgeIds()[arc])) return arc;
            if (added.get(key, ABSENT) != ABSENT) return -1;
        }
        throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                what + " of edge " + names.edge(u, v) + ": no such edge in the current version");
    }

    /** The weight of edge {@code key} in the current version, or {@link #ABSENT} when it has no such edge. */
    private double stored(long key) {
        double w = added.get(key, ABSENT);
        if (w != ABSENT) return w;
        int arc = baseArc((int) (key >>> 32), (int) key);
        if (arc < 0 || removed.get(base.arcEdgeIds()[arc])) return ABSENT;
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

    /**
     * Builds the new base from the base and the overlay ({@link CsrMerge}), then carries what the copies that follow
     * this graph track across it (re-weighted arcs renumbered, the merge kept for a device copy) and empties the
     * overlay.
     */
    private void merge() {
        CsrGraph old = base;
        CsrMerge.Merged m = CsrMerge.build(old, vertexCount, directed, edgeCount, removed, added, touched);
        CsrGraph next = m.next();
        int[] rows = m.rows();
        if (tracking) {
            keepChangesAcross(old, next, rows);
            if (merges.size() < MAX_PENDING_MERGES && !mergesLost) {
                merges.add(new Merge(old, next, rows, m.moves()));
            } else {
                merges.clear();
                mergesLost = true;
            }
        } else {
            changedCount = 0;
            allChanged = false;
        }
        base = next;
        removed.clear();
        added.clear();
        touched.clear();
    }

    /**
     * Re-weighted arcs renumbered into the merged base: shifted in untouched rows, found again in touched ones (a
     * removed arc is dropped). Copies that take touched rows whole get them twice, harmlessly; copies indexed by edge
     * (the MST edge list) need them all.
     */
    private void keepChangesAcross(CsrGraph old, CsrGraph next, int[] rows) {
        int kept = 0;
        for (int i = 0; i < changedCount; i++) {
            int arc = changedArcs[i], u = old.sourceOf(arc);
            int now = Arrays.binarySearch(rows, u) >= 0 ? next.findArc(u, old.columns()[arc]) : arc - old.rowStart(u) + next.rowStart(u);
            if (now >= 0) changedArcs[kept++] = now;
        }
        changedCount = kept;
    }
}
