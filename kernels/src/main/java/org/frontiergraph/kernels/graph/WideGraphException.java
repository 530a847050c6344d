package org.frontiergraph.kernels.graph;

/**
 * An operation that indexes arcs with int32 asked of a graph held in the wide form ({@link CsrGraph#wide()}): more arcs
 * than a Java array holds, its per-arc arrays in pages and its row offsets 64-bit. The message names the operation, the
 * graph's arc count and what to do instead; the worker reports it as GRAPH_TOO_LARGE.
 */
public class WideGraphException extends IllegalStateException {
    private final long arcs;

    /**
     * {@code operation} (e.g. "CsrGraph.columns()") refused on a wide graph of {@code arcs} arcs; {@code remedy} says
     * what to do instead.
     */
    public WideGraphException(String operation, long arcs, String remedy) {
        super(operation + " needs int32 arc indexes, but the graph has " + arcs + " arcs held in the wide (64-bit) form"
                + " (an int32 arc index holds at most " + CsrGraph.MAX_INT_ARCS + "): " + remedy);
        this.arcs = arcs;
    }

    /** {@code operation} refused on what a wide graph gave (e.g. its re-weighted arcs), its arc count not at hand. */
    public WideGraphException(String operation, String remedy) {
        super(operation + " needs int32 arc indexes, but the graph is held in the wide (64-bit) form: " + remedy);
        this.arcs = -1;
    }

    /** The graph's arc count, -1 when not known. */
    public long arcs() { return arcs; }
}
