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
     * Builds the new base: base edges not removed merged with the added ones, in canonical (u, v) order. Only the
     * touched rows are merged edge by edge; the others are copied whole, and their edge ids shifted (an edge's id is
     * its rank in canonical order: the old id, less the removed edges before it, plus the added ones before it, see
     * {@link IdShift}), in the same pass as the copy. O(m) copying on all cores plus O(k log k + n) for the k
     * changed edges.
     */
    private void merge() {
        CsrGraph old = base;
        int n = vertexCount, bn = old.vertexCount();
        int[] off = old.rowOffsets(), col = old.columns(), ids = old.arcEdgeIds();
        double[] wt = old.weights();
        int[] rows = touched.stream().toArray();
        long[] addedKeys = added.keys();
        Arrays.sort(addedKeys);
        int[] removedIds = removed.stream().toArray();

        // 1. the touched rows' new arcs, packed: row rows[t] at [start[t], start[t + 1])
        int[] addCount = new int[rows.length + 1];
        for (long key : addedKeys) {
            addCount[Arrays.binarySearch(rows, (int) (key >>> 32))]++;
            if (!directed) addCount[Arrays.binarySearch(rows, (int) key)]++;
        }
        int[] addStart = new int[rows.length + 1];
        for (int t = 0; t < rows.length; t++) addStart[t + 1] = addStart[t] + addCount[t];
        long[] addArcs = new long[addStart[rows.length]];   // (column << 32 | index into addedKeys), per row
        int[] fill = Arrays.copyOf(addStart, rows.length);
        for (int i = 0; i < addedKeys.length; i++) {
            int a = (int) (addedKeys[i] >>> 32), b = (int) addedKeys[i];
            addArcs[fill[Arrays.binarySearch(rows, a)]++] = ((long) b << 32) | i;
            if (!directed) addArcs[fill[Arrays.binarySearch(rows, b)]++] = ((long) a << 32) | i;
        }
        double[] addedW = new double[addedKeys.length];
        for (int i = 0; i < addedKeys.length; i++) addedW[i] = added.get(addedKeys[i], ABSENT);
        int[] degree = new int[rows.length];
        IntStream.range(0, rows.length).parallel().forEach(t -> {
            Arrays.sort(addArcs, addStart[t], addStart[t + 1]);
            int u = rows[t], d = addCount[t];
            if (u < bn) for (int e = off[u]; e < off[u + 1]; e++) if (!removed.get(ids[e])) d++;
            degree[t] = d;
        });
        int[] tStart = new int[rows.length + 1];
        for (int t = 0; t < rows.length; t++) tStart[t + 1] = Math.addExact(tStart[t], degree[t]);
        int[] tCol = new int[tStart[rows.length]];
        double[] tW = new double[tCol.length];
        int[] tOld = new int[tCol.length];   // the base arc each came from, or -1 - i for added edge addedKeys[i]
        double[] sumDelta = new double[rows.length];
        int[] nonIntegralDelta = new int[rows.length];
        IntStream.range(0, rows.length).parallel().forEach(t -> {
            int u = rows[t], p = tStart[t], e = u < bn ? off[u] : 0, end = u < bn ? off[u + 1] : 0;
            double sum = 0;
            int nonIntegral = 0;
            for (int x = e; x < end; x++) {
                sum -= wt[x];
                nonIntegral -= CsrGraph.integral(wt[x]) ? 0 : 1;
            }
            for (int a = addStart[t], aEnd = addStart[t + 1]; e < end || a < aEnd; ) {
                while (e < end && removed.get(ids[e])) e++;
                boolean fromAdded = a < aEnd && (e >= end || (int) (addArcs[a] >>> 32) < col[e]);
                if (!fromAdded && e >= end) break;
                if (fromAdded) {
                    tCol[p] = (int) (addArcs[a] >>> 32);
                    tW[p] = addedW[(int) addArcs[a]];
                    tOld[p] = -1 - (int) addArcs[a++];
                } else {
                    tCol[p] = col[e];
                    tW[p] = wt[e];
                    tOld[p] = e++;
                }
                sum += tW[p];
                nonIntegral += CsrGraph.integral(tW[p]) ? 0 : 1;
                p++;
            }
            sumDelta[t] = sum;
            nonIntegralDelta[t] = nonIntegral;
        });

        // 2. the new row offsets
        int[] newOff = new int[n + 1];
        long acc = 0;
        for (int u = 0, t = 0; u < n; u++) {
            newOff[u] = (int) acc;
            if (t < rows.length && rows[t] == u) acc += degree[t++];
            else if (u < bn) acc += off[u + 1] - off[u];
            if (acc > Integer.MAX_VALUE - 8) {
                throw new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE,
                        "graph has more than " + (Integer.MAX_VALUE - 8) + " arcs");
            }
        }
        newOff[n] = (int) acc;
        long expected = directed ? edgeCount : 2 * edgeCount;
        if (acc != expected) throw new IllegalStateException("merge produced " + acc + " arcs, expected " + expected);

        // 3. columns, weights and edge ids, row ranges on all cores: untouched rows copied whole, touched rows from
        // step 1. Undirected edge ids: an edge kept from the base shifts its old id (IdShift), an added edge takes the
        // id IdShift gives it; no pass over the new rows is needed for them.
        int arcs = (int) acc;
        int[] newCol = new int[arcs], newIds = new int[arcs];
        double[] newW = new double[arcs];
        IdShift shift = directed ? null : IdShift.of(old, removedIds, addedKeys);
        int[] bounds = rowRanges(newOff, n);
        IntStream.range(0, bounds.length - 1).parallel().forEach(r -> {
            int t = firstAtLeast(rows, bounds[r]);   // the next touched row, walked along with u
            for (int u = bounds[r]; u < bounds[r + 1]; u++) {
                int to = newOff[u], len = newOff[u + 1] - to;
                if (t < rows.length && rows[t] == u) {
                    int from = tStart[t];
                    System.arraycopy(tCol, from, newCol, to, len);
                    System.arraycopy(tW, from, newW, to, len);
                    if (!directed) {
                        for (int j = 0; j < len; j++) {
                            int o = tOld[from + j];
                            newIds[to + j] = o >= 0 ? shift.apply(ids[o]) : shift.addedIds()[-1 - o];
                        }
                    }
                    t++;
                } else if (len > 0) {
                    int from = off[u];
                    System.arraycopy(col, from, newCol, to, len);
                    System.arraycopy(wt, from, newW, to, len);
                    if (!directed) for (int j = 0; j < len; j++) newIds[to + j] = shift.apply(ids[from + j]);
                }
                if (directed) for (int e = to; e < to + len; e++) newIds[e] = e;   // directed: edges are the arcs, in order
            }
        });

        int oldNonIntegral = old.nonIntegralArcsIfKnown();
        int nonIntegral = oldNonIntegral < 0 ? countNonIntegral(newW) : oldNonIntegral + Arrays.stream(nonIntegralDelta).sum();
        double oldSum = old.weightSumIfKnown();
        CsrGraph next = new CsrGraph(n, directed, newOff, newCol, newW, newIds, Math.toIntExact(edgeCount), nonIntegral == 0);
        next.knownTotals(nonIntegral, Double.isNaN(oldSum) ? Double.NaN : oldSum + Arrays.stream(sumDelta).sum());
        EdgeMoves moves = null;
        if (!directed) {
            moves = EdgeMoves.of(old.edgeCount(), removedIds, shift.addedIds(), addedKeys, addedW);
            UndirectedEdges list = old.cachedUndirectedEdges();
            if (list != null) next.cacheUndirectedEdges(list.moved(moves, n, next.edgeCount()));
        }
        if (tracking) {
            keepChangesAcross(old, next, rows);
            if (merges.size() < MAX_PENDING_MERGES && !mergesLost) {
                merges.add(new Merge(old, next, rows, moves));
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

    /** Row boundaries splitting the arcs into about equal ranges for the cores. */
    private static int[] rowRanges(int[] offsets, int n) {
        int pieces = Math.max(1, Math.min(n, 4 * Runtime.getRuntime().availableProcessors()));
        long arcs = offsets[n];
        int[] b = new int[pieces + 1];
        for (int p = 1; p < pieces; p++) {
            long target = arcs * p / pieces;
            int lo = b[p - 1], hi = n;   // first row starting at or after the target
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (offsets[mid] < target) lo = mid + 1; else hi = mid;
            }
            b[p] = Math.max(lo, b[p - 1]);
        }
        b[pieces] = n;
        return b;
    }

    private static int countNonIntegral(double[] w) {
        return (int) IntStream.range(0, w.length).parallel().filter(i -> !CsrGraph.integral(w[i])).count();
    }

    /** The first index of sorted {@code a} whose value is at least {@code x} ({@code a.length} when none). */
    private static int firstAtLeast(int[] a, int x) {
        int lo = 0, hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) lo = mid + 1; else hi = mid;
        }
        return lo;
    }

    /**
     * Where the edges of an undirected base land in a merge ({@code addedIds}: the new ids of the added edges, in
     * key order): old id x of a kept edge becomes x - (removed ids below x) + (added
     * edges ordered before it). Both counts are step functions of x with at most k steps for k changed edges; they
     * are kept as the sorted old ids where the shift changes ({@code at}) and the shift from there on, and a table
     * with one entry per bucket of {@code 2^bits} old ids (about one step per bucket) says where to start looking,
     * so a lookup is O(1) expected, in a few KB to MB that stay in cache. (Searching the changed edges per arc
     * instead, by galloping, was most of a kron20 merge: O(m log(k / d)).)
     */
    private record IdShift(int[] at, int[] shift, int[] bucketFirst, int bits, int[] addedIds) {
        static IdShift of(CsrGraph old, int[] removedIds, long[] addedKeys) {
            int oldEdges = old.edgeCount(), bn = old.vertexCount();
            int[] off = old.rowOffsets(), col = old.columns(), ids = old.arcEdgeIds();
            // an added edge (a, b), a < b, is ordered after the old edges whose key is smaller: the old edges of the
            // rows before a and those (a, d < b); its step is at the id of the first old edge after it
            int[] addedAt = new int[addedKeys.length];
            int[] upperEnd = null;   // old edges (c, d) with c <= u, made only when a row cannot tell
            for (int i = 0; i < addedKeys.length; i++) {
                int a = (int) (addedKeys[i] >>> 32), b = (int) addedKeys[i];
                int pos;
                if (a >= bn) {
                    pos = oldEdges;
                } else {
                    int j = firstAtLeast(col, off[a], off[a + 1], b);   // b is not in row a (not a base edge)
                    if (j < off[a + 1]) {
                        pos = ids[j];   // col[j] > b > a: an upper arc, the first old edge after (a, b)
                    } else if (off[a + 1] > off[a] && col[off[a + 1] - 1] > a) {
                        pos = ids[off[a + 1] - 1] + 1;   // after row a's last upper arc
                    } else {
                        if (upperEnd == null) upperEnd = upperEnds(old);
                        pos = upperEnd[a];
                    }
                }
                addedAt[i] = pos;   // non-decreasing: the keys are sorted
            }
            // merge the steps: -1 from r + 1 on for a removed id r, +1 from pos on for an added edge
            int[] at = new int[removedIds.length + addedAt.length];
            int[] shift = new int[at.length];
            int steps = 0, now = 0;
            for (int r = 0, a = 0; r < removedIds.length || a < addedAt.length; ) {
                int x;
                if (a >= addedAt.length || (r < removedIds.length && removedIds[r] + 1 < addedAt[a])) {
                    x = removedIds[r++] + 1;
                    now--;
                } else {
                    x = addedAt[a++];
                    now++;
                }
                if (steps > 0 && at[steps - 1] == x) {
                    shift[steps - 1] = now;
                } else {
                    at[steps] = x;
                    shift[steps++] = now;
                }
            }
            int bits = 0;
            while (bits < 30 && ((long) oldEdges >>> (bits + 1)) >= Math.max(1, steps)) bits++;
            int[] bucketFirst = new int[(oldEdges >>> bits) + 1];
            for (int b = 0, i = 0; b < bucketFirst.length; b++) {
                long startId = (long) b << bits;
                while (i < steps && at[i] < startId) i++;
                bucketFirst[b] = i;
            }
            // added edge i: after the old edges ordered before it less the removed ones among them, and i added ones
            int[] addedIds = new int[addedAt.length];
            for (int i = 0, r = 0; i < addedAt.length; i++) {
                while (r < removedIds.length && removedIds[r] < addedAt[i]) r++;
                addedIds[i] = addedAt[i] - r + i;
            }
            return new IdShift(Arrays.copyOf(at, steps), Arrays.copyOf(shift, steps), bucketFirst, bits, addedIds);
        }

        /** The new id of kept old edge {@code x}. */
        int apply(int x) {
            int i = bucketFirst[x >>> bits];
            while (i < at.length && at[i] <= x) i++;
            return i == 0 ? x : x + shift[i - 1];
        }

        /** For each row u of an undirected graph, its old edges (c, d) with c <= u (upper arcs of rows up to u). */
        private static int[] upperEnds(CsrGraph g) {
            int n = g.vertexCount();
            int[] off = g.rowOffsets(), col = g.columns();
            int[] end = new int[n];
            long sum = 0;
            for (int u = 0; u < n; u++) {
                sum += off[u + 1] - firstAtLeast(col, off[u], off[u + 1], u + 1);
                end[u] = (int) sum;
            }
            return end;
        }
    }

    /** The first index in [from, to) of sorted {@code a} whose value is at least {@code x} ({@code to} when none). */
    private static int firstAtLeast(int[] a, int from, int to, int x) {
        int lo = from, hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) lo = mid + 1; else hi = mid;
        }
        return lo;
    }
}
