package org.frontiergraph.kernels.cc;

import org.frontiergraph.kernels.engine.Timing;

/**
 * The weakly connected components of a graph (arcs taken as undirected): {@code labels[v]} is the smallest vertex id
 * of v's component, so labels are canonical and compare across engines and versions; {@code components} counts the
 * components, isolated vertices included; {@code largest} is the size of the largest (0 on an empty graph). The
 * labels array is not copied: treat it as read-only ({@link CcRepair} shares it between versions it did not change).
 */
public record CcResult(int[] labels, int components, int largest, Timing timing) {
    /** The result for canonical {@code labels}, counting its components and their largest size (O(n)). */
    public static CcResult of(int[] labels, Timing timing) {
        int n = labels.length;
        int[] sizes = new int[n];
        int components = 0, largest = 0;
        for (int v = 0; v < n; v++) {
            int s = ++sizes[labels[v]];
            if (s > largest) largest = s;
            if (labels[v] == v) components++;
        }
        return new CcResult(labels, components, largest, timing);
    }

    /** The SUMMARY of this result. */
    public CcSummary summary() {
        return new CcSummary(components, largest, timing);
    }

    /** This result read at {@code targets}. */
    public CcAtTargets at(int[] targets) {
        int[] l = new int[targets.length];
        for (int i = 0; i < targets.length; i++) l[i] = labels[targets[i]];
        return new CcAtTargets(targets.clone(), l, timing);
    }
}
