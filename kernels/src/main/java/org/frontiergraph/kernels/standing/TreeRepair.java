package org.frontiergraph.kernels.standing;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.frontiergraph.kernels.engine.Spares;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.sssp.DijkstraReference;

/**
 * Repairs a shortest-path tree (distances and parents from one source) after edge changes, touching only the region
 * they affect: one core for every {@link TreeAnswer}, real weights with a binary heap ({@link SsspRepair}'s answers)
 * or unit weights with a FIFO queue ({@link BfsRepair}'s). It reads and writes the answer through
 * {@link TreeAnswer#value}, {@link TreeAnswer#parent} and {@link TreeAnswer#set}; distances are doubles there
 * ({@code +Inf}: unreachable, parent -1), so hop counts pass exactly.
 *
 * <p>The method is KickStarter's trimming (Vora, Gupta, Xu, "KickStarter: Fast and Accurate Computations on
 * Streaming Graphs via Trimmed Approximations", ASPLOS 2017) followed by a Dijkstra from the affected region, as
 * RisGraph does (Feng et al., SIGMOD 2021):
 * <ol>
 *   <li><b>invalidate</b>: a changed arc u->v that the tree uses (parent[v] == u) and that can no longer give v its
 *       distance (removed, or dist[u] + w > dist[v]) invalidates v and its subtree. A tree arc made lighter
 *       (dist[u] + w < dist[v]) invalidates nothing: v is seeded below, and the settle step lowers its subtree
 *       (every vertex of it strictly, or to the same double sum over the new arc). Descendants are found by
 *       scanning the out-arcs of invalidated vertices for children whose parent is invalidated (no children index);
 *       a removed tree arc is itself a changed pair, so its child is found as a root;</li>
 *   <li><b>pull</b>: each invalidated vertex takes the best candidate over its in-arcs (the transpose on directed
 *       graphs) from <em>untouched</em> vertices, whose old tree paths are intact and whose distances are therefore
 *       exact path lengths in the new graph;</li>
 *   <li><b>seed</b>: the head v of a changed arc u->v from an untouched u with dist[u] + w < dist[v] (a decrease or
 *       an insertion) takes that distance;</li>
 *   <li><b>settle</b>: a Dijkstra from those vertices relaxes out-arcs, improving a vertex only on a strictly
 *       smaller distance.</li>
 * </ol>
 * Afterwards no arc can improve any distance, and every distance is at least the double sum along some path of the
 * new graph: it was set from one, or it is an old value above such a sum (the subtree of a lighter tree arc until
 * the settle step lowers it, and what was pulled or seeded from it meanwhile; double addition is monotone, so an old
 * path's sum is at least the same path's with the lighter weight). Both together make it the exact distance
 * {@link DijkstraReference} computes: the minimum over paths of those sums.
 *
 * <p>The parents form a tree even with zero-weight cycles. A parent cycle would share one distance throughout (a
 * child's distance is at least its parent's). A vertex the repair left alone keeps its old parent, and its old tree
 * path reaches the source or a vertex whose distance strictly decreased (an invalidated ancestor would have
 * invalidated it), so it is on no such cycle. A vertex the repair changed took its last parent either in the pull or
 * seed step, from a vertex then untouched (which, if changed later, strictly decreased below the child), or in the
 * settle step, from a vertex settled before the child (settling runs in non-decreasing distance order, once per
 * vertex, and only a strict improvement moves a parent). So on a cycle every parent would be settled before its
 * child: impossible.
 *
 * <p>Cost: O((a + b) log a) for the a vertices and b arcs of the affected region, plus the changed pairs. Scratch
 * is epoch-stamped and kept by the instance, so a repair neither clears nor allocates anything of the graph's size
 * (the instance keeps two int arrays of n entries, grown once, and lists as long as its largest repair's region).
 * Instances are not thread-safe: a repair takes one from the spares ({@link Spares}) and gives it back. The work
 * (vertices touched plus arcs scanned) is counted and a repair gives up once it passes a budget, restoring every
 * value it changed, so that the caller recomputes instead.
 */
public final class TreeRepair {
    private static final byte TOUCHED = 0, INVALID = 1, SETTLED = 2;
    private static final int NO_PARENT = -1;
    /** Instances not in use (one per repair running at once: each keeps arrays of n entries). */
    private static final Spares<TreeRepair> SPARES = new Spares<>(TreeRepair::new);

    /**
     * A repaired answer and the vertices whose value or parent differs from the previous answer's (ascending; a
     * vertex added by the changes counts only when it is reached, since a consumer extends its arrays with unreached
     * defaults).
     */
    public record Repaired<A>(A result, int[] changed) {}

    /** The answer being repaired (null between repairs: an instance kept per thread keeps no answer alive). */
    private TreeAnswer<?> answer;
    private boolean unitWeights;
    /** Per vertex: {@code stamp[v] == epoch} when this repair touched v; {@code slot[v]} then indexes the lists. */
    private int[] stamp = new int[0], slot = new int[0];
    private int epoch;
    /** Touched vertices, their values before the repair and their state, by slot. */
    private int[] touched = new int[64], oldParent = new int[64];
    private double[] oldDistance = new double[64];
    private byte[] state = new byte[64];
    private int touchedCount, invalidCount, settledCount;
    private long work, budget;
    /** Real weights: a binary min-heap of (key, vertex) with lazy deletion. */
    private double[] heapKeys = new double[64];
    private int[] heapVertices = new int[64];
    private int heapSize;
    /** Unit weights: seeds sorted once, merged with a FIFO whose keys never decrease; entries: key << 32 | vertex. */
    private long[] seeds = new long[64], fifo = new long[64];
    private int seedCount, seedHead, fifoHead, fifoTail;
    private boolean running;
    private int poppedVertex;
    private double poppedKey;

    private TreeRepair() {}

    /**
     * Repairs {@code previous}, the exact answer from its source on the graph before {@code changes}, into the exact
     * answer on {@code graph} (the graph after them), or returns null when the work (vertices touched plus arcs
     * scanned) would pass {@code budget}: the caller then recomputes ({@link Long#MAX_VALUE}: never give up).
     *
     * <p>When the vertex count is unchanged the repair works <b>in place</b>: the result shares {@code previous}'s
     * arrays, and the caller must not use {@code previous} afterwards. (On null they are left as they were.) When
     * vertices were added, the result has new arrays of {@code graph.vertexCount()} entries and {@code previous} is
     * untouched. The result's timing is the repair's compute time, with counters {@code invalidated} (vertices whose
     * tree path broke), {@code settled} (vertices the repair's Dijkstra settled) and {@code work} (what the budget
     * counts).
     *
     * <p>Cost: proportional to the affected region (O((a + b) log a) for a vertices and b arcs), plus an O(n) copy
     * when vertices were added and, on a directed graph whose tree lost an arc, the transpose's construction the
     * first time a graph version needs it (cached on the graph, so shared by every query on it).
     *
     * <p>A graph held in the wide form ({@link CsrGraph#wide()}) is not repaired: null, so the caller recomputes on
     * the engine that holds it.
     *
     * @throws IllegalArgumentException when previous's arrays do not have {@code changes.vertexCountBefore()}
     *         entries or the graph has fewer vertices
     */
    public static <A extends TreeAnswer<A>> Repaired<A> repair(CsrGraph graph, A previous, ChangedEdges changes, long budget) {
        if (graph.wide()) return null;   // its rows are read as int-indexed arrays: a graph in the wide form is recomputed
        TreeRepair r = SPARES.take();
        try {
            return r.run(graph, previous, changes, budget);
        } finally {
            SPARES.give(r);
        }
    }

    private <A extends TreeAnswer<A>> Repaired<A> run(CsrGraph graph, A previous, ChangedEdges changes, long budget) {
        long t0 = System.nanoTime();
        checkSizes(previous, graph, changes);
        A a = previous.grown(graph.vertexCount());   // new vertices start unreached
        answer = a;
        unitWeights = a.unitWeights();
        int[] changed = repair(graph, changes, budget);
        if (changed == null) return null;
        return new Repaired<>(a.withTiming(timing(t0)), changed);
    }

    private double distance(int v) { return answer.value(v); }

    private int parent(int v) { return answer.parent(v); }

    private void set(int v, double distance, int parent) { answer.set(v, distance, parent); }

    /**
     * The timing of the last repair, begun at {@code startNanos}: its compute time, and counters {@code invalidated}
     * (vertices whose tree path broke), {@code settled} (vertices its Dijkstra settled) and {@code work} (vertices
     * touched plus arcs scanned, what the budget counts).
     */
    private Timing timing(long startNanos) {
        return new Timing(System.nanoTime() - startNanos, 0,
                Map.of("invalidated", (long) invalidCount, "settled", (long) settledCount, "work", work));
    }

    /**
     * Checks that {@code previous} fits the changes and the graph.
     *
     * @throws IllegalArgumentException when it does not
     */
    static void checkSizes(TreeAnswer<?> previous, CsrGraph graph, ChangedEdges changes) {
        checkSizes(previous, changes);
        if (graph.vertexCount() < changes.vertexCountBefore()) {
            throw new IllegalArgumentException("the changes start from " + changes.vertexCountBefore()
                    + " vertices and the graph has " + graph.vertexCount());
        }
    }

    /** What a repair checks first, also for an answer a screen set aside (the batch added no vertex). */
    static void checkSizes(TreeAnswer<?> previous, ChangedEdges changes) {
        int before = changes.vertexCountBefore();
        if (previous.vertexCount() != before || previous.parents().length != before) {
            throw new IllegalArgumentException("previous answer has " + previous.vertexCount() + " values and "
                    + previous.parents().length + " parents; the changes start from " + before + " vertices");
        }
    }

    /**
     * Repairs the answer held, which is the exact answer on the graph before {@code changes} and has
     * {@code graph.vertexCount()} entries (vertices from {@code changes.vertexCountBefore()} on unreachable), into the
     * exact answer on {@code graph}.
     *
     * @param budget the most work (vertices touched plus arcs scanned) the repair may do
     * @return the vertices whose distance or parent changed, ascending; or null when the budget ran out, in which
     *         case every value is as it was before the call
     */
    private int[] repair(CsrGraph graph, ChangedEdges changes, long budget) {
        try {
            begin(graph.vertexCount(), budget);
            return trimAndSettle(graph, changes);
        } finally {
            answer = null;
        }
    }

    private int[] trimAndSettle(CsrGraph graph, ChangedEdges changes) {
        int[] cu = changes.u(), cv = changes.v();
        int before = changes.vertexCountBefore();
        boolean undirected = !graph.directed();
        // 1. invalidate: roots first (values are still the old ones), then their subtrees in breadth-first order
        for (int i = 0; i < cu.length; i++) {
            invalidateIfBroken(graph, cu[i], cv[i], before);
            if (undirected) invalidateIfBroken(graph, cv[i], cu[i], before);
        }
        int[] off = graph.rowOffsets(), col = graph.columns();
        // every invalidated vertex is pulled (1 + its in-degree of work): charged here, so that a repair bound to pass
        // its budget gives up before it pulls and settles (the total work, and so the outcome, is the same)
        int[] inOff = invalidCount == 0 ? off : graph.transpose().rowOffsets();
        for (int i = 0; i < invalidCount; i++) {
            int x = touched[i];
            if (!spend(off[x + 1] - off[x]) || !spend(inOff[x + 1] - inOff[x])) return abandon();
            for (int e = off[x]; e < off[x + 1]; e++) {
                int y = col[e];
                if (stamp[y] != epoch && parent(y) == x) {
                    touch(y, INVALID);
                    invalidCount++;
                }
            }
        }
        // 2. pull: invalidated vertices take their best candidate from untouched in-neighbours
        for (int i = 0; i < invalidCount; i++) set(touched[i], Double.POSITIVE_INFINITY, NO_PARENT);
        if (invalidCount > 0) {
            CsrGraph in = graph.transpose();
            int[] inCol = in.columns();
            double[] inW = in.weights();
            for (int i = 0; i < invalidCount; i++) {   // its work was charged in step 1
                int v = touched[i];
                double best = Double.POSITIVE_INFINITY;
                int from = NO_PARENT;
                for (int e = inOff[v]; e < inOff[v + 1]; e++) {
                    int x = inCol[e];
                    if (stamp[x] == epoch) continue;
                    double d = distance(x) + (unitWeights ? 1 : inW[e]);
                    if (d < best) {
                        best = d;
                        from = x;
                    }
                }
                if (from >= 0) {
                    set(v, best, from);
                    push(v, best);
                }
            }
        }
        // 3. seed: heads of arcs that now offer a shorter path from an untouched tail
        for (int i = 0; i < cu.length; i++) {
            seedIfShorter(graph, cu[i], cv[i]);
            if (undirected) seedIfShorter(graph, cv[i], cu[i]);
        }
        // 4. settle: Dijkstra from the seeds; only strict improvements move a vertex
        double[] w = graph.weights();
        running = true;
        if (unitWeights) Arrays.sort(seeds, 0, seedCount);
        while (pop()) {
            int v = poppedVertex;
            double dv = poppedKey;
            int s = slot[v];
            if (dv != distance(v) || state[s] == SETTLED) continue;   // stale entry
            state[s] = SETTLED;
            settledCount++;
            if (!spend(off[v + 1] - off[v])) return abandon();
            for (int e = off[v]; e < off[v + 1]; e++) {
                int y = col[e];
                double d = dv + (unitWeights ? 1 : w[e]);
                if (d < distance(y)) {
                    if (stamp[y] != epoch) touch(y, TOUCHED);
                    set(y, d, v);
                    push(y, d);
                }
            }
        }
        return changedVertices();
    }

    private void invalidateIfBroken(CsrGraph graph, int u, int v, int before) {
        // u == v: a self-loop the storage policy dropped (and parent[source] == source is no arc)
        if (u == v || u >= before || v >= before || stamp[v] == epoch || parent(v) != u) return;
        int arc = graph.findArc(u, v);
        // still v's distance, or shorter (a lighter tree arc): the seed step lowers v, and settling its subtree
        // lowers the rest, so nothing there needs to be thrown away and pulled again
        if (arc >= 0 && distance(u) + (unitWeights ? 1 : graph.weights()[arc]) <= distance(v)) return;
        touch(v, INVALID);
        invalidCount++;
    }

    private void seedIfShorter(CsrGraph graph, int u, int v) {
        if (stamp[u] == epoch) return;   // touched: it relaxes its arcs when settled
        int arc = graph.findArc(u, v);
        if (arc < 0) return;
        double d = distance(u) + (unitWeights ? 1 : graph.weights()[arc]);
        if (d < distance(v)) {   // never true for an unreachable u: +Inf is not less than anything
            if (stamp[v] != epoch) touch(v, TOUCHED);
            set(v, d, u);
            push(v, d);
        }
    }

    private void begin(int n, long budget) {
        if (stamp.length < n) {
            int size = n + (n >> 3);   // head room: graphs grow a few vertices at a time
            stamp = new int[size];
            slot = new int[size];
            epoch = 0;
        }
        if (++epoch == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            epoch = 1;
        }
        touchedCount = invalidCount = settledCount = 0;
        heapSize = seedCount = seedHead = fifoHead = fifoTail = 0;
        running = false;
        work = 0;
        this.budget = budget;
    }

    /** Counts work; false once the budget is spent. */
    private boolean spend(int arcs) {
        work += 1 + arcs;
        return work <= budget;
    }

    /** Remembers v's values before its first change in this repair. */
    private void touch(int v, byte s) {
        int i = touchedCount++;
        if (i == touched.length) {
            int size = 2 * i;
            touched = Arrays.copyOf(touched, size);
            oldParent = Arrays.copyOf(oldParent, size);
            oldDistance = Arrays.copyOf(oldDistance, size);
            state = Arrays.copyOf(state, size);
        }
        stamp[v] = epoch;
        slot[v] = i;
        touched[i] = v;
        oldDistance[i] = distance(v);
        oldParent[i] = parent(v);
        state[i] = s;
    }

    private int[] abandon() {
        for (int i = 0; i < touchedCount; i++) set(touched[i], oldDistance[i], oldParent[i]);
        return null;
    }

    private int[] changedVertices() {
        int[] out = new int[touchedCount];
        int k = 0;
        for (int i = 0; i < touchedCount; i++) {
            int v = touched[i];
            if (distance(v) != oldDistance[i] || parent(v) != oldParent[i]) out[k++] = v;
        }
        out = Arrays.copyOf(out, k);
        if (k < SORT_BELOW || (long) k * 8 < stamp.length >> 6) {
            Arrays.sort(out);
            return out;
        }
        // many: in vertex order through a bitmap (n / 64 words), cheaper than sorting them
        if (bits.length < (stamp.length + 63) >> 6) bits = new long[(stamp.length + 63) >> 6];
        for (int v : out) bits[v >> 6] |= 1L << v;
        k = 0;
        for (int w = 0; k < out.length && w < bits.length; w++) {   // (the list holds distinct vertices)
            long b = bits[w];
            bits[w] = 0;
            while (b != 0) {
                out[k++] = (w << 6) + Long.numberOfTrailingZeros(b);
                b &= b - 1;
            }
        }
        return out;
    }

    /** Changed lists shorter than this are sorted; longer ones, when dense enough, go through {@link #bits}. */
    private static final int SORT_BELOW = 64;
    /** One bit per vertex, all clear between repairs. */
    private long[] bits = new long[0];

    // ---------------------------------------------------------------- many trees of one graph

    /**
     * Repairs many answers of one graph after the same batch (the standing answers of its subscriptions): the
     * answers {@code touched} says the batch cannot touch (the batch's {@link Screen}) keep their arrays with no
     * changed vertex, the others are repaired side by side on the common pool, each on its own answer with its
     * thread's scratch, with {@code budget}. The result is that of {@link #repair} on each answer in turn, whatever
     * the thread count: entry i repairs {@code previous[i]} (in place, as there), or is null when that repair gave up.
     * The answers must not share arrays (they are repaired side by side). A directed graph's transpose is built
     * (cached) first, before the tasks read it.
     */
    public static <A extends TreeAnswer<A>> Repaired<A>[] repairAll(CsrGraph graph, A[] previous, ChangedEdges changes,
                                                                    long budget, Predicate<A> touched) {
        @SuppressWarnings("unchecked") Repaired<A>[] out = (Repaired<A>[]) new Repaired<?>[previous.length];
        return each(graph, previous, out, touched, p -> {
            checkSizes(p, changes);
            return new Repaired<>(p.withTiming(Timing.NONE), NO_CHANGE);
        }, p -> repair(graph, p, changes, budget));
    }

    private static final int[] NO_CHANGE = new int[0];

    /**
     * The loop of {@link #repairAll}: the answers {@code touched} says the batch cannot touch get {@code untouched}'s
     * entry, the others are repaired side by side on the common pool ({@code repair}, each on its own answer); the
     * entries land in {@code out}, which is returned.
     */
    static <A, R> R[] each(CsrGraph graph, A[] previous, R[] out, Predicate<A> touched, Function<A, R> untouched,
                           Function<A, R> repair) {
        int[] ids = new int[previous.length];
        int k = 0;
        for (int i = 0; i < previous.length; i++) {
            if (touched.test(previous[i])) ids[k++] = i;
            else out[i] = untouched.apply(previous[i]);
        }
        if (k == 0) return out;
        if (graph.directed()) graph.transpose();
        IntStream some = Arrays.stream(ids, 0, k);
        (k > 1 ? some.parallel() : some).forEach(i -> out[i] = repair.apply(previous[i]));
        return out;
    }

    // ---------------------------------------------------------------- the queue

    private void push(int v, double key) {
        if (unitWeights) {
            long entry = (long) key << 32 | v;
            if (running) {
                if (fifoTail == fifo.length) fifo = compact(fifo);
                fifo[fifoTail++] = entry;
            } else {
                if (seedCount == seeds.length) seeds = Arrays.copyOf(seeds, 2 * seedCount);
                seeds[seedCount++] = entry;
            }
            return;
        }
        if (heapSize == heapKeys.length) {
            heapKeys = Arrays.copyOf(heapKeys, 2 * heapSize);
            heapVertices = Arrays.copyOf(heapVertices, 2 * heapSize);
        }
        int i = heapSize++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (heapKeys[p] <= key) break;
            heapKeys[i] = heapKeys[p];
            heapVertices[i] = heapVertices[p];
            i = p;
        }
        heapKeys[i] = key;
        heapVertices[i] = v;
    }

    /** Moves the FIFO's live entries to the front, growing it when more than half is live. */
    private long[] compact(long[] q) {
        int live = fifoTail - fifoHead;
        long[] to = live > q.length / 2 ? new long[2 * q.length] : q;
        System.arraycopy(q, fifoHead, to, 0, live);
        fifoHead = 0;
        fifoTail = live;
        return to;
    }

    /** Removes a smallest entry into {@link #poppedVertex} and {@link #poppedKey}; false when none is left. */
    private boolean pop() {
        if (unitWeights) {
            long entry;
            if (seedHead < seedCount && (fifoHead == fifoTail || seeds[seedHead] <= fifo[fifoHead])) {
                entry = seeds[seedHead++];
            } else if (fifoHead < fifoTail) {
                entry = fifo[fifoHead++];
            } else {
                return false;
            }
            poppedVertex = (int) entry;
            poppedKey = entry >>> 32;
            return true;
        }
        if (heapSize == 0) return false;
        poppedVertex = heapVertices[0];
        poppedKey = heapKeys[0];
        int n = --heapSize;
        double key = heapKeys[n];
        int v = heapVertices[n];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && heapKeys[c + 1] < heapKeys[c]) c++;
            if (heapKeys[c] >= key) break;
            heapKeys[i] = heapKeys[c];
            heapVertices[i] = heapVertices[c];
            i = c;
        }
        heapKeys[i] = key;
        heapVertices[i] = v;
        return true;
    }
}
