package org.frontiergraph.kernels.cc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.frontiergraph.kernels.engine.Spares;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Incremental CC for a standing answer: repairs the previous components after a run of graph updates instead of
 * recomputing them, and says which components merged and which split. A pure function of the graph after the run,
 * the previous answer (never changed: the result has its own labels, or shares the previous ones where nothing
 * changed), the run's {@link ChangedEdges} and a budget; null when repairing would cost more than recomputing.
 *
 * <p><b>Method.</b> A changed pair that is an edge now (either arc, on a directed graph) is an insertion; one that is
 * not, with both ends in one previous component, a deletion (other absent pairs never were edges). Only deletions can
 * split a component C, and every piece C falls into contains an end of one of C's deleted edges. For each deletion
 * a bidirectional breadth-first search on the new graph grows the smaller side first: meeting the other side means
 * the ends are still connected; a side that runs out is a whole component of the new graph and is <em>settled</em>
 * (labeled by its smallest vertex, and set aside); a search past {@link #SEARCH_SHARE} of the budget gives up and C
 * is relabeled by searching from each of its deletions' ends (each piece holds one). Then C's ends still unsettled
 * are searched pairwise until they are one group, so everything left of C is connected. Insertions join the groups
 * of their ends (union-find on the previous labels; a settled component is complete, so no insertion leaves it).
 * Finally, if anything moved, one pass over the vertices in id order gives each group its smallest vertex as label
 * and finds the changed vertices. New vertices start as singletons labeled by themselves.
 *
 * <p><b>Events.</b> A component of the new graph whose vertices carried two or more previous labels is a
 * {@link Merge}; a previous component whose vertices now carry two or more labels is a {@link Split} (a new vertex
 * counts as its own previous component). Both can hold for one component.
 *
 * <p><b>Cost.</b> O(vertices and arcs the searches visit) while no label changes (a deletion with a short
 * replacement path, an insertion inside one component: the previous labels are shared). A batch that only cuts pieces
 * off (the common "which vertices are cut off" case) adds a copy of the labels and one compare pass; any other change
 * (a merge, a previous smallest vertex cut away) one pass over the vertices for labels and counts. On a directed graph
 * a deletion reads the new version's {@link CsrGraph#transpose()}, cached on the graph: derived from the previous
 * version's when that one had one, else built by its first reader. Either is O(m) (on USA-road-d.NY the derivation
 * is about 0.4 of a CpuCc recompute, a build from scratch about 0.8) and dominates such batches when this repair is
 * the first to read it; the worker reads it before its standing repairs. Work past the budget (vertices plus arcs the
 * searches visit, default {@link #defaultBudget}) returns null. Each repair takes its search scratch from the
 * spares ({@link Spares}).
 */
public final class CcRepair {
    /** Work per arc of the graph past which a repair gives up (about a recompute's sequential cost). */
    public static final double BUDGET_PER_ARC = 1.0;
    /** Small graphs always repair. */
    public static final long MIN_BUDGET = 4096;
    /** A search for a replacement path gives up (and its component is relabeled) past this share of the budget. */
    static final int SEARCH_SHARE = 8;

    /** Search scratch not in use (one per repair running at once). */
    private static final Spares<Scratch> SPARES = new Spares<>(Scratch::new);

    private CcRepair() {}

    /** Components of the new graph that carried several previous labels: {@code label} now, {@code from} before. */
    public record Merge(int label, int[] from) {}

    /** A previous component ({@code label}) whose vertices now carry several labels ({@code into}, ascending). */
    public record Split(int label, int[] into) {}

    /**
     * A repaired answer: the new result (its timing counts the repair, with counters {@code work}, {@code searches}
     * and {@code settled}), the merges and splits (by label, ascending), and the vertices whose label differs from
     * the previous one (ascending; a new vertex counts when its label is not itself).
     */
    public record Repaired(CcResult result, List<Merge> merged, List<Split> split, int[] changed) {
        public boolean unchanged() { return changed.length == 0 && merged.isEmpty() && split.isEmpty(); }
    }

    /** {@link #MIN_BUDGET} + {@link #BUDGET_PER_ARC} * arcs. */
    public static long defaultBudget(CsrGraph graph) {
        return MIN_BUDGET + (long) (BUDGET_PER_ARC * graph.arcs());
    }

    public static Repaired repair(CsrGraph graph, CcResult previous, ChangedEdges changes) {
        return repair(graph, previous, changes, defaultBudget(graph));
    }

    /**
     * Repairs {@code previous} (the exact answer on the graph before {@code changes}) into the exact answer on
     * {@code graph}, or null once the work passes {@code budget} ({@link Long#MAX_VALUE}: never). A graph held in the
     * wide form ({@link CsrGraph#wide()}) is not repaired: null, so the caller recomputes on the engine that holds it.
     *
     * @throws IllegalArgumentException when previous has not {@code changes.vertexCountBefore()} labels or the graph
     *         has fewer vertices
     */
    public static Repaired repair(CsrGraph graph, CcResult previous, ChangedEdges changes, long budget) {
        int before = changes.vertexCountBefore();
        if (previous.labels().length != before || graph.vertexCount() < before) {
            throw new IllegalArgumentException("previous answer has " + previous.labels().length + " labels; the changes"
                    + " start from " + before + " vertices and the graph has " + graph.vertexCount());
        }
        if (graph.wide()) return null;   // its rows are read as int-indexed arrays
        long t0 = System.nanoTime();
        Scratch scratch = SPARES.take();
        try {
            Run run = new Run(graph, previous, before, budget, scratch);
            return run.repair(changes) ? run.result(t0) : null;
        } finally {
            SPARES.give(scratch);
        }
    }

    /** A thread's search scratch: epoch stamps (never cleared) and the two queues. */
    private static final class Scratch {
        int[] mark = new int[0];
        int epoch;
        int[] queueA = new int[64], queueB = new int[64];

        /** A fresh pair of stamps for a search on n vertices. */
        int next(int n) {
            if (mark.length < n) mark = Arrays.copyOf(mark, Math.max(n, mark.length + (mark.length >> 1)));
            if (epoch >= (Integer.MAX_VALUE >> 1) - 1) {
                Arrays.fill(mark, 0);
                epoch = 0;
            }
            return ++epoch;
        }
    }

    /** Search outcomes. */
    private static final int FOUND = 0, SIDE_A = 1, SIDE_B = 2, GAVE_UP = 3, OVER_BUDGET = 4;

    private static final class Run {
        final CsrGraph graph;
        final CcResult previous;
        final int[] prev;
        final int n, before;
        final long budget, searchLimit;
        final Scratch s;
        CsrGraph in;
        long work;
        int searches, settledCount;
        /** The settled vertices in settling order; per settled component: label, previous label of a vertex, size. */
        int[] settledList = new int[16];
        final List<int[]> pieces = new ArrayList<>();
        /** Settled vertices: their label + 1 (0: not settled). Allocated on the first settle. */
        int[] settled;
        /** Previous labels whose vertices moved (settled, or their group merged). */
        boolean[] touched;
        /** Union-find over previous labels, for the groups insertions join (allocated on the first join). */
        int[] group;
        /** Ends of one deletion search's exhausted side, while it is settled. */
        int[] side;
        int sideLength;

        Run(CsrGraph graph, CcResult previous, int before, long budget, Scratch s) {
            this.graph = graph;
            this.previous = previous;
            this.prev = previous.labels();
            this.n = graph.vertexCount();
            this.before = before;
            this.budget = budget;
            this.searchLimit = Math.max(MIN_BUDGET, budget / SEARCH_SHARE);
            this.s = s;
        }

        int old(int x) { return x < before ? prev[x] : x; }

        boolean isSettled(int x) { return settled != null && settled[x] != 0; }

        boolean adjacent(int u, int v) {
            return graph.findArc(u, v) >= 0 || (graph.directed() && graph.findArc(v, u) >= 0);
        }

        /** False when the budget ran out. */
        boolean repair(ChangedEdges changes) {
            Map<Integer, List<int[]>> deletions = new LinkedHashMap<>();
            List<int[]> insertions = new ArrayList<>();
            for (int i = 0; i < changes.size(); i++) {
                int u = changes.u()[i], v = changes.v()[i];
                if (u == v) continue;
                if (adjacent(u, v)) {
                    if (old(u) != old(v)) insertions.add(new int[] {u, v});
                } else if (u < before && v < before && prev[u] == prev[v]) {
                    deletions.computeIfAbsent(prev[u], k -> new ArrayList<>()).add(new int[] {u, v});
                }
            }
            for (Map.Entry<Integer, List<int[]>> e : deletions.entrySet()) {
                if (!splitCheck(e.getValue())) return false;
            }
            for (int[] p : insertions) {
                if (isSettled(p[0]) || isSettled(p[1])) continue;   // both in one settled, complete component
                join(old(p[0]), old(p[1]));
            }
            return true;
        }

        /** One previous component's deletions: settles what split off; false when the budget ran out. */
        boolean splitCheck(List<int[]> pairs) {
            Map<Integer, Integer> ends = new HashMap<>();   // union-find over the deletions' ends
            for (int[] p : pairs) {
                ends.putIfAbsent(p[0], p[0]);
                ends.putIfAbsent(p[1], p[1]);
            }
            for (int[] p : pairs) {
                int u = p[0], v = p[1];
                if (isSettled(u) || isSettled(v) || find(ends, u) == find(ends, v)) continue;
                int outcome = search(u, v);
                if (outcome == OVER_BUDGET) return false;
                if (outcome == GAVE_UP) return relabel(ends.keySet());
                if (outcome == FOUND) ends.put(find(ends, u), find(ends, v));
            }
            while (true) {
                TreeMap<Integer, Integer> groups = new TreeMap<>();   // root -> one unsettled end
                for (int x : ends.keySet()) if (!isSettled(x)) groups.putIfAbsent(find(ends, x), x);
                if (groups.size() <= 1) return true;
                int a = groups.pollFirstEntry().getValue(), b = groups.pollFirstEntry().getValue();
                int outcome = search(a, b);
                if (outcome == OVER_BUDGET) return false;
                if (outcome == GAVE_UP) return relabel(ends.keySet());
                if (outcome == FOUND) ends.put(find(ends, a), find(ends, b));
            }
        }

        static int find(Map<Integer, Integer> parent, int x) {
            int p;
            while ((p = parent.get(x)) != x) {
                int gp = parent.get(p);
                parent.put(x, gp);
                x = gp;
            }
            return x;
        }

        /** Every unsettled end's whole component searched and settled (no search limit, only the budget). */
        boolean relabel(Iterable<Integer> ends) {
            for (int x : ends) {
                if (isSettled(x)) continue;
                if (search(x, -1) == OVER_BUDGET) return false;
            }
            return true;
        }

        /**
         * A bidirectional search from a and b (b = -1: from a alone, until it runs out, limited only by the budget),
         * the side with fewer vertices grown first. An exhausted side is settled here.
         */
        int search(int a, int b) {
            searches++;
            if (graph.directed() && in == null) in = graph.transpose();
            int e = s.next(n);
            int markA = 2 * e, markB = 2 * e + 1;
            int[] mark = s.mark;
            int headA = 0, tailA = 0, headB = 0, tailB = 0;
            s.queueA[tailA++] = a;
            mark[a] = markA;
            if (b >= 0) {
                s.queueB[tailB++] = b;
                mark[b] = markB;
            }
            long limit = b < 0 ? Long.MAX_VALUE : work + searchLimit;
            while (true) {
                if (headA == tailA) return settle(s.queueA, tailA, SIDE_A);
                if (b >= 0 && headB == tailB) return settle(s.queueB, tailB, SIDE_B);
                if (work > budget) return OVER_BUDGET;
                if (work > limit) return GAVE_UP;
                boolean fromA = b < 0 || tailA <= tailB;
                int mine = fromA ? markA : markB, other = fromA ? markB : markA;
                int x = fromA ? s.queueA[headA++] : s.queueB[headB++];
                work++;
                for (int pass = 0; pass < (in == null ? 1 : 2); pass++) {
                    CsrGraph g = pass == 0 ? graph : in;
                    int[] cols = g.columns();
                    for (int i = g.rowStart(x), end = g.rowEnd(x); i < end; i++) {
                        int y = cols[i];
                        work++;
                        if (mark[y] == mine) continue;
                        if (mark[y] == other) return FOUND;
                        mark[y] = mine;
                        if (fromA) {
                            if (tailA == s.queueA.length) s.queueA = Arrays.copyOf(s.queueA, 2 * tailA);
                            s.queueA[tailA++] = y;
                        } else {
                            if (tailB == s.queueB.length) s.queueB = Arrays.copyOf(s.queueB, 2 * tailB);
                            s.queueB[tailB++] = y;
                        }
                    }
                }
            }
        }

        /** The vertices of an exhausted side, a whole component of the new graph, labeled by their smallest. */
        int settle(int[] queue, int length, int outcome) {
            if (settled == null) {
                settled = new int[n];
                touched = new boolean[n];
            }
            int min = Integer.MAX_VALUE;
            for (int i = 0; i < length; i++) min = Math.min(min, queue[i]);
            if (settledCount + length > settledList.length) {
                settledList = Arrays.copyOf(settledList, Math.max(2 * settledList.length, settledCount + length));
            }
            for (int i = 0; i < length; i++) {
                int x = queue[i];
                settled[x] = min + 1;
                touched[old(x)] = true;
                settledList[settledCount++] = x;
            }
            pieces.add(new int[] {min, old(queue[0]), length});
            return outcome;
        }

        /** Insertion between two groups (previous labels). */
        void join(int a, int b) {
            if (group == null) {
                group = new int[n];
                for (int i = 0; i < n; i++) group[i] = i;
                if (touched == null) touched = new boolean[n];
            }
            int ra = root(a), rb = root(b);
            if (ra == rb) return;
            group[Math.max(ra, rb)] = Math.min(ra, rb);
            touched[ra] = true;
            touched[rb] = true;
        }

        int root(int x) {
            while (group[x] != x) {
                group[x] = group[group[x]];
                x = group[x];
            }
            return x;
        }

        Repaired result(long t0) {
            if (touched == null && n == before) {
                return new Repaired(new CcResult(prev, previous.components(), previous.largest(), timing(t0)),
                        List.of(), List.of(), new int[0]);
            }
            if (group == null && remaindersKeepTheirLabels()) return cutOff(t0);
            int[] labels = new int[n];
            int[] minOf = null;   // per group root: its smallest unsettled vertex + 1 (0: none seen yet)
            int[] sizes = new int[n];
            int changedCount = 0, components = 0, largest = 0;
            int[] changed = new int[16];
            for (int x = 0; x < n; x++) {
                int o = old(x), label;
                if (isSettled(x)) {
                    label = settled[x] - 1;
                } else if (touched != null && touched[o] || group != null && group[o] != o) {
                    if (minOf == null) minOf = new int[n];
                    int r = group == null ? o : root(o);
                    if (minOf[r] == 0) minOf[r] = x + 1;
                    label = minOf[r] - 1;
                } else {
                    label = o;
                }
                labels[x] = label;
                if (label == x) components++;
                int size = ++sizes[label];
                if (size > largest) largest = size;
                if (label != o) {
                    if (changedCount == changed.length) changed = Arrays.copyOf(changed, 2 * changedCount);
                    changed[changedCount++] = x;
                }
            }
            changed = Arrays.copyOf(changed, changedCount);
            CcResult result = new CcResult(labels, components, largest, timing(t0));
            return new Repaired(result, merges(labels, changed), splits(labels, changed), changed);
        }

        /**
         * No insertion joined groups and no previous label was settled away: each settled piece is a new component cut
         * off a previous one (every vertex of a piece had the same previous label, else that label's whole component
         * would be in the piece, its label settled), and everything else keeps its label.
         */
        boolean remaindersKeepTheirLabels() {
            for (int i = 0; i < settledCount; i++) if (isSettled(old(settledList[i]))) return false;
            return true;
        }

        /**
         * The result where only pieces were cut off ({@link #remaindersKeepTheirLabels}): the previous labels copied,
         * the settled vertices patched, the splits read off the pieces. The largest size: the pieces', the remainders'
         * (counted in one pass over the labels), or the previous largest where no component of that size was cut;
         * else, unless the untouched components hold fewer vertices than that, a count of every component.
         */
        Repaired cutOff(long t0) {
            int[] labels = Arrays.copyOf(prev, n);
            for (int x = before; x < n; x++) labels[x] = x;
            int[] changed = Arrays.copyOf(settledList, settledCount);
            for (int x : changed) labels[x] = settled[x] - 1;
            Arrays.sort(changed);
            Map<Integer, Integer> lost = new HashMap<>();
            int largest = 0;
            for (int[] piece : pieces) {
                lost.merge(piece[1], piece[2], Integer::sum);
                largest = Math.max(largest, piece[2]);
            }
            Map<Integer, Integer> remainder = remainders(labels, lost.keySet());
            boolean largestCut = false;
            long rest = before;   // vertices of the components nothing was cut from: none of them is larger
            for (Map.Entry<Integer, Integer> e : remainder.entrySet()) {
                int was = e.getValue() + lost.get(e.getKey());
                largest = Math.max(largest, e.getValue());
                largestCut |= was == previous.largest();
                rest -= was;
            }
            if (!largestCut) {
                largest = Math.max(largest, previous.largest());
            } else if (largest < rest) {
                int[] sizes = new int[n];
                for (int label : labels) largest = Math.max(largest, ++sizes[label]);
            }
            TreeMap<Integer, TreeSet<Integer>> into = new TreeMap<>();
            for (int[] piece : pieces) into.computeIfAbsent(piece[1], k -> new TreeSet<>(List.of(k))).add(piece[0]);
            List<Split> split = new ArrayList<>();
            into.forEach((label, parts) -> split.add(new Split(label, ints(parts))));
            CcResult result = new CcResult(labels, previous.components() + (n - before) + pieces.size(), largest,
                    timing(t0));
            return new Repaired(result, List.of(), split, changed);
        }

        /** The vertices still labeled by each of {@code labels} (one pass; a compare per vertex for one label). */
        Map<Integer, Integer> remainders(int[] all, java.util.Set<Integer> labels) {
            Map<Integer, Integer> count = new HashMap<>();
            if (labels.isEmpty()) return count;
            if (labels.size() == 1) {
                int only = labels.iterator().next(), c = 0;
                for (int label : all) if (label == only) c++;
                count.put(only, c);
                return count;
            }
            for (int label : labels) count.put(label, 0);
            for (int label : all) if (touched[label] && count.containsKey(label)) count.merge(label, 1, Integer::sum);
            return count;
        }

        /** New labels that gathered several previous ones. */
        List<Merge> merges(int[] labels, int[] changed) {
            TreeMap<Integer, TreeSet<Integer>> from = new TreeMap<>();
            for (int x : changed) from.computeIfAbsent(labels[x], k -> new TreeSet<>()).add(old(x));
            List<Merge> out = new ArrayList<>();
            for (Map.Entry<Integer, TreeSet<Integer>> e : from.entrySet()) {
                int label = e.getKey();
                if (old(label) == label && labels[label] == label) e.getValue().add(label);
                if (e.getValue().size() > 1) out.add(new Merge(label, ints(e.getValue())));
            }
            return out;
        }

        /** Previous labels now spread over several. */
        List<Split> splits(int[] labels, int[] changed) {
            TreeMap<Integer, TreeSet<Integer>> into = new TreeMap<>();
            for (int x : changed) into.computeIfAbsent(old(x), k -> new TreeSet<>()).add(labels[x]);
            List<Split> out = new ArrayList<>();
            for (Map.Entry<Integer, TreeSet<Integer>> e : into.entrySet()) {
                int label = e.getKey();
                if (old(label) == label && labels[label] == label) e.getValue().add(label);
                if (e.getValue().size() > 1) out.add(new Split(label, ints(e.getValue())));
            }
            return out;
        }

        static int[] ints(TreeSet<Integer> set) {
            return set.stream().mapToInt(Integer::intValue).toArray();
        }

        Timing timing(long t0) {
            return new Timing(System.nanoTime() - t0, 0,
                    Map.of("work", work, "searches", (long) searches, "settled", (long) settledCount));
        }
    }
}
