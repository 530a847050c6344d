package org.frontiergraph.kernels.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.frontiergraph.kernels.engine.Verification;

/**
 * Standing queries through random update streams, for the repair tests (SSSP and BFS): a graph with zero, integral,
 * fractional and arbitrary double weights and pendant paths hanging on bridges; updates that decrease (any arc, and
 * tree arcs), increase and remove tree arcs, remove and insert arcs, cut every edge of a vertex and reconnect it
 * later, cut and restore bridges, add vertices with edges to them, change arcs at a source, and (now and then) an invalid update. After every
 * batch each source's answer is repaired and {@link #check checked} against a fresh reference; a repair that gives up
 * is recomputed and the stream goes on.
 */
public final class RepairStreams {
    private RepairStreams() {}

    /** An answer as the checks see it: values (distances, or hops as doubles; +Inf unreachable) and parents. */
    public record View(double[] values, int[] parents) {}

    /** A repaired answer and its changed vertices. */
    public record Repaired<R>(R result, int[] changed) {}

    /** The algorithm under test. */
    public interface Algorithm<R> {
        R reference(CsrGraph g, int source);

        /** A deep copy (repairs may work in place). */
        R copy(R answer);

        View view(R answer);

        /** The repair, or null when it gave up. */
        Repaired<R> repair(CsrGraph g, R previous, ChangedEdges changes);

        Verification verify(CsrGraph g, int source, R answer, R reference);
    }

    /**
     * An algorithm that also repairs many answers of one graph together ({@code repairAll}): {@link #run} then repairs
     * each batch's answers that way and checks, besides the usual, that each entry equals the repair of that answer
     * alone (null when it gave up; else the same values, parents and changed vertices).
     */
    public interface Together<R> extends Algorithm<R> {
        /** Entry i: {@code previous.get(i)} repaired, or null when that repair gave up. */
        List<Repaired<R>> repairAll(CsrGraph g, List<R> previous, ChangedEdges changes);
    }

    /** {@code alg} with {@code all} as its repair of many answers together (the rest delegated to {@code alg}). */
    public static <R> Together<R> together(Algorithm<R> alg, RepairAll<R> all) {
        return new Together<>() {
            @Override public R reference(CsrGraph g, int source) { return alg.reference(g, source); }
            @Override public R copy(R answer) { return alg.copy(answer); }
            @Override public View view(R answer) { return alg.view(answer); }
            @Override public Repaired<R> repair(CsrGraph g, R previous, ChangedEdges changes) { return alg.repair(g, previous, changes); }
            @Override public Verification verify(CsrGraph g, int source, R answer, R ref) { return alg.verify(g, source, answer, ref); }
            @Override public List<Repaired<R>> repairAll(CsrGraph g, List<R> previous, ChangedEdges changes) {
                return all.repairAll(g, previous, changes);
            }
        };
    }

    /**
     * An algorithm that repairs the answers of a batch only together (the device's standing trees): {@link #run} hands
     * it every answer of a batch at once, and checks each entry as usual (no comparison with a repair alone).
     */
    public interface Batched<R> extends Algorithm<R> {
        /** Entry i: {@code previous.get(i)} repaired (never null). */
        List<Repaired<R>> repairBatch(CsrGraph g, List<R> previous, ChangedEdges changes);
    }

    /**
     * The weights a stream's graph and updates carry: {@link #MIXED} (zero, integral, multiples of 1/8 and arbitrary
     * doubles), {@link #INTEGER} (1 to 20; decreases and increases stay integral) or {@link #REAL} (positive doubles,
     * sums that round). The "random, maybe invalid" updates keep their own weights (integral or not, zero now and then).
     */
    public enum Weights { MIXED, INTEGER, REAL }

    /** A repair of many answers of one graph together ({@link Together#repairAll}). */
    @FunctionalInterface
    public interface RepairAll<R> {
        List<Repaired<R>> repairAll(CsrGraph g, List<R> previous, ChangedEdges changes);
    }

    /** {@code alg} checked against another reference: e.g. the GPU engine's answer run from scratch. */
    public static <R> Algorithm<R> withReference(Algorithm<R> alg, java.util.function.BiFunction<CsrGraph, Integer, R> reference) {
        return new Algorithm<>() {
            @Override public R reference(CsrGraph g, int source) { return reference.apply(g, source); }
            @Override public R copy(R answer) { return alg.copy(answer); }
            @Override public View view(R answer) { return alg.view(answer); }
            @Override public Repaired<R> repair(CsrGraph g, R previous, ChangedEdges changes) { return alg.repair(g, previous, changes); }
            @Override public Verification verify(CsrGraph g, int source, R answer, R ref) { return alg.verify(g, source, answer, ref); }
        };
    }

    /** What a stream did: repairs and give-ups per batch size, refused updates, updates applied per kind. */
    public record Stats(Map<Integer, int[]> repairedAndNull, int refused, Map<String, Integer> kinds) {
        public int repaired(int batchSize) { return repairedAndNull.get(batchSize)[0]; }
        public int gaveUp(int batchSize) { return repairedAndNull.get(batchSize)[1]; }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            repairedAndNull.forEach((size, r) -> b.append("batches of ").append(size).append(": ").append(r[0])
                    .append(" repaired, ").append(r[1]).append(" gave up; "));
            return b.append(refused).append(" refused; applied ").append(kinds).toString();
        }
    }

    /** The start graph: n vertices, 3n random edges among the first n - 25, five pendant paths of 5 on bridges. */
    public static CsrGraph graph(Random rnd, int n, boolean directed) {
        return graph(rnd, n, directed, Weights.MIXED);
    }

    /** {@link #graph(Random, int, boolean)} with weights of the given kind. */
    public static CsrGraph graph(Random rnd, int n, boolean directed, Weights weights) {
        int core = n - 25;
        EdgeList e = new EdgeList(n, directed, 4 * n);
        for (int i = 0; i < 3 * n; i++) e.add(rnd.nextInt(core), rnd.nextInt(core), weight(rnd, weights));
        for (int p = 0; p < 5; p++) {
            int first = core + 5 * p;
            link(e, rnd.nextInt(core), first, weight(rnd, weights));
            for (int i = 0; i < 4; i++) link(e, first + i, first + i + 1, weight(rnd, weights));
        }
        return GraphBuilder.build(e);
    }

    /** A weight of the given kind. */
    static double weight(Random rnd, Weights weights) {
        return switch (weights) {
            case MIXED -> weight(rnd);
            case INTEGER -> 1 + rnd.nextInt(20);
            case REAL -> 0.25 + rnd.nextDouble() * 10;
        };
    }

    /** An edge both ways (one undirected edge, or two arcs). */
    private static void link(EdgeList e, int u, int v, double w) {
        e.add(u, v, w);
        if (e.directed()) e.add(v, u, w);
    }

    /** Zero (1 in 5), a small integer, a multiple of 1/8, or an arbitrary double (sums then round). */
    static double weight(Random rnd) {
        return switch (rnd.nextInt(5)) {
            case 0 -> 0;
            case 1, 2 -> 1 + rnd.nextInt(20);
            case 3 -> rnd.nextInt(80) / 8.0;
            default -> rnd.nextDouble() * 10;
        };
    }

    /**
     * Runs {@code batches} batches of each size in {@code batchSizes} on {@code start} with the given sources,
     * checking every repair.
     */
    public static <R> Stats run(Algorithm<R> alg, CsrGraph start, int[] sources, int[] batchSizes, int batches,
                                Random rnd) {
        return run(alg, start, sources, batchSizes, batches, rnd, Weights.MIXED);
    }

    /**
     * {@link #run(Algorithm, CsrGraph, int[], int[], int, Random)} with updates carrying weights of the given kind.
     * A {@link Batched} algorithm starts from the answers {@code alg.reference} gives on {@code start}, in the order
     * of {@code sources}, and gets them all in each batch.
     */
    public static <R> Stats run(Algorithm<R> alg, CsrGraph start, int[] sources, int[] batchSizes, int batches,
                                Random rnd, Weights weights) {
        MutableGraph g = new MutableGraph(start);
        ChangeLog.Cursor seen = g.log().cursor(ChangeLog.Detail.EDGES);
        List<R> answers = new ArrayList<>();
        for (int s : sources) answers.add(alg.reference(start, s));
        Stream stream = new Stream(rnd, g, sources, start.vertexCount(), weights);
        Map<Integer, int[]> outcomes = new LinkedHashMap<>();
        for (int size : batchSizes) {
            int[] outcome = outcomes.computeIfAbsent(size, k -> new int[2]);
            for (int b = 0; b < batches; b++) {
                for (int i = 0; i < size; i++) stream.next(alg, answers);
                ChangedEdges changes = seen.read().edges();
                CsrGraph now = g.current();
                List<R> befores = new ArrayList<>();
                for (R a : answers) befores.add(alg.copy(a));
                List<Repaired<R>> together = null;
                if (alg instanceof Batched<R> batched) {
                    together = batched.repairBatch(now, answers, changes);
                    assertEquals(sources.length, together.size());
                } else if (alg instanceof Together<R> t) {
                    List<Repaired<R>> alone = new ArrayList<>();
                    for (R a : answers) alone.add(alg.repair(now, alg.copy(a), changes));
                    together = t.repairAll(now, answers, changes);
                    assertEquals(sources.length, together.size());
                    for (int k = 0; k < sources.length; k++) {
                        String what = "source " + sources[k] + ", batch " + b + " of " + size + " updates, together";
                        Repaired<R> one = alone.get(k), all = together.get(k);
                        assertEquals(one == null, all == null, what + ": gave up alone, not together, or the reverse");
                        if (one == null) continue;
                        assertArrayEquals(alg.view(one.result()).values(), alg.view(all.result()).values(), what + ": values");
                        assertArrayEquals(alg.view(one.result()).parents(), alg.view(all.result()).parents(), what + ": parents");
                        assertArrayEquals(one.changed(), all.changed(), what + ": changed");
                    }
                }
                for (int k = 0; k < sources.length; k++) {
                    R previous = answers.get(k), before = befores.get(k);
                    Repaired<R> r = together != null ? together.get(k) : alg.repair(now, previous, changes);
                    String what = "source " + sources[k] + ", batch " + b + " of " + size + " updates";
                    if (r == null) {
                        outcome[1]++;
                        answers.set(k, alg.reference(now, sources[k]));
                        continue;
                    }
                    check(alg, now, sources[k], before, r, what);
                    outcome[0]++;
                    answers.set(k, r.result());
                }
            }
        }
        return new Stats(outcomes, stream.refused, stream.kinds);
    }

    /**
     * The checks after a repair: the verifier against a fresh reference, values equal to the reference's exactly,
     * parents that lead every reachable vertex to the source, and {@code changed} equal to the vertices whose value
     * or parent differs from {@code previous} (new vertices: previous is unreachable).
     */
    public static <R> void check(Algorithm<R> alg, CsrGraph g, int source, R previous, Repaired<R> repaired,
                                 String what) {
        R reference = alg.reference(g, source);
        Verification v = alg.verify(g, source, repaired.result(), reference);
        assertTrue(v.ok(), what + ": " + v.message());
        View got = alg.view(repaired.result()), want = alg.view(reference), old = alg.view(previous);
        assertArrayEquals(want.values(), got.values(), what + ": values");
        assertAcyclic(got.parents(), source, what);
        int n = g.vertexCount();
        int[] expected = new int[n];
        int k = 0;
        for (int u = 0; u < n; u++) {
            boolean differs = u < old.values().length
                    ? got.values()[u] != old.values()[u] || got.parents()[u] != old.parents()[u]
                    : got.parents()[u] >= 0;
            if (differs) expected[k++] = u;
        }
        assertArrayEquals(Arrays.copyOf(expected, k), repaired.changed(), what + ": changed vertices");
    }

    /** Every vertex with a parent reaches the source by parents, without a cycle. */
    public static void assertAcyclic(int[] parents, int source, String what) {
        int n = parents.length;
        byte[] state = new byte[n];   // 0 unknown, 1 on the current walk, 2 leads to the source
        state[source] = 2;
        int[] walk = new int[n];
        for (int v = 0; v < n; v++) {
            int len = 0, u = v;
            while (parents[u] >= 0 && state[u] == 0) {
                state[u] = 1;
                walk[len++] = u;
                u = parents[u];
            }
            if (state[u] == 1) fail(what + ": vertex " + v + "'s parents run into a cycle at " + u);
            if (parents[u] < 0 && len > 0) fail(what + ": vertex " + v + "'s parents end at " + u + ", not the source");
            for (int i = 0; i < len; i++) state[walk[i]] = 2;
        }
    }

    /** The update generator: its state is the graph, the cut vertices and bridges, and what it applied. */
    private static final class Stream {
        final Random rnd;
        final MutableGraph g;
        final int[] sources;
        final List<Integer> cut = new ArrayList<>();
        final List<int[]> bridges = new ArrayList<>(), cutBridges = new ArrayList<>();
        final Map<String, Integer> kinds = new LinkedHashMap<>();
        final Weights weights;
        int refused, lastCut;

        Stream(Random rnd, MutableGraph g, int[] sources, int n, Weights weights) {
            this.rnd = rnd;
            this.g = g;
            this.sources = sources;
            this.weights = weights;
            CsrGraph start = g.current();
            for (int p = 0; p < 5; p++) {   // each pendant path's first vertex has one neighbour in the core
                int first = n - 25 + 5 * p;
                for (int a = start.rowStart(first); a < start.rowEnd(first); a++) {
                    if (start.columns()[a] < n - 25) bridges.add(new int[] {start.columns()[a], first});
                }
            }
        }

        /** Applies one random update (refused ones count and change nothing). */
        <R> void next(Algorithm<R> alg, List<R> answers) {
            CsrGraph c = g.current();
            int kind = rnd.nextInt(12);
            int s = rnd.nextInt(sources.length);
            int[] tree = treeArc(c, alg.view(answers.get(s)).parents());
            int[] any = UpdateStreams.randomArc(rnd, c);
            EdgeEdits e;
            String name;
            switch (kind) {
                case 0 -> { name = "decrease"; e = reweight(c, any, false); }
                case 1 -> { name = "increase tree arc"; e = reweight(c, tree, true); }
                case 2 -> { name = "remove tree arc"; e = tree == null ? null : remove(tree); }
                case 3 -> { name = "remove"; e = any == null ? null : remove(any); }
                case 4 -> {
                    name = "insert";
                    int n = c.vertexCount();
                    e = add(List.of(new int[] {rnd.nextInt(n), rnd.nextInt(n)}));
                }
                case 5 -> { name = "cut a vertex"; e = cutVertex(c); }
                case 6 -> { name = "reconnect a vertex"; e = reconnect(c); }
                case 7 -> { name = "cut or restore a bridge"; e = toggleBridge(); }
                case 8 -> { name = "new vertices"; e = newVertices(c); }
                case 9 -> { name = "at a source"; e = atSource(c, sources[s]); }
                case 10 -> { name = "decrease tree arc"; e = reweight(c, tree, false); }
                default -> { name = "random, maybe invalid"; e = UpdateStreams.randomUpdate(rnd, c, true); }
            }
            if (e == null) return;
            try {
                g.apply(e, 0, Long.MAX_VALUE);
                kinds.merge(name, 1, Integer::sum);
                if (kind == 5) cut.add(lastCut);
            } catch (InvalidGraphException x) {
                refused++;
            }
        }

        /** A tree arc (parent, child) of the answer that the current graph still has, or null. */
        private int[] treeArc(CsrGraph c, int[] parents) {
            for (int tries = 0; tries < 20; tries++) {
                int v = rnd.nextInt(parents.length);
                int p = parents[v];
                if (p >= 0 && p != v && c.findArc(p, v) >= 0) return new int[] {p, v};
            }
            return null;
        }

        private EdgeEdits reweight(CsrGraph c, int[] arc, boolean up) {
            if (arc == null) return null;
            double w = c.weights()[c.findArc(arc[0], arc[1])];
            double now = switch (weights) {
                case MIXED -> up ? w + 1 + rnd.nextInt(4) * 0.375 : rnd.nextBoolean() ? 0 : w * rnd.nextDouble();
                case INTEGER -> up ? w + 1 + rnd.nextInt(4) : Math.max(1, Math.floor(w * rnd.nextDouble()));
                case REAL -> up ? w + 0.5 + rnd.nextDouble() : Math.max(0.25, w * rnd.nextDouble());
            };
            int[] named = UpdateStreams.flip(rnd, arc, c);
            return EdgeEdits.reweight(named[0], named[1], now);
        }

        private EdgeEdits remove(int[] arc) {
            int[] named = UpdateStreams.flip(rnd, arc, g.current());
            return EdgeEdits.remove(new int[] {named[0]}, new int[] {named[1]});
        }

        /** Removes every edge of a random vertex (in-arcs too on a directed graph). */
        private EdgeEdits cutVertex(CsrGraph c) {
            int x = rnd.nextInt(c.vertexCount());
            lastCut = x;
            List<int[]> arcs = new ArrayList<>();
            for (int a = c.rowStart(x); a < c.rowEnd(x); a++) arcs.add(new int[] {x, c.columns()[a]});
            if (c.directed()) {
                CsrGraph t = c.transpose();
                for (int a = t.rowStart(x); a < t.rowEnd(x); a++) arcs.add(new int[] {t.columns()[a], x});
            }
            return arcs.isEmpty() ? null : EdgeEdits.remove(UpdateStreams.us(arcs), UpdateStreams.vs(arcs));
        }

        /** Gives a cut vertex 1 to 3 edges (arcs both ways on a directed graph, now and then only one way). */
        private EdgeEdits reconnect(CsrGraph c) {
            if (cut.isEmpty()) return null;
            int x = cut.remove(rnd.nextInt(cut.size()));
            List<int[]> arcs = new ArrayList<>();
            for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                int y = rnd.nextInt(c.vertexCount());
                arcs.add(new int[] {y, x});
                if (c.directed() && rnd.nextInt(4) > 0) arcs.add(new int[] {x, y});
            }
            return add(arcs);
        }

        private EdgeEdits toggleBridge() {
            if (!bridges.isEmpty() && (cutBridges.isEmpty() || rnd.nextBoolean())) {
                int[] b = bridges.remove(rnd.nextInt(bridges.size()));
                cutBridges.add(b);
                if (!g.directed()) return remove(b);
                return EdgeEdits.remove(new int[] {b[0], b[1]}, new int[] {b[1], b[0]});
            }
            if (cutBridges.isEmpty()) return null;
            int[] b = cutBridges.remove(rnd.nextInt(cutBridges.size()));
            bridges.add(b);
            return add(g.directed() ? List.of(b, new int[] {b[1], b[0]}) : List.of(b));
        }

        /** 1 to 3 new vertices: some isolated, some with edges to old vertices or to each other. */
        private EdgeEdits newVertices(CsrGraph c) {
            int n = c.vertexCount(), k = 1 + rnd.nextInt(3);
            List<int[]> arcs = new ArrayList<>();
            for (int x = n; x < n + k; x++) {
                if (rnd.nextInt(3) == 0) continue;   // stays unreachable
                arcs.add(new int[] {rnd.nextInt(n), x});
                if (rnd.nextBoolean()) arcs.add(new int[] {x, rnd.nextInt(n)});
                if (x > n && rnd.nextBoolean()) arcs.add(new int[] {x - 1, x});
            }
            EdgeEdits a = add(arcs);
            return new EdgeEdits(k, a.removeU(), a.removeV(), a.reweightU(), a.reweightV(), a.reweightW(),
                    a.addU(), a.addV(), a.addW());
        }

        /** Re-weights, removes or adds an arc out of (or into) the source, or adds a loop there (dropped). */
        private EdgeEdits atSource(CsrGraph c, int s) {
            int[] arc = c.degree(s) == 0 ? null : new int[] {s, c.columns()[c.rowStart(s) + rnd.nextInt(c.degree(s))]};
            return switch (arc == null ? 3 : rnd.nextInt(5)) {
                case 0 -> reweight(c, arc, rnd.nextBoolean());
                case 1 -> remove(arc);
                case 2 -> add(List.of(new int[] {rnd.nextInt(c.vertexCount()), s}));
                case 3 -> add(List.of(new int[] {s, rnd.nextInt(c.vertexCount())}));
                default -> add(List.of(new int[] {s, s}));
            };
        }

        private EdgeEdits add(List<int[]> arcs) {
            double[] w = new double[arcs.size()];
            for (int i = 0; i < w.length; i++) w[i] = weight(rnd, weights);
            return EdgeEdits.add(UpdateStreams.us(arcs), UpdateStreams.vs(arcs), w);
        }
    }

    /** Asserts that a stream applied every kind of update at least once. */
    public static void assertEveryKind(Stats stats) {
        assertEquals(12, stats.kinds().size(), "kinds applied: " + stats.kinds());
    }

    /**
     * What a tree repair's random streams must show ({@code batches} batches of each of {@code sizes} from each of
     * {@code sources} sources): every kind of update applied, invalid ones refused, single updates almost always
     * repaired (a cut near a source may not be), batches of 100 repaired too, and with a budget some batches of 100
     * given up, without one none.
     */
    public static void assertRepairedWithinBudget(Stats stats, int sources, int batches, int[] sizes, boolean unlimited) {
        assertEveryKind(stats);
        assertTrue(stats.refused() > 0, "invalid updates were refused: " + stats);
        assertTrue(stats.repaired(1) >= 0.9 * batches * sources, "single updates repaired: " + stats);
        assertTrue(stats.repaired(100) > 0, "batches of 100 repaired too: " + stats);
        if (unlimited) {
            for (int size : sizes) assertEquals(0, stats.gaveUp(size), "no budget, no give-up: " + stats);
        } else {
            assertTrue(stats.gaveUp(100) > 0, "some batches of 100 went past the budget and were recomputed: " + stats);
        }
    }
}
