package org.frontiergraph.kernels.sssp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.UpdateStreams;

/** A resident graph's host copy made to follow another graph's changes (the device tests' streams run on their own). */
public final class DeviceMirror {
    private DeviceMirror() {}

    /** A copy of {@code g} sharing no array with it. */
    public static CsrGraph copy(CsrGraph g) {
        return UpdateStreams.rebuilt(g, g.vertexCount());
    }

    /**
     * Applies to {@code mirror} (the version before {@code changes}, in either form) the updates that make it
     * {@code now}: for each changed pair, the arc's removal, new weight or insertion; new vertices first. Checks that
     * it then holds {@code now}'s arcs and weights.
     */
    public static void follow(MutableGraph mirror, CsrGraph now, ChangedEdges changes) {
        int added = now.vertexCount() - mirror.vertexCount();
        Set<Long> seen = new HashSet<>();
        List<int[]> rem = new ArrayList<>(), rew = new ArrayList<>(), add = new ArrayList<>();
        List<Double> rw = new ArrayList<>(), aw = new ArrayList<>();
        int n0 = mirror.vertexCount();
        for (int i = 0; i < changes.size(); i++) {
            int u = changes.u()[i], v = changes.v()[i];
            if (u == v) continue;
            if (!now.directed() && u > v) {
                int t = u;
                u = v;
                v = t;
            }
            if (!seen.add((long) u << 32 | v)) continue;
            int arc = now.findArc(u, v);
            double was = u < n0 && v < n0 ? mirror.weightOf(u, v) : Double.NaN;
            if (arc >= 0 && Double.isNaN(was)) {
                add.add(new int[] {u, v});
                aw.add(now.weights()[arc]);
            } else if (arc >= 0 && was != now.weights()[arc]) {
                rew.add(new int[] {u, v});
                rw.add(now.weights()[arc]);
            } else if (arc < 0 && !Double.isNaN(was)) {
                rem.add(new int[] {u, v});
            }
        }
        mirror.apply(new EdgeEdits(added, UpdateStreams.us(rem), UpdateStreams.vs(rem), UpdateStreams.us(rew),
                UpdateStreams.vs(rew), rw.stream().mapToDouble(d -> d).toArray(), UpdateStreams.us(add),
                UpdateStreams.vs(add), aw.stream().mapToDouble(d -> d).toArray()), 0, Long.MAX_VALUE);
        if (!sameArcs(mirror.current(), now)) throw new AssertionError("the resident copy does not follow the stream's graph");
    }

    /** Whether {@code a} and {@code b} hold the same rows, targets and weights, each in either form (a wide mirror too). */
    static boolean sameArcs(CsrGraph a, CsrGraph b) {
        if (a.vertexCount() != b.vertexCount() || !Arrays.equals(a.rowOffsetsLong(), b.rowOffsetsLong())) return false;
        for (long arc = 0; arc < a.arcs(); arc++) {
            if (a.targetAt(arc) != b.targetAt(arc) || Double.compare(a.weightAt(arc), b.weightAt(arc)) != 0) return false;
        }
        return true;
    }
}
