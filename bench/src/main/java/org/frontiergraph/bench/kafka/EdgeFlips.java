package org.frontiergraph.bench.kafka;

import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Structural single-edge updates a run publishes, in order, alternately a removal and an addition, and the graph they
 * lead to. It tracks which edges exist in every version, so each update is valid on the version before it:
 * <ul>
 *   <li>a removal names a seeded random edge of the current version (an edge of the starting graph not removed now,
 *       or one added since);</li>
 *   <li>an addition takes a seeded random edge out of a pool of absent edges and adds it with a new positive integer
 *       weight in 1..2w (w: its reference weight, as {@link Reweights} does). The pool holds every edge removed and
 *       not yet added back (reference: its weight in the starting graph), plus up to {@link #SHORTCUTS} two-hop
 *       shortcuts drawn at the start (u-x-t with no edge u-t; reference: the two hops' weights summed), so an
 *       addition is mostly not the edge just removed. (Removing an edge and adding the same one back would leave the
 *       worker nothing to merge: its overlay cancels the pair.)</li>
 * </ul>
 * An addition never names an edge that exists (none relies on the smaller-weight rule), and the graph keeps its size:
 * the starting edge count after each addition, one less after each removal. {@link #graphAt} replays the updates with
 * {@code GraphEdit} to check answers on the version the worker answered on.
 */
final class EdgeFlips implements UpdateSource {
    /** At most this many absent two-hop edges seed the pool (and at most an eighth of the graph's edges). */
    static final int SHORTCUTS = 1024;

    private final CsrGraph start;
    private final long startVersion;
    private final int first;
    private final boolean directed;
    private final SplittableRandom random;
    /** Edges of the starting graph that are absent now (removed and not added back), by key. */
    private final Set<Long> startRemoved = new HashSet<>();
    /** Edges not in the starting graph that are present now (shortcuts added), with their reference weights. */
    private long[] extra = new long[16];
    private double[] extraRef = new double[16];
    private int extraCount;
    /** Absent edges an addition may bring, with their reference weights. */
    private long[] pool = new long[16];
    private double[] poolRef = new double[16];
    private int poolCount;
    /** The updates so far: edge (u, v), 0-based; weight w, NaN for a removal. */
    private int[] u = new int[1024], v = new int[1024];
    private double[] w = new double[1024];
    private int count;
    private CsrGraph graph;
    private int folded;

    /**
     * Updates of {@code start}, which the worker holds as {@code version} ({@code first}: the user's id of vertex 0);
     * {@code seed} picks the shortcuts, the edges and the weights.
     */
    EdgeFlips(CsrGraph start, long version, int first, long seed) {
        if (start.edgeCount() == 0) throw new IllegalArgumentException("a graph without edges has nothing to remove");
        this.start = start;
        this.startVersion = version;
        this.first = first;
        this.directed = start.directed();
        this.random = new SplittableRandom(seed);
        this.graph = start;
        int shortcuts = Math.min(SHORTCUTS, start.edgeCount() / 8);
        Set<Long> seen = new HashSet<>();
        for (int tries = 0; poolCount < shortcuts && tries < 32 * shortcuts; tries++) {
            int a = random.nextInt(start.arcCount());
            int s = start.sourceOf(a), x = start.columns()[a];
            if (start.degree(x) == 0) continue;
            int b = start.rowStart(x) + random.nextInt(start.degree(x));
            int t = start.columns()[b];
            if (t == s || start.findArc(s, t) >= 0 || !seen.add(key(s, t))) continue;
            addToPool(key(s, t), start.weights()[a] + start.weights()[b]);
        }
    }

    /** The next update: a removal when an even number were made so far, else an addition. */
    @Override
    public GraphUpdate next(String graphId) {
        return count % 2 == 0 ? remove(graphId) : add(graphId);
    }

    private GraphUpdate remove(String graphId) {
        int perEdge = directed ? 1 : 2;   // an undirected edge has two arcs in the starting graph: weigh shortcuts alike
        while (true) {
            long r = random.nextLong(start.arcCount() + (long) perEdge * extraCount);
            long key;
            double ref;
            if (r < start.arcCount()) {
                int a = (int) r;
                key = key(start.sourceOf(a), start.columns()[a]);
                if (!startRemoved.add(key)) continue;   // removed already: draw again
                ref = start.weights()[a];
            } else {
                int i = (int) ((r - start.arcCount()) / perEdge);
                key = extra[i];
                ref = extraRef[i];
                extraCount--;
                extra[i] = extra[extraCount];
                extraRef[i] = extraRef[extraCount];
            }
            addToPool(key, ref);
            int s = (int) (key >>> 32), t = (int) key;
            log(s, t, Double.NaN);
            return GraphUpdate.newBuilder().setGraphId(graphId)
                    .setRemoved(PackedArrays.edgeBatch(new int[] {s + first}, new int[] {t + first}, new double[0]))
                    .build();
        }
    }

    private GraphUpdate add(String graphId) {
        int i = random.nextInt(poolCount);
        long key = pool[i];
        double ref = poolRef[i];
        poolCount--;
        pool[i] = pool[poolCount];
        poolRef[i] = poolRef[poolCount];
        int s = (int) (key >>> 32), t = (int) key;
        if (start.findArc(s, t) >= 0) {
            startRemoved.remove(key);
        } else {
            if (extraCount == extra.length) {
                extra = Arrays.copyOf(extra, 2 * extraCount);
                extraRef = Arrays.copyOf(extraRef, 2 * extraCount);
            }
            extra[extraCount] = key;
            extraRef[extraCount++] = ref;
        }
        double weight = 1 + random.nextInt((int) Math.max(1, Math.min(1 << 20, 2 * ref)));
        log(s, t, weight);
        return GraphUpdate.newBuilder().setGraphId(graphId)
                .setAdded(PackedArrays.edgeBatch(new int[] {s + first}, new int[] {t + first}, new double[] {weight}))
                .build();
    }

    private void addToPool(long key, double ref) {
        if (poolCount == pool.length) {
            pool = Arrays.copyOf(pool, 2 * poolCount);
            poolRef = Arrays.copyOf(poolRef, 2 * poolCount);
        }
        pool[poolCount] = key;
        poolRef[poolCount++] = ref;
    }

    private void log(int s, int t, double weight) {
        if (count == u.length) {
            u = Arrays.copyOf(u, 2 * count);
            v = Arrays.copyOf(v, 2 * count);
            w = Arrays.copyOf(w, 2 * count);
        }
        u[count] = s;
        v[count] = t;
        w[count] = weight;
        count++;
    }

    /** Edges by key: (u, v) for directed graphs, (min, max) for undirected ones. */
    private long key(int s, int t) {
        if (!directed && s > t) {
            int x = s;
            s = t;
            t = x;
        }
        return ((long) s << 32) | (t & 0xffffffffL);
    }

    @Override
    public long version() { return startVersion + count; }

    /**
     * The graph at {@code version}: the updates since the last call folded into one {@code GraphEdit} by their net
     * effect per edge (removed, added, or present with a new weight), which equals applying them one by one because
     * each was valid on the version before it.
     */
    @Override
    public CsrGraph graphAt(long version) {
        int upTo = Math.toIntExact(version - startVersion);
        if (upTo < folded || upTo > count) {
            throw new IllegalArgumentException("version " + version + " is not between " + (startVersion + folded) + " and " + version());
        }
        if (upTo > folded) {
            Map<Long, Double> last = new LinkedHashMap<>();
            for (int i = folded; i < upTo; i++) last.put(key(u[i], v[i]), w[i]);
            Edges removed = new Edges(), reweighted = new Edges(), added = new Edges();
            for (Map.Entry<Long, Double> e : last.entrySet()) {
                int s = (int) (e.getKey() >>> 32), t = (int) (long) e.getKey();
                double weight = e.getValue();
                int arc = graph.findArc(s, t);
                if (Double.isNaN(weight)) {
                    if (arc >= 0) removed.add(s, t, 0);   // else added and removed again since the last call
                } else if (arc < 0) {
                    added.add(s, t, weight);
                } else if (graph.weights()[arc] != weight) {
                    reweighted.add(s, t, weight);   // removed and added back since the last call
                }
            }
            graph = GraphEdit.apply(graph, first, removed.u(), removed.v(), reweighted.u(), reweighted.v(), reweighted.w(),
                    added.u(), added.v(), added.w());
            folded = upTo;
        }
        return graph;
    }

    /** A growing list of edges. */
    private static final class Edges {
        private int[] us = new int[16], vs = new int[16];
        private double[] ws = new double[16];
        private int n;

        void add(int s, int t, double weight) {
            if (n == us.length) {
                us = Arrays.copyOf(us, 2 * n);
                vs = Arrays.copyOf(vs, 2 * n);
                ws = Arrays.copyOf(ws, 2 * n);
            }
            us[n] = s;
            vs[n] = t;
            ws[n++] = weight;
        }

        int[] u() { return Arrays.copyOf(us, n); }
        int[] v() { return Arrays.copyOf(vs, n); }
        double[] w() { return Arrays.copyOf(ws, n); }
    }
}
