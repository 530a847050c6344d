package org.frontiergraph.kernels.graph;

import java.util.Arrays;

/**
 * A growable list of edges as parallel primitive arrays, 0-based vertex ids.
 * This is what loaders, generators and snapshot assembly produce; {@link GraphBuilder} turns it into a {@link CsrGraph}.
 */
public final class EdgeList {
    private int vertexCount;
    private final boolean directed;
    private int[] sources;
    private int[] targets;
    private double[] weights;
    private int size;

    public EdgeList(int vertexCount, boolean directed, int expectedEdges) {
        if (vertexCount < 0) throw new IllegalArgumentException("vertexCount must be >= 0, got " + vertexCount);
        this.vertexCount = vertexCount;
        this.directed = directed;
        int cap = Math.max(16, expectedEdges);
        this.sources = new int[cap];
        this.targets = new int[cap];
        this.weights = new double[cap];
    }

    /**
     * The edges held in these arrays, all of them (size = their length), taken as they are, not copied: what an
     * assembler that already holds the edges in arrays hands over. The arrays must have equal lengths.
     */
    public static EdgeList of(int vertexCount, boolean directed, int[] sources, int[] targets, double[] weights) {
        if (targets.length != sources.length || weights.length != sources.length) {
            throw new IllegalArgumentException("sources, targets and weights differ in length (" + sources.length + ", "
                    + targets.length + ", " + weights.length + ")");
        }
        EdgeList e = new EdgeList(vertexCount, directed, 0);
        e.sources = sources;
        e.targets = targets;
        e.weights = weights;
        e.size = sources.length;
        return e;
    }

    public EdgeList(int vertexCount, boolean directed) {
        this(vertexCount, directed, 16);
    }

    public void add(int source, int target, double weight) {
        if (size == sources.length) grow(size + 1);
        sources[size] = source;
        targets[size] = target;
        weights[size] = weight;
        size++;
    }

    private void grow(int min) {
        int cap = Math.max(min, (int) Math.min(Integer.MAX_VALUE - 8, sources.length * 3L / 2 + 16));
        sources = Arrays.copyOf(sources, cap);
        targets = Arrays.copyOf(targets, cap);
        weights = Arrays.copyOf(weights, cap);
    }

    public int size() { return size; }
    public int vertexCount() { return vertexCount; }
    public boolean directed() { return directed; }
    public int source(int i) { return sources[i]; }
    public int target(int i) { return targets[i]; }
    public double weight(int i) { return weights[i]; }

    /** Raises the vertex count (e.g. when a loader sees an id beyond its header). */
    public void ensureVertexCount(int n) { if (n > vertexCount) vertexCount = n; }

    /** The backing arrays (length may exceed {@link #size()}); for bulk readers only. */
    public int[] sourcesArray() { return sources; }
    public int[] targetsArray() { return targets; }
    public double[] weightsArray() { return weights; }
}
