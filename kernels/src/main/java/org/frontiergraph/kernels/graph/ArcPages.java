package org.frontiergraph.kernels.graph;

/**
 * A graph's per-arc arrays cut into pages of {@code pageArcs} arcs (the last page may be shorter): how a graph of
 * more arcs than a Java array holds (2^31 - 8) is stored on the host and copied to the device. Arc {@code a} lives in
 * page {@code a / pageArcs} at {@code a % pageArcs}. A graph small enough for one array has one page: its arrays.
 * Shared, read-only views; do not modify.
 */
public record ArcPages(int pageArcs, int[][] columns, double[][] weights, int[][] edgeIds) {
    public int pageCount() { return columns.length; }

    /** Arcs in page {@code p}. */
    public int arcsIn(int p) { return columns[p].length; }

    /** The first arc of page {@code p}. */
    public long firstArc(int p) { return (long) p * pageArcs; }
}
