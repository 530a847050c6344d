package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.BitSet;
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
 * <p>A base held in the wide form ({@link CsrGraph#wide()}: more arcs than an int indexes) takes every update like any
 * other, by 64-bit arc: re-weights in place, structural changes merged into a new wide base ({@link WideMerge}, the
 * same arrays in pages; its transpose is then built afresh when first read). A graph that updates grow past
 * {@link CsrGraph#MAX_INT_ARCS} arcs is merged into the wide form the same way (the CPU engine then refuses it).
 *
 * <p>Copies that follow the graph (a device copy, standing answers, MST edge lists) read its {@link ChangeLog}
 * ({@link #log()}): every applied update and every merge, in order, each reader from its own cursor.
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
    /** The applied updates and merges, for the copies that follow this graph. */
    private final ChangeLog log;
    /** The update being applied: base arcs it re-weighted in place (while a cursor reads them), whether rows change. */
    private long[] changedArcs = new long[16];
    /** Past this many arcs a merge builds the wide form, in pages of {@code pageArcs} arcs. */
    private final long maxIntArcs;
    private final int pageArcs;
    private int changedCount;
    private boolean allChanged, listArcs, rowsChanged;

    public MutableGraph(CsrGraph base) {
        this(base, CsrGraph.MAX_INT_ARCS, WideMerge.PAGE_ARCS);
    }

    /**
     * A graph whose merges go wide past {@code maxIntArcs} arcs, in pages of {@code pageArcs} ({@link CsrGraph#MAX_INT_ARCS}
     * and {@link WideMerge#PAGE_ARCS}; tests lower them to grow a small graph into the wide form).
     */
    MutableGraph(CsrGraph base, long maxIntArcs, int pageArcs) {
        this.base = base;
        this.directed = base.directed();
        this.vertexCount = base.vertexCount();
        this.edgeCount = base.edgeCount();
        this.log = new ChangeLog(base);
        this.maxIntArcs = maxIntArcs;
        this.pageArcs = pageArcs;
    }

    /** The log of applied updates and merges; readers follow it by a {@link ChangeLog#cursor cursor}. */
    public ChangeLog log() { return log; }

    public synchronized int vertexCount() { return vertexCount; }

    public synchronized long edgeCount() { return edgeCount; }

    public boolean directed() { return directed; }

    /** Whether structural changes wait to be merged (the next {@link #current()} builds a new CSR). */
    public synchronized boolean pendingStructure() {
        return vertexCount != base.vertexCount() || !added.isEmpty() || !removed.isEmpty();
    }

    /**
     * Bytes held: the base CSR, the overlay (an open-addressing table, 34-68 bytes per added edge) and the change
     * log's entries not yet read by every cursor; a graph without pending changes counts its base alone (the empty
     * tables' few hundred bytes are left out). A directed graph's transpose (cached on the base, derived from the
     * previous base's across merges, the size of the base) is not in it, nor those of the old bases the log holds:
     * the graph's owner counts them as one more {@code bytes()} (the worker's registry does).
     */
    public synchronized long bytes() {
        return base.bytes() + (added.isEmpty() ? 0 : added.bytes()) + (removed.isEmpty() ? 0 : removed.size() / 8)
                + log.bytes();
    }

    /** The current version as a compact CSR, merging pending structural changes first. */
    public synchronized CsrGraph current() {
        if (pendingStructure()) merge();
        return base;
    }

    /** A copy of the current version that later updates do not touch, for readers on other threads. */
    public synchronized CsrGraph snapshot() {
        return current().withWeightsCopied();
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
        int before = vertexCount;
        startRecording();
        if (e.size() >= SORTED_MIN && applySorted(e, n, maxEdges)) {
            record(before, e);
            return;
        }
        if (e.reweightsOnly()) {
            applyReweights(e, names);
            record(before, e);
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
        record(before, e);
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
        long[] arc = new long[groups], reverse = new long[groups];
        IntStream arcs = IntStream.range(0, groups);
        (groups >= PARALLEL_KEYS ? arcs.parallel() : arcs).forEach(gi -> {
            if (outcome[gi] != 1) return;
            long key = keys[starts[gi]];
            int u = (int) (key >>> 32), v = (int) key;
            arc[gi] = baseArc(u, v);
            reverse[gi] = !directed && arc[gi] >= 0 && effect[gi] == effect[gi] ? base.findArcLong(v, u) : -1;
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

    /** Before an update: no arcs listed yet, listed at all only while a cursor reads them. */
    private void startRecording() {
        changedCount = 0;
        allChanged = false;
        rowsChanged = false;
        listArcs = log.recordingVersions();
    }

    /** Appends an applied update to the log: its edges, the base arcs it re-weighted in place. */
    private void record(int before, EdgeEdits e) {
        boolean structural = rowsChanged || before != vertexCount;
        log.applied(before, vertexCount, structural, e, listArcs && !allChanged ? Arrays.copyOf(changedArcs, changedCount) : null,
                listArcs && allChanged);
        changedCount = 0;
        if (changedArcs.length > 4096) changedArcs = new long[16];
    }

    /**
     * The common case (link metrics changing), without a map: each edge is found once by binary search, all are
     * checked before any changes (all or nothing), then written in order (the last re-weight of an edge wins).
     */
    private void applyReweights(EdgeEdits e, UserIds names) {
        int k = e.reweightU().length;
        long[] arcs = new long[k];
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
            long arc = arcs[i];
            if (arc < 0) {
                added.put(key(e.reweightU()[i], e.reweightV()[i]), w);
            } else if (base.weightAt(arc) != w) {
                int u = e.reweightU()[i], v = e.reweightV()[i];
                int lo = Math.min(u, v), hi = Math.max(u, v);
                setBaseWeight(arc, directed ? u : lo, w);   // arc is u->v, or lo->hi when undirected
                if (!directed) setBaseWeight(base.findArcLong(hi, lo), hi, w);
            }
        }
    }

    private void commit(long key, double w) {
        int u = (int) (key >>> 32), v = (int) key;
        long arc = baseArc(u, v);
        commit(key, w, arc, !directed && arc >= 0 && w == w ? base.findArcLong(v, u) : -1);
    }

    /** {@link #commit(long, double)} with the edge's base arc u -> v and, undirected and kept, its reverse arc found. */
    private void commit(long key, double w, long arc, long reverse) {
        int u = (int) (key >>> 32), v = (int) key;
        if (w != w || arc < 0) {   // a row changes: the arc u->v (and v->u) goes or comes
            rowsChanged = true;
            touched.set(u);
            if (!directed) touched.set(v);
        }
        if (w != w) {   // removed
            if (!added.remove(key)) removed.set(base.edgeIdAt(arc));
            return;
        }
        if (arc < 0) {
            added.put(key, w);
            return;
        }
        removed.clear(base.edgeIdAt(arc));   // an edge of the base added again keeps its place
        if (base.weightAt(arc) != w) {
            setBaseWeight(arc, u, w);
            if (!directed) setBaseWeight(reverse, v, w);
        }
    }

    private void setBaseWeight(long arc, int source, double w) {
        base.setWeight(arc, source, w);
        if (!listArcs || allChanged) return;
        if (changedCount >= log.maxListedArcs()) {
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
    private long existingArc(UserIds names, String what, int u, int v, int n) {
        if (u < 0 || u >= n || v < 0 || v >= n) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX,
                    what + " of edge " + names.edge(u, v) + ": vertex outside " + names.range());
        }
        long key = key(u, v);
        if (u != v) {
            long arc = baseArc((int) (key >>> 32), (int) key);
            if (arc >= 0 && !removed.get(base.edgeIdAt(arc))) return arc;
            if (added.get(key, ABSENT) != ABSENT) return -1;
        }
        throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE,
                what + " of edge " + names.edge(u, v) + ": no such edge in the current version");
    }

    /** The weight of edge {@code key} in the current version, or {@link #ABSENT} when it has no such edge. */
    private double stored(long key) {
        double w = added.get(key, ABSENT);
        if (w != ABSENT) return w;
        long arc = baseArc((int) (key >>> 32), (int) key);
        if (arc < 0 || removed.get(base.edgeIdAt(arc))) return ABSENT;
        return base.weightAt(arc);
    }

    /** The base arc u->v (removed or not), or -1. */
    private long baseArc(int u, int v) {
        int bn = base.vertexCount();
        return u < bn && v < bn ? base.findArcLong(u, v) : -1;
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
     * Builds the new base from the base and the overlay ({@link CsrMerge}; {@link WideMerge} for a wide base, or one
     * that grows past {@link CsrGraph#MAX_INT_ARCS} arcs), logs the merge, empties the overlay.
     */
    private void merge() {
        CsrGraph old = base;
        long arcs = directed ? edgeCount : 2 * edgeCount;
        CsrMerge.Merged m = old.wide() || arcs > maxIntArcs
                ? WideMerge.build(old, vertexCount, directed, edgeCount, removed, added, touched,
                        old.wide() ? old.pages().pageArcs() : pageArcs)
                : CsrMerge.build(old, vertexCount, directed, edgeCount, removed, added, touched);
        base = m.next();
        log.merged(new ChangeLog.Merge(old, base, m.rows(), m.moves()));
        removed.clear();
        added.clear();
        touched.clear();
    }
}
