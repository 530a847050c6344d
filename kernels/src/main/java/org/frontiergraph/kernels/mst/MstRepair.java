package org.frontiergraph.kernels.mst;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;

/**
 * A minimum spanning forest kept up to date across runs of graph updates by repairing it instead of recomputing it
 * (a standing query's answer). Usage:
 * <pre>{@code
 * MstRepair forest = new MstRepair(g, CpuMst.run(g));
 * ...                                   // updates applied to the MutableGraph that owns g
 * CsrGraph now = mutable.current();
 * MstRepair.Repaired r = forest.repair(now, mutable.drainChangedEdges());
 * if (r == null) forest = new MstRepair(now, CpuMst.run(now));   // cheaper to recompute: start afresh
 * }</pre>
 *
 * <p><b>Contract.</b> {@link #repair} gives exactly the forest {@link KruskalReference} gives on the new graph (edge
 * ids into its {@link CsrGraph#undirectedEdges()}, ascending; totalWeight summed exactly as {@link ExactSum} does;
 * components counting isolated vertices), and the difference from the previous forest. The order is (weight, u, v),
 * which is (weight, edge id) in every version, so the forest is unique and versions compare pair by pair.
 *
 * <p><b>State.</b> The object keeps the forest as a rooted forest of its own (endpoints and weights per edge, parent
 * pointers, adjacency lists), so it never reads old weights from a graph: re-weights change a CsrGraph's weights in
 * place, and the previous version may be the very object now passed in. Of the previous version it reads only the
 * structure, which never changes. Memory: about 60 bytes per vertex. Not thread-safe: one owner, like the graph.
 *
 * <p><b>Method</b> (sequential dynamic MST; every step keeps the exact forest of an intermediate graph). Let C be the
 * distinct pairs the run changed. (1) Dropping the non-forest pairs of C changes nothing. (2) For each forest pair
 * of C: made lighter (or equal), it only takes the new weight; made heavier or removed, it is cut and the lightest
 * edge across the cut that C does not name is linked, found by walking both sides of the cut in turn until the
 * smaller one is complete and scanning the graph's rows of that side (an edge C names is either cut already or a
 * forest edge, which crosses no cut). (3) Each pair of C that exists now and is not a forest edge is inserted with
 * its new weight: between two trees it links them, rerooting the shallower side; within a tree the heaviest edge on
 * the tree path (both ends walk up in turn, marking, until one meets the other's mark) is swapped out if the new
 * edge is lighter. Marks are epoch stamps, so no step clears O(n) memory.
 *
 * <p><b>Cost.</b> O(path lengths) per inserted or lighter pair; O(smaller side's vertices and arcs) per forest pair
 * made heavier or removed; then O(forest) for the new result's id array (a copy, shifted past added and removed
 * edges when the structure changed). A run costing more than recomputing is refused ({@code null}): see
 * {@link #WORK_PER_ARC}. On a directed graph the scan reads the cached {@link CsrGraph#transpose()}, built on the
 * first repair after a structural change.
 */
public final class MstRepair {
    /**
     * A repair gives up (returns null) once its work (vertices visited, arcs scanned, parent pointers walked) passes
     * this many units per arc of the graph. Measured with {@code MstRepairBench} (kernels test sources) on
     * USA-road-d.NY (264,346 vertices, 730,100 arcs, directed), 2 shared cores: CpuMst recomputes in about 55 ms,
     * and repairs spend about 6-8 ns per unit of work (forest edges made heavier, whose cut scans are most of the
     * work), so recomputing costs about 9 units per arc; a random 1% sample of uniform random graphs (100K
     * vertices, 1M edges) gave 8-15. The constant sits at the low end so that a refused repair wastes at most about
     * one recompute.
     */
    static final double WORK_PER_ARC = 8;
    /** Runs naming more distinct pairs than this fraction of the arcs are refused before any work (see above). */
    static final double PAIRS_PER_ARC = 1.0 / 64;
    /** A floor for small graphs, where recomputing is cheap anyway but a refusal would only add a test's noise. */
    private static final long MIN_WORK = 1 << 16;
    private static final int NONE = -1;

    /**
     * A repaired forest: the new one, the forest edges that left (endpoint pairs, {@code removedU[i] < removedV[i]},
     * in (u, v) order) and the ids into the new graph's undirected edges, ascending, of the forest edges that joined or
     * stayed with a changed weight. A consumer holding the previous forest removes the removed pairs, then adds or
     * overwrites the added edges, and holds the new forest.
     */
    public record Repaired(MstResult result, int[] removedU, int[] removedV, int[] addedEdgeIds) {
    }

    /** The version the forest describes: only its structure (arcs) is read, never its weights. */
    private CsrGraph graph;
    private int n;
    /** Forest edge ids into graph.undirectedEdges(), ascending, and their (u, v) keys in the same order. */
    private int[] ids;
    private long[] keys;
    private final ExactSum total = new ExactSum();
    /** False only in tests, to run the repair on runs larger than it would take on. */
    private final boolean budgeted;
    private int forestEdges;
    private boolean spent;

    // The rooted forest. Slot s is edge {slotA[s] < slotB[s]} of weight slotW[s], with half-edges 2s (at slotA[s]) and
    // 2s + 1 (at slotB[s]) in doubly linked adjacency lists from head[v]. parentSlot[v]: the slot to v's parent, or
    // NONE at a root. Free slots chain through slotA.
    private int[] parentSlot = new int[0], head = new int[0];
    private int[] slotA = new int[0], slotB = new int[0], nextHalf = new int[0], prevHalf = new int[0];
    private double[] slotW = new double[0];
    private int freeSlot = NONE;

    // Per-repair scratch: epoch stamps for walks and sides, a queue, the run's pairs and the forest pairs it touched.
    private int[] stamp = new int[0], queue = new int[0], pairStamp = new int[0];
    private int epoch, pairEpoch;
    private long[] pairs;
    private final Map<Long, Double> touched = new HashMap<>();
    private long work, budget;
    private double bestW;
    private long bestKey;
    private int bestInside, bestOutside;

    /**
     * Starts from {@code forest}, the minimum spanning forest of {@code graph} (e.g. {@link CpuMst#run}), whose
     * weights are read now, so build this before later updates re-weight the graph in place. O(n).
     */
    public MstRepair(CsrGraph graph, MstResult forest) {
        this(graph, forest, true);
    }

    MstRepair(CsrGraph graph, MstResult forest, boolean budgeted) {
        this.budgeted = budgeted;
        UndirectedEdges e = graph.undirectedEdges();
        this.graph = graph;
        n = graph.vertexCount();
        ids = forest.edgeIds();
        keys = new long[ids.length];
        grow(n);
        for (int i = 0; i < ids.length; i++) {
            int id = ids[i];
            keys[i] = key(e.u[id], e.v[id]);
            newSlot(e.u[id], e.v[id], e.w[id]);
            total.add(e.w[id]);
        }
        forestEdges = ids.length;
        int mark = nextStamp();
        for (int root = 0; root < n; root++) {   // root every tree at its smallest vertex
            if (stamp[root] == mark) continue;
            stamp[root] = mark;
            int tail = 0;
            queue[tail++] = root;
            for (int i = 0; i < tail; i++) {
                int v = queue[i];
                for (int h = head[v]; h != NONE; h = nextHalf[h]) {
                    int w = far(h);
                    if (stamp[w] == mark) continue;
                    stamp[w] = mark;
                    parentSlot[w] = h >> 1;
                    queue[tail++] = w;
                }
            }
        }
    }

    /**
     * The forest of {@code graph}, the version after the run of updates that {@code changes} describes (drained from
     * the MutableGraph since the version this forest describes), or {@code null} when repairing would cost more than
     * recomputing; this object is then spent (a further call throws IllegalStateException) and the caller recomputes
     * and starts a new one. The timing's compute time is the repair's; its counter {@code work} counts the units
     * {@link #WORK_PER_ARC} budgets.
     */
    public Repaired repair(CsrGraph graph, ChangedEdges changes) {
        if (spent) throw new IllegalStateException("this forest was given up by a refused repair: start a new one");
        if (changes.vertexCountBefore() != n || graph.vertexCount() < n) {
            throw new IllegalArgumentException("changes start at " + changes.vertexCountBefore() + " vertices and the graph has "
                    + graph.vertexCount() + ", but the forest spans " + n);
        }
        long t0 = System.nanoTime();
        spent = true;   // until the repair completes
        pairs = distinctPairs(changes);
        if (budgeted && pairs.length > Math.max(64, PAIRS_PER_ARC * graph.arcCount())) return null;
        budget = budgeted ? Math.max(MIN_WORK, (long) (WORK_PER_ARC * graph.arcCount())) : Long.MAX_VALUE;
        work = 0;
        touched.clear();
        grow(graph.vertexCount());
        n = graph.vertexCount();
        if (++pairEpoch == Integer.MAX_VALUE) {
            Arrays.fill(pairStamp, 0);
            pairEpoch = 1;
        }
        for (long k : pairs) {
            pairStamp[(int) (k >>> 32)] = pairEpoch;
            pairStamp[(int) k] = pairEpoch;
        }
        // (2) forest pairs: lighter ones take their weight, heavier or removed ones are replaced
        for (long k : pairs) {
            int a = (int) (k >>> 32), b = (int) k, s = forestSlot(a, b);
            if (s == NONE) continue;
            double w = UndirectedEdges.weightOf(graph, a, b);
            int c = Double.isNaN(w) ? 1 : Double.compare(w, slotW[s]);
            if (c < 0) {
                touched.putIfAbsent(k, slotW[s]);
                total.add(-slotW[s]);
                total.add(w);
                slotW[s] = w;
            } else if (c > 0 && !replace(s, graph)) {
                return null;
            }
        }
        // (3) pairs that exist now and are not forest edges are inserted
        for (long k : pairs) {
            int a = (int) (k >>> 32), b = (int) k;
            if (forestSlot(a, b) != NONE) continue;
            double w = UndirectedEdges.weightOf(graph, a, b);
            if (!Double.isNaN(w) && !insert(a, b, w)) return null;
        }
        Repaired r = result(graph, t0);
        spent = false;
        return r;
    }

    // ---------------------------------------------------------------- the steps

    /** Cuts forest edge s and links the lightest edge across the cut that the run does not name. False: over budget. */
    private boolean replace(int s, CsrGraph g) {
        int x = parentSlot[slotA[s]] == s ? slotA[s] : slotB[s], p = other(s, x);
        cut(s);
        // walk both sides in turn until one is complete: the smaller, stamped `side`, lies in queue[from, to)
        int sx = nextStamp(), sp = sx + 1;
        int[] q = queue;
        int xHead = 0, xTail = 0, pHead = q.length, pTail = q.length;
        q[xTail++] = x;
        stamp[x] = sx;
        q[--pTail] = p;
        stamp[p] = sp;
        while (xHead < xTail && pHead > pTail) {
            int v = q[xHead++];
            for (int h = head[v]; h != NONE; h = nextHalf[h]) {
                int w = far(h);
                if (stamp[w] != sx) { stamp[w] = sx; q[xTail++] = w; }
            }
            v = q[--pHead];
            for (int h = head[v]; h != NONE; h = nextHalf[h]) {
                int w = far(h);
                if (stamp[w] != sp) { stamp[w] = sp; q[--pTail] = w; }
            }
        }
        boolean xSmaller = xHead == xTail;
        int side = xSmaller ? sx : sp, from = xSmaller ? 0 : pTail, to = xSmaller ? xTail : q.length;
        work += 2L * (to - from);
        if (work > budget) return false;
        bestInside = NONE;
        CsrGraph in = g.transpose();   // the graph itself when undirected
        for (int i = from; i < to; i++) {
            int t = q[i];
            scan(g, g, t, side);
            if (in != g) scan(g, in, t, side);
        }
        if (work > budget) return false;
        if (bestInside != NONE) {
            reroot(bestInside);
            link(bestInside, bestOutside, bestW);
        }
        return true;
    }

    /** Offers row t of {@code rows} (g or its transpose) as crossing edges from the side stamped {@code side}. */
    private void scan(CsrGraph g, CsrGraph rows, int t, int side) {
        int[] col = rows.columns();
        double[] wt = rows.weights();
        int end = rows.rowEnd(t);
        for (int e = rows.rowStart(t); e < end; e++) {
            int y = col[e];
            if (stamp[y] == side) continue;
            double w = wt[e];
            if (bestInside != NONE && w > bestW) continue;   // an arc never weighs less than its edge
            int a = Math.min(t, y), b = Math.max(t, y);
            long k = key(a, b);
            if (named(a, b, k)) continue;
            if (g.directed()) w = UndirectedEdges.weightOf(g, a, b);
            if (bestInside == NONE || lighter(w, k, bestW, bestKey)) {
                bestW = w;
                bestKey = k;
                bestInside = t;
                bestOutside = y;
            }
        }
        work += end - rows.rowStart(t);
    }

    /** Inserts edge {a, b} of weight w into the forest. False: over budget. */
    private boolean insert(int a, int b, double w) {
        int sa = nextStamp(), sb = sa + 1;
        stamp[a] = sa;
        stamp[b] = sb;
        int va = a, vb = b, da = 0, db = 0, meet = NONE;
        boolean upA = true, upB = true;
        while (meet == NONE && (upA || upB)) {
            if (upA) {
                int s = parentSlot[va];
                if (s == NONE) {
                    upA = false;
                } else {
                    va = other(s, va);
                    da++;
                    if (stamp[va] == sb) meet = va; else stamp[va] = sa;
                }
            }
            if (upB && meet == NONE) {
                int s = parentSlot[vb];
                if (s == NONE) {
                    upB = false;
                } else {
                    vb = other(s, vb);
                    db++;
                    if (stamp[vb] == sa) meet = vb; else stamp[vb] = sb;
                }
            }
        }
        work += 2L * (da + db);
        if (work > budget) return false;
        if (meet == NONE) {   // two trees: hang the shallower end's tree from the other end
            int low = da <= db ? a : b;
            reroot(low);
            link(low, low == a ? b : a, w);
            return true;
        }
        int heaviest = NONE, end = NONE;   // the child end of the heaviest path edge, and the start below it
        for (int start : new int[] {a, b}) {
            for (int v = start; v != meet; v = other(parentSlot[v], v)) {
                if (heaviest == NONE || lighter(slotW[parentSlot[heaviest]], slotKey(parentSlot[heaviest]),
                        slotW[parentSlot[v]], slotKey(parentSlot[v]))) {
                    heaviest = v;
                    end = start;
                }
            }
        }
        int s = parentSlot[heaviest];
        if (!lighter(w, key(a, b), slotW[s], slotKey(s))) return true;
        cut(s);
        reroot(end);   // end lies in heaviest's subtree, now a tree of its own
        link(end, end == a ? b : a, w);
        return true;
    }

    /** The new result, the difference from the previous forest, and the state for the next run. */
    private Repaired result(CsrGraph g, long t0) {
        long[] left = new long[touched.size()], joined = new long[touched.size()];
        int[] added = new int[touched.size()];
        int leftCount = 0, joinedCount = 0, addedCount = 0;
        for (Map.Entry<Long, Double> t : touched.entrySet()) {
            long k = t.getKey();
            double before = t.getValue();   // NaN: not in the previous forest
            int s = forestSlot((int) (k >>> 32), (int) k);
            boolean was = !Double.isNaN(before), is = s != NONE;
            if (was && !is) left[leftCount++] = k;
            if (is && !was) joined[joinedCount++] = k;
            if (is && (!was || Double.compare(before, slotW[s]) != 0)) added[addedCount++] = edgeId(g, k);
        }
        left = Arrays.copyOf(left, leftCount);
        joined = Arrays.copyOf(joined, joinedCount);
        added = Arrays.copyOf(added, addedCount);
        Arrays.sort(left);
        Arrays.sort(joined);
        Arrays.sort(added);
        // edges the run removed from or added to the graph shift the ids of the edges after them
        long[] gone = new long[0], come = new long[0];
        if (!g.sameStructure(graph)) {
            gone = Arrays.stream(pairs).filter(k -> existed(k) && Double.isNaN(weightOf(g, k))).toArray();
            come = Arrays.stream(pairs).filter(k -> !existed(k) && !Double.isNaN(weightOf(g, k))).toArray();
        }
        if (leftCount > 0 || joinedCount > 0 || gone.length > 0 || come.length > 0) {
            int size = ids.length - leftCount + joinedCount;
            int[] newIds = new int[size];
            long[] newKeys = new long[size];
            int out = 0, l = 0, j = 0, r = 0, c = 0;
            for (int i = 0; i < ids.length; i++) {
                long k = keys[i];
                for (; j < joinedCount && joined[j] < k; j++, out++) {
                    newKeys[out] = joined[j];
                    newIds[out] = edgeId(g, joined[j]);
                }
                if (l < leftCount && left[l] == k) { l++; continue; }
                while (r < gone.length && gone[r] < k) r++;
                while (c < come.length && come[c] < k) c++;
                newKeys[out] = k;
                newIds[out++] = ids[i] - r + c;
            }
            for (; j < joinedCount; j++, out++) {
                newKeys[out] = joined[j];
                newIds[out] = edgeId(g, joined[j]);
            }
            ids = newIds;
            keys = newKeys;
        }
        graph = g;
        int[] removedU = new int[leftCount], removedV = new int[leftCount];
        for (int i = 0; i < leftCount; i++) {
            removedU[i] = (int) (left[i] >>> 32);
            removedV[i] = (int) left[i];
        }
        MstResult forest = new MstResult(ids, total.value(), n - forestEdges,
                new Timing(System.nanoTime() - t0, 0, Map.of("work", work)));
        return new Repaired(forest, removedU, removedV, added);
    }

    // ---------------------------------------------------------------- the rooted forest

    /** Links root {@code child} below {@code parent} by a new edge of weight w. */
    private void link(int child, int parent, double w) {
        int s = newSlot(Math.min(child, parent), Math.max(child, parent), w);
        parentSlot[child] = s;
        forestEdges++;
        total.add(w);
        touched.putIfAbsent(slotKey(s), Double.NaN);
    }

    /** Removes forest edge s; its child end becomes a root. */
    private void cut(int s) {
        touched.putIfAbsent(slotKey(s), slotW[s]);
        parentSlot[parentSlot[slotA[s]] == s ? slotA[s] : slotB[s]] = NONE;
        unlinkHalf(2 * s, slotA[s]);
        unlinkHalf(2 * s + 1, slotB[s]);
        forestEdges--;
        total.add(-slotW[s]);
        slotA[s] = freeSlot;
        freeSlot = s;
    }

    /** Makes v the root of its tree by reversing the parent pointers on its path to the old root. */
    private void reroot(int v) {
        int s = parentSlot[v], cur = v;
        parentSlot[v] = NONE;
        while (s != NONE) {
            int up = other(s, cur), next = parentSlot[up];
            parentSlot[up] = s;
            cur = up;
            s = next;
            work++;
        }
    }

    private int newSlot(int a, int b, double w) {
        int s = freeSlot;
        freeSlot = slotA[s];
        slotA[s] = a;
        slotB[s] = b;
        slotW[s] = w;
        linkHalf(2 * s, a);
        linkHalf(2 * s + 1, b);
        return s;
    }

    private void linkHalf(int h, int v) {
        nextHalf[h] = head[v];
        prevHalf[h] = NONE;
        if (head[v] != NONE) prevHalf[head[v]] = h;
        head[v] = h;
    }

    private void unlinkHalf(int h, int v) {
        if (prevHalf[h] != NONE) nextHalf[prevHalf[h]] = nextHalf[h]; else head[v] = nextHalf[h];
        if (nextHalf[h] != NONE) prevHalf[nextHalf[h]] = prevHalf[h];
    }

    /** The vertex half-edge h points to. */
    private int far(int h) {
        return (h & 1) == 0 ? slotB[h >> 1] : slotA[h >> 1];
    }

    private int other(int s, int v) {
        return slotA[s] == v ? slotB[s] : slotA[s];
    }

    private long slotKey(int s) {
        return key(slotA[s], slotB[s]);
    }

    /** The slot of forest edge {a, b}, or NONE. */
    private int forestSlot(int a, int b) {
        int s = parentSlot[a];
        if (s != NONE && other(s, a) == b) return s;
        s = parentSlot[b];
        return s != NONE && other(s, b) == a ? s : NONE;
    }

    /** Room for {@code vertices} vertices (and as many slots), growing by half again to spread the copies. */
    private void grow(int vertices) {
        int old = parentSlot.length;
        if (vertices <= old) return;
        int cap = Math.max(vertices, old + old / 2);
        parentSlot = Arrays.copyOf(parentSlot, cap);
        head = Arrays.copyOf(head, cap);
        Arrays.fill(parentSlot, old, cap, NONE);
        Arrays.fill(head, old, cap, NONE);
        stamp = Arrays.copyOf(stamp, cap);
        pairStamp = Arrays.copyOf(pairStamp, cap);
        queue = new int[cap];
        slotA = Arrays.copyOf(slotA, cap);
        slotB = Arrays.copyOf(slotB, cap);
        slotW = Arrays.copyOf(slotW, cap);
        nextHalf = Arrays.copyOf(nextHalf, 2 * cap);
        prevHalf = Arrays.copyOf(prevHalf, 2 * cap);
        for (int s = cap - 1; s >= old; s--) {
            slotA[s] = freeSlot;
            freeSlot = s;
        }
    }

    /** A fresh pair of stamps (the returned value and the next); clears the stamps only when they wrap. */
    private int nextStamp() {
        if (epoch >= Integer.MAX_VALUE - 2) {
            Arrays.fill(stamp, 0);
            epoch = 0;
        }
        epoch += 2;
        return epoch - 1;
    }

    // ---------------------------------------------------------------- pairs and ids

    /** The run's pairs as sorted distinct (min, max) keys, self-loops left out. */
    private static long[] distinctPairs(ChangedEdges c) {
        long[] k = new long[c.size()];
        int count = 0;
        for (int i = 0; i < c.size(); i++) {
            int a = c.u()[i], b = c.v()[i];
            if (a != b) k[count++] = key(Math.min(a, b), Math.max(a, b));
        }
        k = Arrays.copyOf(k, count);
        Arrays.sort(k);
        int d = 0;
        for (int i = 0; i < count; i++) if (d == 0 || k[d - 1] != k[i]) k[d++] = k[i];
        return Arrays.copyOf(k, d);
    }

    /** Whether the run names pair {a, b}. */
    private boolean named(int a, int b, long k) {
        return pairStamp[a] == pairEpoch && pairStamp[b] == pairEpoch && Arrays.binarySearch(pairs, k) >= 0;
    }

    /** Whether the previous version had edge k (its structure never changes). */
    private boolean existed(long k) {
        int a = (int) (k >>> 32), b = (int) k;
        return b < graph.vertexCount()
                && (graph.findArc(a, b) >= 0 || (graph.directed() && graph.findArc(b, a) >= 0));
    }

    private static double weightOf(CsrGraph g, long k) {
        return UndirectedEdges.weightOf(g, (int) (k >>> 32), (int) k);
    }

    /** The id of edge k in g's undirected edges. */
    private static int edgeId(CsrGraph g, long k) {
        int a = (int) (k >>> 32), b = (int) k;
        return g.directed() ? g.undirectedEdges().idOf(a, b) : g.arcEdgeIds()[g.findArc(a, b)];
    }

    private static long key(int a, int b) {
        return ((long) a << 32) | b;
    }

    /** (w1, k1) before (w2, k2) in the MST order: weight by Double.compare, then (u, v). */
    private static boolean lighter(double w1, long k1, double w2, long k2) {
        int c = Double.compare(w1, w2);
        return c < 0 || (c == 0 && k1 < k2);
    }
}
