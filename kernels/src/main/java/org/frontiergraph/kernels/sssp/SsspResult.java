package org.frontiergraph.kernels.sssp;

import java.util.Arrays;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.engine.TreeAnswer;

/**
 * Single-source shortest paths from {@code source} with non-negative weights. {@code distances[v]} is exact
 * (the same double every correct implementation computes), {@link Double#POSITIVE_INFINITY} when unreachable;
 * {@code parents[v]} is v's predecessor on a shortest path, {@code parents[source] == source}, -1 when unreachable.
 */
public record SsspResult(int source, double[] distances, int[] parents, Timing timing) implements TreeAnswer<SsspResult> {
    public static final int NO_PARENT = -1;

    @Override public int vertexCount() { return distances.length; }

    @Override public double value(int v) { return distances[v]; }

    @Override public int parent(int v) { return parents[v]; }

    @Override public double[] values() { return distances; }

    @Override
    public void set(int v, double value, int parent) {
        distances[v] = value;
        parents[v] = parent;
    }

    @Override public boolean unitWeights() { return false; }

    @Override
    public SsspResult grown(int n) {
        int before = distances.length;
        if (before >= n) return this;
        double[] d = Arrays.copyOf(distances, n);
        int[] p = Arrays.copyOf(parents, n);
        Arrays.fill(d, before, n, Double.POSITIVE_INFINITY);
        Arrays.fill(p, before, n, NO_PARENT);
        return new SsspResult(source, d, p, timing);
    }

    @Override
    public SsspResult withTiming(Timing t) {
        return new SsspResult(source, distances, parents, t);
    }
}
