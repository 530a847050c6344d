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
 * ChangeLog.Cursor changed = mutable.log().cursor(ChangeLog.Detail.EDGES);   // of the MutableGraph that owns g
 * ...                                   // updates applied
 * CsrGraph now = mutable.current();
 * MstRepair.Repaired r = forest.repair(now, changed.read().edges());
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
 * distinct pairs the run changed. (1) Dropping the non-forest pairs of C changes nothing. (2) For each forest pair of
 * C: made lighter (or equal), it only takes the new weight; made heavier or removed, it is cut and the lightest edge
 * across the cut that C does not name is linked, found by walking both sides of the cut in turn until the smaller one
 * is complete and scanning the graph's rows of that side (edges C names are skipped: they are out of the intermediate
 * graph, or forest edges, which cross no cut). (3) Each pair of C that exists now and is not a forest edge is inserted
 * with its new weight: between two trees it links them, rerooting the shallower side; within a tree the heaviest edge
 * on the tree path (both ends walk up in turn, marking, until one meets the other's mark) is swapped out if the new
 * edge is lighter. Marks are epoch stamps, so no step clears O(n) memory.
 *
 * <p><b>Cost.</b> O(path lengths) per inserted pair, O(1) per forest pair made lighter, O(smaller side's vertices and
 * arcs) per forest pair made heavier or removed; then, when the forest or the graph's structure changed, one pass over
 * the forest for the new result's id array (a copy, shifted past the edges the run added or removed). A run costing
 * more than recomputing is refused ({@code null}): see {@link #WORK_PER_ARC}. On NY (264K vertices, 2 shared cores)
 * single edits took 0.05-0.8 ms (median by kind; outliers to 30 ms on the loaded machine). A structural change of a
 * directed graph makes the repair read the new version's {@link CsrGraph#transpose()} and
 * {@link CsrGraph#undirectedEdges()}, which the first reader of a merged version builds (O(m): 8 and 45 ms on NY).
 */
public final class MstRepair {
    /**
     * A repair gives up (returns null) once its work passes this many units per arc of the graph. A unit is a vertex
     * visited on a side of a cut, an arc scanned for a replacement, or a parent pointer walked (counted twice: the
     * path is walked again for its heaviest edge). Measured with {@code MstRepairBench} (kernels test sources): runs
     * of k = 10 to 10,000 re-weights, of random edges or of forest edges made heavier, repaired against CpuMst
     * recomputing the same graph, two runs on 2 cores shared with other work. On USA-road-d.NY (264K vertices, 730K
     * arcs) CpuMst took 57-128 ms (78-175 ns per arc) and a unit 14-42 ns: repairing breaks even at 3-13 units per
     * arc. On a uniform random graph (100K vertices, 2M arcs) CpuMst took 44-80 ms (22-40 ns per arc) and a unit
     * 20-70 ns (walks in a deeper tree): break-even at 0.3-1.3. At 2, road graphs are recomputed somewhat early, and
     * a refused repair on the random graph wasted at most two to three recomputes. Single edits stay far below:
     * NY's costliest used 0.08 units per arc.
     */
    static final double WORK_PER_ARC = 2;
    /**
     * Runs naming more distinct pairs than this fraction of the arcs (and more than 64) are refused before any work.
     * Each pair costs at least a walk up the forest: on NY 10,000 random re-weights (1/73 of the arcs) were repaired
     * in 35-50 ms against CpuMst's 57-128, while on the random graph 3,000 (1/666) cost about as much as recomputing
     * (30-125 ms against 44-80) and more are refused by the work budget.
     */
    static final double PAIRS_PER_ARC = 1.0 / 64;
    /** A floor for small graphs, where both are cheap: a few thousand units are not refused as a large share. */
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
    private CsrGraph version;
    private int n;
    /** Forest edge ids into version.undirectedEdges(), ascending. */
    private int[] ids;
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
        version = graph;
        n = graph.vertexCount();
        ids = forest.edgeIds();
        grow(n);
        for (int id : ids) {
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
     * recomputing (always on a graph held in the wide form, whose rows it cannot read as int-indexed arrays); this
     * object is then spent (a further call throws IllegalStateException) and the caller recomputes
     * and starts a new one. The timing's compute time is the repair's; its counter {@code work} counts the units
     * {@link #WORK_PER_ARC} budgets.
     */
    public Repaired repair(CsrGraph graph, ChangedEdges changes) {
        if (spent) throw new IllegalStateException("this forest was given up by a refused repair: start a new one");
        if (changes.vertexCountBefore() != n || graph.vertexCount() < n) {
            throw new IllegalArgumentException("changes start at " + changes.vertexCountBefore()
                    + " vertices and the graph has " + graph.vertexCount() + ", but the forest spans " + n);
        }
        long t0 = System.nanoTime();
        spent = true;   // until the repair completes
        if (graph.wide()) return null;   // its rows are read as int-indexed arrays: a graph in the wide form is recomputed
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
        int count = touched.size(), leftCount = 0, joinedCount = 0, addedCount = 0;
        long[] left = new long[count];
        int[] leftIds = new int[count], joinedIds = new int[count], added = new int[count];
        for (Map.Entry<Long, Double> t : touched.entrySet()) {
            long k = t.getKey();
            double before = t.getValue();   // NaN: not in the previous forest
            int s = forestSlot((int) (k >>> 32), (int) k);
            boolean was = !Double.isNaN(before), is = s != NONE;
            if (was && !is) {
                left[leftCount] = k;
                leftIds[leftCount++] = edgeId(version, k);
            }
            if (is && !was) joinedIds[joinedCount++] = edgeId(g, k);
            if (is && (!was || Double.compare(before, slotW[s]) != 0)) added[addedCount++] = edgeId(g, k);
        }
        left = sorted(Arrays.copyOf(left, leftCount));
        added = sorted(Arrays.copyOf(added, addedCount));
        // edges the run removed from or added to the graph shift the ids of the edges after them
        int[] gone = {}, come = {};
        if (!g.sameStructure(version)) {
            if (g.directed()) g.undirectedEdges();   // the new ids' list, built here if no one has yet
            gone = Arrays.stream(pairs).filter(k -> Double.isNaN(weightOf(g, k))).mapToInt(k -> edgeId(version, k))
                    .filter(id -> id >= 0).toArray();
            come = Arrays.stream(pairs).filter(k -> edgeId(version, k) < 0).mapToInt(k -> edgeId(g, k))
                    .filter(id -> id >= 0).toArray();
        }
        if (leftCount + joinedCount + gone.length + come.length > 0) {
            ids = shifted(sorted(Arrays.copyOf(leftIds, leftCount)), sorted(Arrays.copyOf(joinedIds, joinedCount)),
                    gone, come);
        }
        version = g;
        int[] removedU = new int[leftCount], removedV = new int[leftCount];
        for (int i = 0; i < leftCount; i++) {
            removedU[i] = (int) (left[i] >>> 32);
            removedV[i] = (int) left[i];
        }
        MstResult forest = new MstResult(ids, total.value(), n - forestEdges,
                new Timing(System.nanoTime() - t0, 0, Map.of("work", work)));
        return new Repaired(forest, removedU, removedV, added);
    }

    /**
     * The new id array: the old ids less those that {@code left} (old ids), shifted past the edges the run removed
     * from the graph ({@code gone}, old ids) and added to it ({@code come}, new ids), merged with those that
     * {@code joined} (new ids). All ascending; O(forest) in one pass.
     */
    private int[] shifted(int[] left, int[] joined, int[] gone, int[] come) {
        int[] out = new int[ids.length - left.length + joined.length];
        if (gone.length == 0 && come.length == 0) {   // ids keep their values: copy the runs between the changes
            int o = 0, from = 0, l = 0, j = 0;
            while (from < ids.length || j < joined.length) {
                int at = l < left.length ? Arrays.binarySearch(ids, from, ids.length, left[l]) : ids.length;
                int before = j < joined.length ? -1 - Arrays.binarySearch(ids, from, ids.length, joined[j])
                        : ids.length;
                int to = Math.min(at, before);
                System.arraycopy(ids, from, out, o, to - from);
                o += to - from;
                from = to;
                if (j < joined.length && before <= at) {
                    out[o++] = joined[j++];
                } else if (l < left.length) {
                    from++;
                    l++;
                }
            }
            return out;
        }
        int o = 0, l = 0, j = 0, r = 0, c = 0;
        for (int x : ids) {
            if (l < left.length && left[l] == x) {
                l++;
                continue;
            }
            while (r < gone.length && gone[r] < x) r++;
            int id = x - r + c;
            while (c < come.length && come[c] <= id) {   // an added edge before this one
                c++;
                id++;
            }
            while (j < joined.length && joined[j] < id) out[o++] = joined[j++];
            out[o++] = id;
        }
        while (j < joined.length) out[o++] = joined[j++];
        return out;
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

    private static double weightOf(CsrGraph g, long k) {
        return UndirectedEdges.weightOf(g, (int) (k >>> 32), (int) k);
    }

    /** The id of edge k in g's undirected edges, or -1 when g has no such edge. */
    private static int edgeId(CsrGraph g, long k) {
        int a = (int) (k >>> 32), b = (int) k;
        if (b >= g.vertexCount()) return -1;
        if (g.directed()) return g.undirectedEdges().idOf(a, b);
        int arc = g.findArc(a, b);
        return arc < 0 ? -1 : g.arcEdgeIds()[arc];
    }

    private static long[] sorted(long[] x) {
        Arrays.sort(x);
        return x;
    }

    private static int[] sorted(int[] x) {
        Arrays.sort(x);
        return x;
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
