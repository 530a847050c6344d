package org.frontiergraph.kernels.bfs;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.TreeAnswer;

/**
 * Breadth-first search from {@code source}. {@code hops[v]} is the number of arcs on a shortest path, or
 * {@link #UNREACHED}; {@code parents[v]} is v's predecessor on such a path, {@code parents[source] == source},
 * and {@link #UNREACHED} for unreached vertices. Any parent that satisfies the verifier's rules is valid. As a
 * {@link TreeAnswer}, a vertex's value is its hop count as a double ({@code +Inf} unreached).
 */
public record BfsResult(int source, int[] hops, int[] parents, Timing timing) implements TreeAnswer<BfsResult> {
    public static final int UNREACHED = -1;

    @Override public int vertexCount() { return hops.length; }

    @Override
    public double value(int v) {
        int h = hops[v];
        return h == UNREACHED ? Double.POSITIVE_INFINITY : h;
    }

    @Override public int parent(int v) { return parents[v]; }

    @Override
    public double[] values() {
        double[] v = new double[hops.length];
        for (int i = 0; i < v.length; i++) v[i] = value(i);
        return v;
    }

    @Override
    public void set(int v, double value, int parent) {
        hops[v] = value == Double.POSITIVE_INFINITY ? UNREACHED : (int) value;
        parents[v] = parent;
    }

    @Override public boolean unitWeights() { return true; }

    @Override
    public BfsResult grown(int n) {
        int before = hops.length;
        if (before >= n) return this;
        int[] h = Arrays.copyOf(hops, n), p = Arrays.copyOf(parents, n);
        Arrays.fill(h, before, n, UNREACHED);
        Arrays.fill(p, before, n, UNREACHED);
        return new BfsResult(source, h, p, timing);
    }

    @Override
    public BfsResult withTiming(Timing t) {
        return new BfsResult(source, hops, parents, t);
    }
}
