package org.frontiergraph.kernels.standing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.frontiergraph.kernels.cc.CcRepair;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.cc.CcVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Standing CC: the labels, kept by {@link CcRepair} on the host (its budget per arc, divided as the others'). What
 * changed is the vertices whose label changed and the new vertices (so that a consumer learns every vertex's label),
 * with the components that merged and split (its {@link ComponentChange}s, the delta's {@link Delta#content()}).
 */
public final class CcKind implements StandingKind<CcResult> {
    public static final CcKind CC = new CcKind();

    /**
     * A component change of a CC answer, in engine ids: the content of CC's {@link Delta}s. MERGED: the component
     * labeled {@code label} now holds the vertices of the previous components {@code parts} (their labels,
     * ascending); SPLIT: the previous component {@code label} now lies in the components {@code parts} (their labels
     * now, ascending). A new vertex counts as a previous component of its own. Do not modify {@code parts}.
     */
    public record ComponentChange(boolean merged, int label, int[] parts) {}

    private CcKind() {}

    /** The work past which a repair on {@code graph} gives up, with its per-arc part {@code divisor} times smaller. */
    public long budget(CsrGraph graph, int divisor) {
        return CcRepair.MIN_BUDGET + (long) (CcRepair.BUDGET_PER_ARC * graph.arcs() / Math.max(1, divisor));
    }

    @Override
    public Update<CcResult> repair(CsrGraph graph, CcResult previous, ChangedEdges changes, int budgetDivisor) {
        CcRepair.Repaired r = CcRepair.repair(graph, previous, changes, budget(graph, budgetDivisor));
        if (r == null) return null;
        List<ComponentChange> events = new ArrayList<>(r.merged().size() + r.split().size());
        for (CcRepair.Merge m : r.merged()) events.add(new ComponentChange(true, m.label(), m.from()));
        for (CcRepair.Split s : r.split()) events.add(new ComponentChange(false, s.label(), s.into()));
        return new Update<>(r.result(), Delta.ofVertices(withNew(r.changed(), changes.vertexCountBefore(),
                graph.vertexCount()), events));
    }

    /** {@code changed} (ascending) with the new vertices {@code before .. n-1} added. */
    private static int[] withNew(int[] changed, int before, int n) {
        if (n == before) return changed;
        int k = 0;
        while (k < changed.length && changed[k] < before) k++;
        int[] all = Arrays.copyOf(changed, k + n - before);
        for (int x = before; x < n; x++) all[k + x - before] = x;
        return all;
    }

    /**
     * Whether the batch can change the labels: it added vertices, or a changed pair is an arc now between two
     * components, or is no arc now inside one (a deletion; conservative on a directed graph, whose other arc may
     * remain). A pair that is an arc inside one component, or none between two, changes nothing.
     */
    @Override
    public boolean touchedBy(Screen screen, CcResult answer) {
        if (screen.grown()) return true;
        int[] labels = answer.labels(), tails = screen.tails(), heads = screen.heads();
        double[] weights = screen.weights();
        for (int i = 0; i < tails.length; i++) {
            boolean arc = weights[i] == weights[i], same = labels[tails[i]] == labels[heads[i]];
            if (arc != same) return true;
        }
        return false;
    }

    @Override
    public Delta compare(CcResult previous, CcResult next) {
        int[] before = previous.labels(), now = next.labels();
        int[] changed = new int[64];
        int k = 0;
        for (int v = 0; v < now.length; v++) {
            if (v >= before.length || before[v] != now[v]) {
                if (k == changed.length) changed = Arrays.copyOf(changed, 2 * k);
                changed[k++] = v;
            }
        }
        changed = Arrays.copyOf(changed, k);
        return Delta.ofVertices(changed, events(before, now, changed));
    }

    /**
     * The merges and splits between {@code before} and {@code now} (labels of the graph before and after; vertices
     * past {@code before}'s length are new, their own previous components), from the vertices whose label changed
     * or that are new ({@code changed}): a component of the new graph whose vertices carried two or more previous
     * labels merged, a previous one whose vertices now carry two or more labels split. The vertices that kept their
     * label add that label to both sides: a label's own vertex kept it exactly when any vertex did.
     */
    static List<ComponentChange> events(int[] before, int[] now, int[] changed) {
        TreeMap<Integer, TreeSet<Integer>> from = new TreeMap<>(), into = new TreeMap<>();
        for (int x : changed) {
            int old = x < before.length ? before[x] : x;
            from.computeIfAbsent(now[x], l -> new TreeSet<>()).add(old);
            into.computeIfAbsent(old, l -> new TreeSet<>()).add(now[x]);
        }
        List<ComponentChange> events = new ArrayList<>();
        for (Map.Entry<Integer, TreeSet<Integer>> e : from.entrySet()) {
            int label = e.getKey();
            if (label < before.length && before[label] == label && now[label] == label) e.getValue().add(label);
            if (e.getValue().size() > 1) events.add(new ComponentChange(true, label, ints(e.getValue())));
        }
        for (Map.Entry<Integer, TreeSet<Integer>> e : into.entrySet()) {
            int label = e.getKey();
            if (label < before.length && before[label] == label && now[label] == label) e.getValue().add(label);
            if (e.getValue().size() > 1) events.add(new ComponentChange(false, label, ints(e.getValue())));
        }
        return events;
    }

    private static int[] ints(TreeSet<Integer> set) {
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public Verification verify(CsrGraph graph, CcResult repaired, CcResult fresh) {
        return CcVerifier.verify(graph, repaired, fresh);
    }
}
