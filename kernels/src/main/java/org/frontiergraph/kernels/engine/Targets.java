package org.frontiergraph.kernels.engine;

/**
 * The query of a single-source algorithm answered at a few vertices only (a TARGETS query): the 0-based source and
 * targets, in range (callers validate), repeats allowed; values come back in the targets' order.
 */
public record Targets(int source, int[] vertices) {
    public Targets {
        vertices = vertices.clone();
    }
}
